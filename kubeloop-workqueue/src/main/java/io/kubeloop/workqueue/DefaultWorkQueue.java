package io.kubeloop.workqueue;

import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The {@link WorkQueue} implementation: client-go's queue/dirty/processing sets folded into one
 * atomic state per item, with no lock on the add/get/done path.
 *
 * <p>Each known item has one {@link QueueEntry} in {@link #entries} (client-go: dirty ∪
 * processing) whose state says which sets it is in; {@link #ready} (client-go: queue) holds the
 * entries in state QUEUED in hand-out order. Every transition is one CAS on the entry's state
 * (see {@link QueueEntry}); only the winner of a transition into QUEUED offers the entry to
 * {@code ready}, and only the getter whose CAS QUEUED → PROCESSING succeeds hands it out, so an
 * entry is in {@code ready} at most once and never handed to two workers. Entries are never
 * reused: one that reached REMOVED is unlinked from {@code entries} (by {@code done}, or by an
 * {@code add} that finds it first) and the next add of its item makes a new one. Adding an item
 * whose entry is QUEUED or PROCESSING_DIRTY reads one map node and one state and allocates nothing.
 *
 * <p>Why this shape (measured on a 2-core machine, see BENCHMARKS.md): a thread preempted in the
 * middle of an operation blocks nobody, so under oversubscription workers never park on a lock
 * held by a descheduled thread; the per-item states live in per-item objects, so the only lines
 * every operation shares are the ready queue's head and tail.
 *
 * <p>Blocking {@code get}: a getter that finds {@code ready} empty takes {@link #lock}, counts
 * itself in {@link #waiters} (a volatile write), checks {@code ready} again and waits on
 * {@link #notEmpty}. A producer offers (a volatile CAS) and then reads {@code waiters}; only when it
 * is non-zero does it take the lock to signal. Each side writes before it reads the other's
 * variable, so at least one sees the other: no wake-up is lost, and producers pay one volatile
 * read when nobody waits. Shutdown sets its flag and signals under the lock.
 *
 * <p>Shutdown races: an add that read "not shutting down" and then lost the race to
 * {@link #shutDown()} withdraws its new entry (CAS QUEUED → REMOVED) if no getter has taken it,
 * so an add that overlaps a shutdown is either handed out or ignored, never left queued behind a
 * {@code get} that already returned empty. {@link #shutDownWithDrain()} waits, under the lock,
 * until a scan of {@code entries} finds none in flight and no getter handed one out meanwhile
 * ({@link #drainHandOuts}, counted only while draining); {@code done} signals it.
 *
 * <p>{@link #len()} counts {@code ready} (linear in the number of queued items; it is
 * informational), so no shared counter is touched on the hot path.
 *
 * <p><b>Thread safety:</b> all methods are thread-safe; see {@link WorkQueue}. Metrics hooks are
 * called without a lock, by several threads at once.
 *
 * @param <T> the item type
 */
final class DefaultWorkQueue<T> implements WorkQueue<T> {

    /** Every item that is dirty or processing, by item (client-go: dirty ∪ processing). */
    private final ConcurrentHashMap<T, QueueEntry<T>> entries = new ConcurrentHashMap<>(64);
    /** Entries in state QUEUED, in hand-out order (client-go: queue); may briefly hold a withdrawn one. */
    private final ConcurrentLinkedQueue<QueueEntry<T>> ready = new ConcurrentLinkedQueue<>();

    /** Guards the slow paths only: waiting getters, shutdown and draining. */
    private final ReentrantLock lock = new ReentrantLock();
    /** Signalled when an entry is offered while {@link #waiters} is non-zero, and on shutdown. */
    private final Condition notEmpty = lock.newCondition();
    /** Signalled by {@code done} while draining, and on shutdown. */
    private final Condition drained = lock.newCondition();
    /** Getters waiting on {@link #notEmpty}; written under {@link #lock}, read freely. */
    private volatile int waiters;
    /** Once true, stays true; written under {@link #lock}, read freely. */
    private volatile boolean shuttingDown;
    /** True while a {@link #shutDownWithDrain()} should keep waiting; written under {@link #lock}. */
    private volatile boolean draining;
    /** Hand-outs by getters that saw {@link #draining} set; lets a drain detect a scan that raced a get. */
    private final AtomicLong drainHandOuts = new AtomicLong();

    private final QueueMetrics metrics;

    DefaultWorkQueue(WorkQueueConfig config) {
        this.metrics = config.newQueueMetrics(entries.values());
    }

    QueueMetrics metrics() {
        return metrics;
    }

    @Override
    public void add(T item) {
        Objects.requireNonNull(item, "work queue item must not be null");
        if (shuttingDown) {
            return;
        }
        QueueEntry<T> e = entries.get(item);
        for (;;) {
            if (e == null) {
                QueueEntry<T> fresh = new QueueEntry<>(item); // QUEUED
                e = entries.putIfAbsent(item, fresh);
                if (e == null) {
                    metrics.added(fresh);
                    enqueue(fresh);
                    if (shuttingDown) {
                        withdraw(fresh);
                    }
                    return;
                }
            }
            int s = e.state();
            if (s == QueueEntry.QUEUED || s == QueueEntry.PROCESSING_DIRTY) {
                return; // already dirty: coalesce, allocating nothing
            }
            if (s == QueueEntry.PROCESSING) {
                if (e.casState(QueueEntry.PROCESSING, QueueEntry.PROCESSING_DIRTY)) {
                    metrics.added(e);
                    return; // done() queues it again
                }
            } else { // REMOVED: done is unlinking it; help, then start a fresh entry
                entries.remove(item, e);
                e = entries.get(item);
            }
        }
    }

    /**
     * Takes back a new entry whose add raced a shutdown, unless a getter already took it (then the
     * add counts as before the shutdown, which is also what the getter saw).
     */
    private void withdraw(QueueEntry<T> e) {
        if (e.casState(QueueEntry.QUEUED, QueueEntry.REMOVED)) {
            entries.remove(e.item, e);
            ready.remove(e);
        }
    }

    /** Appends an entry that just became QUEUED and wakes a waiting getter, if any. */
    private void enqueue(QueueEntry<T> e) {
        ready.offer(e);
        if (waiters != 0) {
            lock.lock();
            try {
                notEmpty.signal();
            } finally {
                lock.unlock();
            }
        }
    }

    @Override
    public Optional<T> get() {
        for (;;) {
            boolean down = shuttingDown; // read before polling: "shut down and empty" at the poll
            T item = poll();
            if (item != null) {
                return Optional.of(item);
            }
            if (down) {
                return Optional.empty();
            }
            awaitReady();
        }
    }

    /** Like {@link #get()} but never waits: empty when nothing is queued; for tests. */
    Optional<T> tryGet() {
        return Optional.ofNullable(poll());
    }

    /** Hands out the first QUEUED entry's item, skipping withdrawn entries; null if none. */
    private T poll() {
        QueueEntry<T> e;
        while ((e = ready.poll()) != null) {
            if (e.casState(QueueEntry.QUEUED, QueueEntry.PROCESSING)) {
                if (draining) {
                    drainHandOuts.incrementAndGet();
                }
                metrics.handedOut(e);
                return e.item;
            }
        }
        return null;
    }

    /** Waits until {@link #ready} looks non-empty or the queue shuts down. */
    private void awaitReady() {
        lock.lock();
        try {
            waiters++;
            try {
                while (ready.isEmpty() && !shuttingDown) {
                    notEmpty.await();
                }
            } finally {
                waiters--;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CancellationException("interrupted while waiting for a work queue item");
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void done(T item) {
        if (item == null) {
            return; // never processed, so ignored like any other such item
        }
        QueueEntry<T> e = entries.get(item);
        if (e == null) {
            return;
        }
        for (;;) {
            int s = e.state();
            if (s == QueueEntry.PROCESSING) {
                if (e.casState(QueueEntry.PROCESSING, QueueEntry.REMOVED)) {
                    metrics.done(e);
                    entries.remove(item, e);
                    break;
                }
            } else if (s == QueueEntry.PROCESSING_DIRTY) {
                if (e.casState(QueueEntry.PROCESSING_DIRTY, QueueEntry.QUEUED)) {
                    metrics.done(e);
                    enqueue(e);
                    break;
                }
            } else {
                return; // not being processed: ignore
            }
        }
        if (draining) {
            lock.lock();
            try {
                drained.signalAll();
            } finally {
                lock.unlock();
            }
        }
    }

    @Override
    public int len() {
        return ready.size();
    }

    @Override
    public void shutDown() {
        lock.lock();
        try {
            draining = false;
            shuttingDown = true;
            notEmpty.signalAll();
            drained.signalAll();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void shutDownWithDrain() {
        lock.lock();
        try {
            draining = true;
            shuttingDown = true;
            notEmpty.signalAll();
            while (draining) {
                long handOuts = drainHandOuts.get();
                boolean busy = inFlight() != 0;
                if (drainHandOuts.get() != handOuts) {
                    continue; // a getter handed out an entry the scan may have missed: scan again
                }
                if (!busy) {
                    break;
                }
                drained.await();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CancellationException("interrupted while draining the work queue");
        } finally {
            lock.unlock();
        }
    }

    @Override
    public boolean isShuttingDown() {
        return shuttingDown;
    }

    @Override
    public void close() {
        shutDown();
    }

    /** Items handed out and not done (client-go: len(processing)); exact when no call runs. */
    int inFlight() {
        int n = 0;
        for (QueueEntry<T> e : entries.values()) {
            int s = e.state();
            if (s == QueueEntry.PROCESSING || s == QueueEntry.PROCESSING_DIRTY) {
                n++;
            }
        }
        return n;
    }

    @Override
    public String toString() {
        return "WorkQueue[queued=" + len() + ", inFlight=" + inFlight() + (shuttingDown ? ", shutting down]" : "]");
    }
}
