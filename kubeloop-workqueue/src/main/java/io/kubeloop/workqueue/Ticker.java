package io.kubeloop.workqueue;

import java.util.concurrent.locks.LockSupport;

/**
 * The time source of queues and rate limiters: a monotonic nanosecond clock that can also park a
 * thread until one of its instants.
 *
 * <p>Production code uses {@link #system()}; tests use {@link FakeTicker}, which they step by hand
 * so that delays and rate limits are checked instantly and deterministically. Everything in this
 * package that reads time or waits for time does so through the ticker of its
 * {@link WorkQueueConfig} (or the one given to a rate limiter's factory), never through
 * {@code System.nanoTime()} directly.
 *
 * <p><b>Thread safety:</b> implementations must be safe for use by any number of threads.
 *
 * @see <a href="https://pkg.go.dev/k8s.io/utils/clock#WithTicker">Go's clock.WithTicker</a>
 */
public interface Ticker {

    /**
     * Returns the current instant of this ticker in nanoseconds. Only differences between two
     * readings are meaningful; values never decrease.
     *
     * @return the current instant
     */
    long nanoTime();

    /**
     * Parks the calling thread until this ticker reaches {@code deadlineNanos}, until
     * {@link LockSupport#unpark(Thread)} is called for the thread, until the thread is interrupted,
     * or spuriously. Returns at once if the deadline has passed or the thread holds an unpark
     * permit. Callers re-check their condition in a loop, as with {@link LockSupport#park()}.
     *
     * @param deadlineNanos the instant, in this ticker's time, to wake up at; {@link Long#MAX_VALUE}
     *     waits for an unpark only
     */
    void parkUntil(long deadlineNanos);

    /**
     * Returns the ticker of the running JVM: {@link System#nanoTime()} and
     * {@link LockSupport#parkNanos(Object, long)}.
     *
     * @return the system ticker, a shared stateless instance
     */
    static Ticker system() {
        return SystemTicker.INSTANCE;
    }

    /** The real ticker; stateless. */
    enum SystemTicker implements Ticker {
        INSTANCE;

        @Override
        public long nanoTime() {
            return System.nanoTime();
        }

        @Override
        public void parkUntil(long deadlineNanos) {
            if (deadlineNanos == Long.MAX_VALUE) {
                LockSupport.park(this);
                return;
            }
            long wait = deadlineNanos - System.nanoTime();
            if (wait > 0) {
                LockSupport.parkNanos(this, wait);
            }
        }
    }
}
