package io.kubeloop.time.internal;

import io.kubeloop.time.Ticker;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * Threads waiting, on a {@link Ticker}, for a condition or a deadline — "until stopped or timed
 * out", "until synced or timed out". A waiter parks with {@link Ticker#parkUntil(long)}, so a
 * fake ticker's steps reach its deadline as real time would; whoever makes the condition true calls
 * {@link #wakeAll()}, which unparks every waiter to look again. Nothing polls.
 *
 * <p>No wake-up is lost: a waiter registers before it tests the condition, and {@code wakeAll}
 * runs after the condition was made true, so either the waiter sees it or it is unparked (an unpark
 * before the park leaves a permit, and {@code parkUntil} then returns at once).
 *
 * <p>The condition must be safe to test from the waiting thread without a lock (a volatile read,
 * an atomic, a latch count); it is tested once per wake-up.
 *
 * <p><b>Thread safety:</b> thread-safe; lock-free. For kubeloop's modules only; not an API.
 */
public final class Waiters {

    private final Set<Thread> waiting = ConcurrentHashMap.newKeySet();

    /** Creates an empty set of waiters. */
    public Waiters() {}

    /**
     * Waits until {@code done} is true, the ticker reaches {@code deadlineNanos}, or the thread is
     * interrupted (the flag stays set).
     *
     * @param ticker the clock of the deadline
     * @param deadlineNanos the deadline in the ticker's {@link Ticker#nanoTime()}; {@link Long#MAX_VALUE}
     *     for none
     * @param done the condition
     * @return the condition's value when the wait ended
     */
    public boolean await(Ticker ticker, long deadlineNanos, BooleanSupplier done) {
        Thread self = Thread.currentThread();
        waiting.add(self);
        try {
            while (true) {
                if (done.getAsBoolean()) {
                    return true;
                }
                if (self.isInterrupted() || reached(ticker, deadlineNanos)) {
                    return done.getAsBoolean();
                }
                ticker.parkUntil(deadlineNanos);
            }
        } finally {
            waiting.remove(self);
        }
    }

    /**
     * {@link #await(Ticker, long, BooleanSupplier)} with a timeout from now.
     *
     * @param ticker the clock of the timeout
     * @param timeout how long to wait at most
     * @param done the condition
     * @return the condition's value when the wait ended
     */
    public boolean await(Ticker ticker, Duration timeout, BooleanSupplier done) {
        return await(ticker, Ticker.deadline(ticker.nanoTime(), timeout), done);
    }

    /**
     * As {@link #await(Ticker, long, BooleanSupplier)}, but an interrupt ends the wait with
     * {@link InterruptedException} (the flag cleared).
     *
     * @param ticker the clock of the deadline
     * @param deadlineNanos the deadline; {@link Long#MAX_VALUE} for none
     * @param done the condition
     * @return the condition's value when the wait ended
     * @throws InterruptedException if the thread was interrupted before or while waiting
     */
    public boolean awaitInterruptibly(Ticker ticker, long deadlineNanos, BooleanSupplier done)
            throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        boolean result = await(ticker, deadlineNanos, done);
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        return result;
    }

    /** Unparks every waiting thread so that it tests its condition again. */
    public void wakeAll() {
        for (Thread t : waiting) {
            LockSupport.unpark(t);
        }
    }

    /**
     * Returns how many threads wait now.
     *
     * @return the number of waiting threads
     */
    public int size() {
        return waiting.size();
    }

    private static boolean reached(Ticker ticker, long deadlineNanos) {
        return deadlineNanos != Long.MAX_VALUE && ticker.nanoTime() - deadlineNanos >= 0;
    }
}
