package io.kubeloop.workqueue;

import io.kubeloop.time.Ticker;
import java.time.Duration;

/**
 * A built-in {@link RateLimiter} that answers in nanoseconds, so that the rate-limited add path
 * ({@link RateLimitingQueue#addRateLimited}) creates no {@link Duration}: {@link #when} is
 * {@link #whenNanos} wrapped.
 *
 * <p><b>Thread safety:</b> as every {@link RateLimiter}: implementations are thread-safe.
 *
 * @param <T> the item type
 */
interface NanosRateLimiter<T> extends RateLimiter<T> {

    /**
     * As {@link #when}, in nanoseconds, for a request made at {@code clockNow} on {@code clock}:
     * records the request and returns the delay, never negative, saturated at
     * {@link Long#MAX_VALUE}. A limiter that keeps time (the token bucket) and whose ticker
     * <em>is</em> {@code clock} takes {@code clockNow} as the current instant instead of reading
     * its ticker again; with any other {@code clock}, or {@code null}, it reads its own ticker.
     * This is what lets a rate-limited add read the clock once: the queue reads it, the limiter
     * reserves at that instant, and the item's ready time is that instant plus the delay (on this
     * machine a clock read was over half the cost of an {@code addRateLimited}; BENCHMARKS.md).
     * Thread-safe.
     *
     * @param item the item
     * @param clock the ticker {@code clockNow} was read from, or {@code null} if none was read
     * @param clockNow the reading of {@code clock}; ignored when {@code clock} is not the limiter's
     * @return the delay in nanoseconds
     */
    long whenNanos(T item, Ticker clock, long clockNow);

    @Override
    default Duration when(T item) {
        return Duration.ofNanos(whenNanos(item, null, 0));
    }

    /**
     * {@code limiter} itself if it answers in nanoseconds (every built-in one does), else an adapter
     * that asks its {@link #when} and converts the answer (saturated; negative when the limiter
     * answers a negative delay). Composite limiters and the queue convert once, when they are built,
     * so that each keeps a call site of its own for the JIT: one shared helper that tested the type
     * on every call saw every limiter class and dispatched through the interface table.
     *
     * @param limiter the limiter
     * @param <T> the item type
     * @return {@code limiter} in nanoseconds
     */
    static <T> NanosRateLimiter<T> of(RateLimiter<T> limiter) {
        return limiter instanceof NanosRateLimiter<T> n ? n : new Adapter<>(limiter);
    }

    /** A limiter that answers in {@link Duration}s, seen in nanoseconds. Thread-safe as the limiter. */
    final class Adapter<T> extends ForwardingRateLimiter<T> {

        Adapter(RateLimiter<T> limiter) {
            super(limiter);
        }

        @Override
        public long whenNanos(T item, Ticker clock, long clockNow) {
            return Durations.toNanosSaturated(delegate.when(item));
        }

        @Override
        public Duration when(T item) {
            return delegate.when(item);
        }

        @Override
        public String toString() {
            return delegate.toString();
        }
    }
}
