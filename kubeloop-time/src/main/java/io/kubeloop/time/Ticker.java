package io.kubeloop.time;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.locks.LockSupport;

/**
 * The clock of everything in kubeloop that reads or waits for time: a monotonic nanosecond clock
 * for intervals, deadlines and timeouts, a wall clock for timestamps, and a way to park a thread
 * until an instant of the monotonic clock.
 *
 * <p>Production code uses {@link #system()}. Tests give every component the same fake ticker
 * ({@link io.kubeloop.time.testing.FakeTicker}, beside it in this artifact) and step it, so
 * that back-offs, resyncs, delays and lease expiries happen instantly and in a chosen order. This
 * mirrors client-go's {@code k8s.io/utils/clock}: {@link #instant()} is its {@code PassiveClock.Now},
 * {@link #nanoTime()} the monotonic reading Go keeps inside a {@code time.Time}, {@link #sleep}
 * its {@code Clock.Sleep}, and {@link #parkUntil} the primitive that its timers and
 * {@code After} channels are built on here.
 *
 * <p><b>Contract.</b>
 * <ul>
 *   <li>{@link #nanoTime()} never decreases; only differences between two readings mean
 *       anything, and they are compared as {@code a - b >= 0}, never {@code a >= b}.</li>
 *   <li>{@link #instant()} is the wall clock: it may jump either way and must not be used to
 *       measure intervals.</li>
 *   <li>{@link #parkUntil(long)} keeps the contract of {@link LockSupport#park()}: it returns when
 *       the monotonic clock reaches the deadline, when the thread is unparked (also by an
 *       unpark that came before the call), when it is interrupted (the flag stays set), or
 *       spuriously. Callers re-check their condition in a loop. A component that must stop a
 *       thread waiting for a deadline sets its flag and unparks the thread.</li>
 *   <li>{@link #sleep(Duration)} waits until the monotonic clock has advanced by the duration, or
 *       throws {@link InterruptedException} when the thread is interrupted.</li>
 * </ul>
 *
 * <p><b>Thread safety:</b> implementations are safe for use by any number of threads.
 *
 * @see <a href="https://pkg.go.dev/k8s.io/utils/clock">Go's k8s.io/utils/clock</a>
 */
public interface Ticker extends InstantSource {

    /**
     * Returns the monotonic clock's reading in nanoseconds, like {@link System#nanoTime()}. The
     * origin is arbitrary; readings never decrease.
     *
     * @return the current monotonic instant
     */
    long nanoTime();

    /**
     * Returns the wall-clock instant, like {@link Instant#now()}: for timestamps that leave the
     * process (object metadata, Lease renew times, Event times), not for measuring intervals.
     *
     * @return the current wall-clock instant
     */
    @Override
    Instant instant();

    /**
     * Parks the calling thread until the monotonic clock reaches {@code deadlineNanos}, until
     * {@link LockSupport#unpark(Thread)} is called for the thread, until the thread is interrupted,
     * or spuriously. Returns at once if the deadline has passed, if the thread holds an unpark
     * permit, or if it is interrupted. Never throws {@link InterruptedException} and never clears
     * the interrupt flag.
     *
     * @param deadlineNanos the instant, in {@link #nanoTime()}'s time, to wake up at;
     *     {@link Long#MAX_VALUE} waits for an unpark or interrupt only
     */
    void parkUntil(long deadlineNanos);

    /**
     * Blocks the calling thread until the monotonic clock has advanced by {@code duration}; returns
     * at once when it is zero or negative. This is the one checked exception in kubeloop's public
     * surface: a blocked call must stay interruptible, and callers turn it into their own unchecked
     * error after restoring the flag.
     *
     * <p>The default loops on {@link #parkUntil(long)} until the deadline is reached.
     *
     * @param duration how long to wait
     * @throws InterruptedException when the thread is interrupted before or while waiting (the
     *     flag is then cleared, as by {@link Thread#sleep})
     */
    default void sleep(Duration duration) throws InterruptedException {
        if (!duration.isPositive()) {
            return;
        }
        long deadline = deadline(nanoTime(), duration);
        while (true) {
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
            if (deadline != Long.MAX_VALUE && nanoTime() - deadline >= 0) {
                return;
            }
            parkUntil(deadline);
        }
    }

    /**
     * Returns the ticker of the running JVM: {@link System#nanoTime()}, the system UTC clock,
     * {@link LockSupport#parkNanos(Object, long)} and {@link Thread#sleep(Duration)}.
     *
     * @return the system ticker, a shared stateless instance
     */
    static Ticker system() {
        return SystemTicker.INSTANCE;
    }

    /**
     * Returns {@code now + duration} in nanoseconds, saturating at {@link Long#MAX_VALUE} ("no
     * deadline") for durations too long to add, and at {@code now} for negative ones.
     *
     * @param now a reading of {@link #nanoTime()}
     * @param duration how far ahead
     * @return the deadline
     */
    static long deadline(long now, Duration duration) {
        if (!duration.isPositive()) {
            return now;
        }
        long nanos = duration.getSeconds() >= Long.MAX_VALUE / 1_000_000_000L ? Long.MAX_VALUE : duration.toNanos();
        long sum = now + nanos;
        // past about 292 years from the reading, or on overflow: no deadline
        return ((now ^ sum) & (nanos ^ sum)) < 0 || nanos == Long.MAX_VALUE ? Long.MAX_VALUE : sum;
    }
}
