package io.kubeloop.workqueue;

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
     * As {@link #when}, in nanoseconds: records the request and returns the delay, never negative,
     * saturated at {@link Long#MAX_VALUE}. Thread-safe.
     *
     * @param item the item
     * @return the delay in nanoseconds
     */
    long whenNanos(T item);

    @Override
    default Duration when(T item) {
        return Duration.ofNanos(whenNanos(item));
    }

    /**
     * The delay {@code limiter} asks for {@code item} (recording the request), in nanoseconds:
     * without a {@link Duration} for built-in limiters, through {@link #when} for others (then
     * saturated, and negative when the limiter answers a negative delay). Thread-safe.
     */
    static <T> long delayNanos(RateLimiter<T> limiter, T item) {
        return limiter instanceof NanosRateLimiter<T> n ? n.whenNanos(item)
                : Durations.toNanosSaturated(limiter.when(item));
    }
}
