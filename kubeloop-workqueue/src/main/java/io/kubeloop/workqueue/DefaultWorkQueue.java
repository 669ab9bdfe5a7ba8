package io.kubeloop.workqueue;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.locks.Condition;

/**
 * The {@link WorkQueue} implementation: client-go's queue/dirty/processing sets under one lock,
 * folded into one {@link QueueEntry} per item so that each call does one hash probe.
 *
 * <p>client-go keeps {@code queue} (order), {@code dirty} (needs processing) and
 * {@code processing} (handed out) as three collections. Here each known item has one entry in
 * {@link #entries} whose state says which of those sets it is in (see {@link QueueEntry}); the
 * ready list ({@link #readyHead} … {@link #readyTail}, linked through the entries) plays the role
 * of {@code queue}. The fields' invariants, all guarded by {@link #lock}:
 * <ul>
 *   <li>{@code entries} holds exactly the items that are dirty or processing (client-go:
 *       dirty ∪ processing);</li>
 *   <li>an entry is in the ready list exactly when its state is QUEUED, and then once;
 *       {@link #readyCount} is the list's length;</li>
 *   <li>{@link #processing} is the number of entries in state PROCESSING or PROCESSING_DIRTY.</li>
 * </ul>
 * Critical sections are one hash probe and a linked-list operation. Entries are intrusive (they
 * are the table's and the list's nodes) and recycled by the {@link EntryTable}, so a work item's
 * whole life (add, get, done) allocates nothing in steady state, and adding an already-queued
 * item never does. The lock is a {@link QueueLock} (a non-reentrant AQS mutex), taken once per
 * call. Measured on a 2-core machine against a lock-free variant (ConcurrentHashMap +
 * ConcurrentLinkedQueue + CAS per entry) and a flat-combining variant (both in git history),
 * this is faster at 1, 4 and 16 threads: one lock moves fewer cache lines between cores than many
 * CASes do, and combining's publication slots cost more than they save (see BENCHMARKS.md).
 *
 * <p><b>Thread safety:</b> all methods are thread-safe; see {@link WorkQueue}.
 *
 * @param <T> the item type
 */
final class DefaultWorkQueue<T> implements WorkQueue<T> {

    private final QueueLock lock = new QueueLock();
    /** Signalled when the ready list gets an entry while {@link #waiters} is non-zero, and on shutdown. */
    private final Condition notEmpty = lock.newCondition();
    /** Signalled when {@link #processing} drops to zero during a drain, and on shutdown. */
    private final Condition drained = lock.newCondition();

    /** Every item that is dirty or processing, by item; guarded by {@link #lock}. */
    @GuardedBy("lock")
    private final EntryTable<T> entries = new EntryTable<>();
    /** First of the entries in state QUEUED, in hand-out order, or null; guarded by {@link #lock}. */
    @GuardedBy("lock")
    private QueueEntry<T> readyHead;
    /** Last entry of the ready list, or null when it is empty; guarded by {@link #lock}. */
    @GuardedBy("lock")
    private QueueEntry<T> readyTail;
    /** Length of the ready list; guarded by {@link #lock}. */
    @GuardedBy("lock")
    private int readyCount;
    /** Entries handed out and not done; guarded by {@link #lock}. */
    @GuardedBy("lock")
    private int processing;
    /** Getters waiting on {@link #notEmpty}; guarded by {@link #lock}. */
    @GuardedBy("lock")
    private int waiters;
    /** Once true, stays true; written under {@link #lock}, read freely. */
    private volatile boolean shuttingDown;
    /** True while a {@link #shutDownWithDrain()} should keep waiting; guarded by {@link #lock}. */
    @GuardedBy("lock")
    private boolean draining;

    private final QueueMetrics metrics;

    DefaultWorkQueue(WorkQueueOptions config) {
        this.metrics = config.newQueueMetrics(this::snapshotEntries);
    }

    QueueMetrics metrics() {
        return metrics;
    }

