package io.kubeloop.cache.internal;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The state both informer queues share: one lock with its not-empty condition, the populated and
 * closed flags, and the count of first-replace entries not yet processed, with the operations that
 * only read or flip them ({@link #hasSynced}, {@link #close}, {@link #isClosed}, {@link #size}).
 *
 * <p><b>Invariant.</b> Every field below is read and written only with {@link #lock} held; a
 * subclass signals {@link #notEmpty} whenever it queues something.
 *
 * <p><b>Thread safety.</b> Thread-safe through {@link #lock}.
 *
 * @param <T> the object type
 */
abstract sealed class LockedInformerQueue<T> implements InformerQueue<T> permits DeltaFifo, RealFifo {

    /** Guards every field here and in subclasses. */
    final ReentrantLock lock = new ReentrantLock();
    /** Signalled whenever an entry is queued or the queue is closed. */
    final Condition notEmpty = lock.newCondition();
    /** Guarded by lock: true after the first replace or any add/update/delete. */
    @GuardedBy("lock")
    boolean populated;
    /** Guarded by lock: entries of the first replace not yet processed. */
    @GuardedBy("lock")
    int initialPopulationCount;
    /** Guarded by lock. */
    @GuardedBy("lock")
    boolean closed;

    /** The number of queued entries; called with {@link #lock} held. */
    @GuardedBy("lock")
    abstract int sizeLocked();

    @Override
    public final boolean hasSynced() {
        lock.lock();
        try {
            return hasSyncedLocked();
        } finally {
            lock.unlock();
        }
    }

    /** {@link #hasSynced()} for a caller that holds {@link #lock}. */
    @GuardedBy("lock")
    final boolean hasSyncedLocked() {
        return populated && initialPopulationCount == 0;
    }

    @Override
    public final void close() {
        lock.lock();
        try {
            closed = true;
            notEmpty.signalAll();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public final boolean isClosed() {
        lock.lock();
        try {
            return closed;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public final int size() {
        lock.lock();
        try {
            return sizeLocked();
        } finally {
            lock.unlock();
        }
    }
}
