package io.kubeloop.workqueue;

import java.io.Serial;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.AbstractQueuedSynchronizer;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;

/**
 * The lock of a {@link DefaultWorkQueue}: a non-reentrant mutex on
 * {@link AbstractQueuedSynchronizer} (the "Mutex" of its Javadoc), so it queues and parks waiters
 * and supports {@link Condition}s exactly as {@link java.util.concurrent.locks.ReentrantLock} does,
 * and like it parks virtual threads without pinning their carrier.
 *
 * <p>It exists because the work queue's critical sections are a few dozen instructions long and
 * never re-enter: {@code ReentrantLock}'s owner-thread bookkeeping (read the current thread,
 * write the owner on lock, check and clear it on unlock) was a measurable share of a work item's
 * cost (see BENCHMARKS.md). Acquisition is one CAS, release one volatile write plus AQS's check for a
 * queued successor.
 *
 * <p>Invariant: state is 1 while held, 0 while free. Not reentrant: a thread that holds it and
 * locks it again deadlocks, so holders call no code that could lock it again (no user code runs
 * under it). {@link #unlock} must only be called by the holder; this is not checked.
 *
 * <p>It implements {@link Lock} so that ErrorProne's {@code @GuardedBy} checker recognises
 * {@code lock()}/{@code unlock()} in try/finally as holding it. Holders declare it with its own
 * (final) class as the static type, so calls stay monomorphic and inline as before.
 *
 * <p><b>Thread safety:</b> thread-safe, as any lock.
 */
final class QueueLock extends AbstractQueuedSynchronizer implements Lock {

    @Serial
    private static final long serialVersionUID = 1L;

    /** Takes the lock, waiting (parked, after AQS's brief spin when first in line) if needed. */
    @Override
    public void lock() {
        if (!compareAndSetState(0, 1)) {
            acquire(1);
        }
    }

    /** Takes the lock unless interrupted while waiting for it. */
    @Override
    public void lockInterruptibly() throws InterruptedException {
        acquireInterruptibly(1);
    }

    /** Takes the lock only if it is free at the time of the call. */
    @Override
    public boolean tryLock() {
        return compareAndSetState(0, 1);
    }

    /** Takes the lock if it becomes free within the timeout, unless interrupted. */
    @Override
    public boolean tryLock(long time, TimeUnit unit) throws InterruptedException {
        return tryAcquireNanos(1, unit.toNanos(time));
    }

    /** Releases the lock and wakes the first queued waiter, if any. */
    @Override
    public void unlock() {
        release(1);
    }

    /** A new condition of this lock; its {@code await} and {@code signal} need the lock held. */
    @Override
    public Condition newCondition() {
        return new ConditionObject();
    }

    @Override
    protected boolean tryAcquire(int ignored) {
        return compareAndSetState(0, 1);
    }

    @Override
    protected boolean tryRelease(int ignored) {
        setState(0);
        return true;
    }

    @Override
    protected boolean isHeldExclusively() {
        return getState() == 1;
    }
}
