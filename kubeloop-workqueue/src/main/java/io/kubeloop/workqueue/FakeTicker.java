package io.kubeloop.workqueue;

import java.time.Duration;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A {@link Ticker} that moves only when a test calls {@link #step(Duration)}: delays and rate limits
 * become instant and deterministic to test.
 *
 * <p>Threads parked in {@link #parkUntil(long)} are woken when a step reaches their deadline; the
 * waiting loop of a {@link DelayingQueue} therefore reacts to steps exactly as it would to the
 * passage of real time. {@link #awaitParked(int, Duration)} lets a test wait until such a loop has
 * finished reacting (it parks again) before asserting that something did <em>not</em> happen.
 *
 * <p>Time starts at an arbitrary non-zero instant so that code relying on zero is caught.
 *
 * <p><b>Thread safety:</b> safe for use by any number of threads; all state is guarded by one
 * internal lock, and {@link #nanoTime()} is a volatile read.
 */
public final class FakeTicker implements Ticker {

    private static final long START = 1_000_000_000_000L;

    private final ReentrantLock lock = new ReentrantLock();
    /** Signalled whenever a thread parks; guarded by {@link #lock}. */
    private final Condition parked = lock.newCondition();
    /** Parked threads and their deadlines; guarded by {@link #lock}. */
    private final Map<Thread, Long> waiters = new IdentityHashMap<>();
    /** Current instant; written under {@link #lock}, read freely. */
    private volatile long now = START;

    /** Creates a ticker at an arbitrary fixed instant. */
    public FakeTicker() {
    }

    @Override
    public long nanoTime() {
        return now;
    }

    /**
     * Moves time forward and wakes every parked thread whose deadline is reached.
     *
     * @param duration how far to move; must not be negative
     * @throws IllegalArgumentException if {@code duration} is negative
     */
    public void step(Duration duration) {
        if (duration.isNegative()) {
            throw new IllegalArgumentException("FakeTicker cannot step backwards: " + duration);
        }
        lock.lock();
        try {
            now = Durations.saturatedAdd(now, Durations.toNanosSaturated(duration));
            var it = waiters.entrySet().iterator();
            while (it.hasNext()) {
                var waiter = it.next();
                if (waiter.getValue() <= now) {
                    Thread thread = waiter.getKey();
                    it.remove();
                    LockSupport.unpark(thread);
                }
            }
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void parkUntil(long deadlineNanos) {
        Thread self = Thread.currentThread();
        lock.lock();
        try {
            if (deadlineNanos <= now) {
                return;
            }
            waiters.put(self, deadlineNanos);
            parked.signalAll();
        } finally {
            lock.unlock();
        }
        LockSupport.park(this);
        lock.lock();
        try {
            waiters.remove(self);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Returns how many threads are parked in {@link #parkUntil(long)} with a deadline not yet
     * reached.
     *
     * @return the number of parked threads
     */
    public int parkedCount() {
        lock.lock();
        try {
            return waiters.size();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Waits (in real time) until at least {@code count} threads are parked on this ticker. After a
     * {@link #step(Duration)} woke a queue's waiting loop, this returns once the loop has done its
     * work and parked again.
     *
     * @param count how many parked threads to wait for
     * @param timeout the longest real time to wait
     * @return true if {@code count} threads are parked, false on timeout or interruption (the
     *     interrupt flag is then set again)
     */
    public boolean awaitParked(int count, Duration timeout) {
        long remaining = Durations.toNanosSaturated(timeout);
        lock.lock();
        try {
            while (waiters.size() < count) {
                if (remaining <= 0) {
                    return false;
                }
                remaining = parked.awaitNanos(remaining);
            }
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public String toString() {
        return "FakeTicker[" + TimeUnit.NANOSECONDS.toMillis(now - START) + " ms after start]";
    }
}
