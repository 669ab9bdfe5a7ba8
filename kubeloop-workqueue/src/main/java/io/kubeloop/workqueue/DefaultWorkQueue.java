package io.kubeloop.workqueue;

import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The {@link WorkQueue} implementation: client-go's queue/dirty/processing sets, folded into one
 * state per item and run without a lock on the add/get/done path.
 *
 * <p>client-go keeps {@code queue} (order), {@code dirty} (needs processing) and
 * {@code processing} (handed out) under one mutex. Here each known item has one
 * {@link QueueEntry} in {@link #entries}, whose atomic state says which of those sets it is in
 * (see {@link QueueEntry} for the states and the only allowed transitions); {@link #ready} plays
 * the role of {@code queue}. Because every transition is a single CAS on the entry and only the
 * winner of a transition touches {@link #ready}, an entry is in {@code ready} at most once, and
 * is handed out only by the getter that polled it.
 *
 * <p>Blocking: {@link #queued} counts entries in {@code ready} that no getter has claimed. A getter
 * claims one by decrementing it (never below zero) and then polls {@code ready}, which is
 * guaranteed to hold an entry for it because an entry is offered before the count is raised. A
 * getter that finds the count zero registers in {@link #waiters} and waits on {@link #notEmpty}
 * under {@link #lock}; a producer raises the count and then, only if someone waits, signals under
 * the lock. The two volatile accesses in opposite order make a lost wake-up impossible.
 *
 * <p><b>Thread safety:</b> all methods are thread-safe; see {@link WorkQueue}.
 *
 * @param <T> the item type
 */
final class DefaultWorkQueue<T> implements WorkQueue<T> {

    /** Every item that is dirty or processing (client-go: dirty ∪ processing), by item. */
    private final ConcurrentHashMap<T, QueueEntry<T>> entries = new ConcurrentHashMap<>();
    /** Entries in state QUEUED, in hand-out order (client-go: queue). */
    private final ConcurrentLinkedQueue<QueueEntry<T>> ready = new ConcurrentLinkedQueue<>();
    /** Entries in {@link #ready} not yet claimed by a getter; never negative. */
    private final AtomicInteger queued = new AtomicInteger();
    /** Entries handed out and not yet done (client-go: len(processing)). */
    private final AtomicInteger inFlight = new AtomicInteger();

    /** Guards the slow paths: waiting getters and a draining shutdown. */
    private final ReentrantLock lock = new ReentrantLock();
    /** Signalled when {@link #queued} rises while {@link #waiters} is non-zero, and on shutdown. */
    private final Condition notEmpty = lock.newCondition();
    /** Signalled when {@link #inFlight} reaches zero during a drain, and on shutdown. */
    private final Condition drained = lock.newCondition();
    /** Getters waiting on {@link #notEmpty}; written under {@link #lock}, read freely. */
    private volatile int waiters;

    /** Once true, stays true; written under {@link #lock}. */
    private volatile boolean shuttingDown;
    /** True while a {@link #shutDownWithDrain()} should keep waiting; written under {@link #lock}. */
    private volatile boolean draining;

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
                QueueEntry<T> fresh = new QueueEntry<>(item);
                e = entries.putIfAbsent(item, fresh);
                if (e == null) {
                    metrics.added(fresh);
                    enqueue(fresh);
                    return;
                }
            }
            switch (e.state()) {
                case QueueEntry.QUEUED, QueueEntry.PROCESSING_DIRTY -> {
                    return; // already dirty: coalesce
                }
                case QueueEntry.PROCESSING -> {
                    if (e.casState(QueueEntry.PROCESSING, QueueEntry.PROCESSING_DIRTY)) {
                        metrics.added(e);
                        return; // done() will queue it again
                    }
                }
                default -> {
                    // REMOVED: help unlink it, then start a fresh entry
                    entries.remove(item, e);
                    e = entries.get(item);
                }
            }
        }
    }

    /** Appends an entry in state QUEUED to the ready queue and wakes a waiting getter, if any. */
    private void enqueue(QueueEntry<T> e) {
        ready.offer(e);
        queued.incrementAndGet();
        if (waiters != 0) {
            lock.lock();
            try {
                notEmpty.signal();
            } finally {
                lock.unlock();
            }
        }
    }

    /** Claims one ready entry by decrementing {@link #queued}; false if there is none. */
    private boolean tryClaim() {
        for (;;) {
            int n = queued.get();
            if (n == 0) {
                return false;
            }
            if (queued.compareAndSet(n, n - 1)) {
                return true;
            }
        }
    }

    @Override
    public Optional<T> get() {
        for (;;) {
            if (tryClaim()) {
                return Optional.of(handOut(ready.poll()));
            }
            if (shuttingDown) {
                return Optional.empty();
            }
            awaitNotEmpty();
        }
    }

    /** Like {@link #get()} but never waits: empty when nothing is queued; for tests. */
    Optional<T> tryGet() {
        return tryClaim() ? Optional.of(handOut(ready.poll())) : Optional.empty();
    }

    private T handOut(QueueEntry<T> e) {
        inFlight.incrementAndGet();
        e.setState(QueueEntry.PROCESSING);
        metrics.handedOut(e);
        return e.item;
    }

    private void awaitNotEmpty() {
        lock.lock();
        try {
            waiters++;
            try {
                while (queued.get() == 0 && !shuttingDown) {
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
        if (inFlight.decrementAndGet() == 0 && draining) {
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
        return queued.get();
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
            while (draining && inFlight.get() != 0) {
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

    /** Items handed out and not done; for tests. */
    int inFlight() {
        return inFlight.get();
    }

    @Override
    public String toString() {
        return "WorkQueue[queued=" + queued.get() + ", inFlight=" + inFlight.get()
                + (shuttingDown ? ", shutting down]" : "]");
    }
}