    /**
     * Copies of the in-flight entries (state and start instant), taken under the lock, for metrics
     * gauges read outside the hot path; copies because entries are reused once removed.
     */
    private Iterator<QueueEntry<?>> snapshotEntries() {
        ArrayList<QueueEntry<?>> copy = new ArrayList<>();
        lock.lock();
        try {
            entries.forEach(e -> {
                int s = e.state();
                if (s == QueueEntry.PROCESSING || s == QueueEntry.PROCESSING_DIRTY) {
                    QueueEntry<Object> c = new QueueEntry<>(null);
                    c.setState(s);
                    c.startedAtNanos = e.startedAtNanos;
                    copy.add(c);
                }
            });
        } finally {
            lock.unlock();
        }
        return copy.iterator();
    }

    @Override
    public void add(T item) {
        int hash = EntryTable.hash(Objects.requireNonNull(item, "work queue item must not be null"));
        lock.lock();
        try {
            if (shuttingDown) {
                return;
            }
            QueueEntry<T> e = entries.find(item, hash);
            if (e == null) {
                e = entries.insert(item, hash);
                metrics.added(e);
                enqueueLocked(e);
            } else if (e.state() == QueueEntry.PROCESSING) {
                e.setState(QueueEntry.PROCESSING_DIRTY); // done() queues it again
                metrics.added(e);
            }
            // QUEUED or PROCESSING_DIRTY: already dirty, coalesce
        } finally {
            lock.unlock();
        }
    }

    @GuardedBy("lock")
    private void enqueueLocked(QueueEntry<T> e) {
        e.nextReady = null;
        if (readyTail == null) {
            readyHead = e;
        } else {
            readyTail.nextReady = e;
        }
        readyTail = e;
        readyCount++;
        if (waiters != 0) {
            notEmpty.signal();
        }
    }

    @Override
    public Optional<T> get() {
        lock.lock();
        try {
            while (readyHead == null && !shuttingDown) {
                waiters++;
                try {
                    notEmpty.await();
                } finally {
                    waiters--;
                }
            }
            return Optional.ofNullable(pollLocked());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CancellationException("interrupted while waiting for a work queue item");
        } finally {
            lock.unlock();
        }
    }

    /** Like {@link #get()} but never waits: empty when nothing is queued; for tests. */
    Optional<T> tryGet() {
        lock.lock();
        try {
            return Optional.ofNullable(pollLocked());
        } finally {
            lock.unlock();
        }
    }

    @GuardedBy("lock")
    private T pollLocked() {
        QueueEntry<T> e = readyHead;
        if (e == null) {
            return null;
        }
        readyHead = e.nextReady;
        if (readyHead == null) {
            readyTail = null;
        }
        e.nextReady = null;
        readyCount--;
        e.setState(QueueEntry.PROCESSING);
        processing++;
        metrics.handedOut(e);
        return e.item;
    }

    @Override
    public void done(T item) {
        if (item == null) {
            return; // never processed, so ignored like any other such item
        }
        int hash = EntryTable.hash(item);
        lock.lock();
        try {
            QueueEntry<T> e = entries.find(item, hash);
            if (e == null) {
                return;
            }
            int s = e.state();
            if (s == QueueEntry.PROCESSING) {
                metrics.done(e);
                entries.remove(e); // REMOVED; may be reused for another item from here on
            } else if (s == QueueEntry.PROCESSING_DIRTY) {
                metrics.done(e);
                e.setState(QueueEntry.QUEUED);
                enqueueLocked(e);
            } else {
                return; // not being processed: ignore
            }
            if (--processing == 0 && draining) {
                drained.signalAll();
            }
        } finally {
            lock.unlock();
        }
    }

    @Override
    public int len() {
        lock.lock();
        try {
            return readyCount;
        } finally {
            lock.unlock();
        }
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
            while (draining && processing != 0) {
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

    /** Items handed out and not done (client-go: len(processing)); for tests. */
    int inFlight() {
        lock.lock();
        try {
            return processing;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public String toString() {
        return "WorkQueue[queued=" + len() + ", inFlight=" + inFlight() + (shuttingDown ? ", shutting down]" : "]");
    }
}
