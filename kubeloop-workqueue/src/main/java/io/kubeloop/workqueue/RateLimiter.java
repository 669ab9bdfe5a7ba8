package io.kubeloop.workqueue;

import io.kubeloop.time.Ticker;
import java.time.Duration;
import java.util.List;

/**
 * Decides how long an item must wait before it is retried, as client-go's
 * {@code workqueue.RateLimiter}. Built-in limiters come from the static factories and combine with
 * {@link #maxOf}; {@link #defaultControllerRateLimiter()} is what controllers use.
 *
 * <p>Per-item limiters remember a failure count per item until {@link #forget}; callers must
 * forget items that succeeded or were given up, or the limiter keeps them forever.
 *
 * <p><b>Thread safety:</b> implementations must be thread-safe; all built-in ones are.
 *
 * @param <T> the item type; items are compared with {@code equals}/{@code hashCode}
 * @see <a href="https://github.com/kubernetes/client-go/blob/master/util/workqueue/default_rate_limiters.go">client-go default_rate_limiters.go</a>
 */
public interface RateLimiter<T> {

    /**
     * Returns how long {@code item} should wait now, and records the request (for per-item
     * limiters a failure, for a bucket a token). Thread-safe: concurrent requests are each
     * recorded once.
     *
     * @param item the item; not null (per-item limiters throw {@link NullPointerException})
     * @return the delay; never negative
     */
    Duration when(T item);

    /**
     * Stops tracking {@code item}: its failure count returns to zero. Thread-safe; a concurrent
     * {@link #when} of the same item is counted before or after it, never lost.
     *
     * @param item the item; not null (per-item limiters throw {@link NullPointerException})
     */
    void forget(T item);

    /**
     * Returns how many times {@link #when} was called for {@code item} since it was last forgotten.
     * Thread-safe.
     *
     * @param item the item; not null (per-item limiters throw {@link NullPointerException})
     * @return the count; 0 for limiters that do not count per item
     */
    int numRequeues(T item);

    /**
     * Returns the limiter client-go's controllers use: the maximum of a per-item exponential
     * limiter (5 ms doubling to 1000 s) and an overall token bucket (10 qps, burst 100), on the
     * system ticker.
     *
     * @param <T> the item type
     * @return a new limiter
     */
    static <T> RateLimiter<T> defaultControllerRateLimiter() {
        return defaultControllerRateLimiter(Ticker.system());
    }

    /**
     * As {@link #defaultControllerRateLimiter()}, with the bucket on {@code ticker}.
     *
     * @param ticker the bucket's time source
     * @param <T> the item type
     * @return a new limiter
     */
    static <T> RateLimiter<T> defaultControllerRateLimiter(Ticker ticker) {
        return maxOf(itemExponentialFailure(Duration.ofMillis(5), Duration.ofSeconds(1000)), bucket(10, 100, ticker));
    }

    /**
     * Returns client-go's {@code DefaultItemBasedRateLimiter}: per-item exponential from 1 ms to
     * 1000 s.
     *
     * @param <T> the item type
     * @return a new limiter
     */
    static <T> RateLimiter<T> defaultItemBased() {
        return itemExponentialFailure(Duration.ofMillis(1), Duration.ofSeconds(1000));
    }

    /**
     * Returns a per-item limiter waiting {@code base × 2^n} after the n-th prior failure, capped at
     * {@code max}; never overflows, whatever the failure count.
     *
     * @param base the first delay; not negative
     * @param max the cap; not negative
     * @param <T> the item type
     * @return a new limiter
     * @throws IllegalArgumentException if a duration is negative
     */
    static <T> RateLimiter<T> itemExponentialFailure(Duration base, Duration max) {
        return new ItemExponentialFailureRateLimiter<>(base, max);
    }

    /**
     * Returns an overall token bucket shared by all items, as Go's {@code rate.Limiter}: it starts
     * full with {@code burst} tokens, refills at {@code qps} per second, and every {@link #when}
     * takes one token, waiting for it if none is left. It does not count per item.
     *
     * @param qps tokens per second; positive ({@link Double#POSITIVE_INFINITY} never waits)
     * @param burst bucket size; at least 1
     * @param <T> the item type
     * @return a new limiter on the system ticker
     * @throws IllegalArgumentException if {@code qps} or {@code burst} is out of range
     */
    static <T> RateLimiter<T> bucket(double qps, int burst) {
        return bucket(qps, burst, Ticker.system());
    }

    /**
     * As {@link #bucket(double, int)}, on {@code ticker}.
     *
     * @param qps tokens per second
     * @param burst bucket size
     * @param ticker the time source
     * @param <T> the item type
     * @return a new limiter
     */
    static <T> RateLimiter<T> bucket(double qps, int burst, Ticker ticker) {
        return new BucketRateLimiter<>(qps, burst, ticker);
    }

    /**
     * Returns a per-item limiter waiting {@code fast} for the first {@code maxFastAttempts}
     * requests of an item and {@code slow} afterwards.
     *
     * @param fast the short delay
     * @param slow the long delay
     * @param maxFastAttempts how many requests get the short delay; not negative
     * @param <T> the item type
     * @return a new limiter
     * @throws IllegalArgumentException if a duration or the count is negative
     */
    static <T> RateLimiter<T> itemFastSlow(Duration fast, Duration slow, int maxFastAttempts) {
        return new ItemFastSlowRateLimiter<>(fast, slow, maxFastAttempts);
    }

    /**
     * Returns a limiter answering the longest delay of all {@code limiters} (each is asked, so each
     * counts the request), the highest requeue count, and forgetting in all of them.
     *
     * @param limiters the limiters; at least one
     * @param <T> the item type
     * @return a new limiter
     * @throws IllegalArgumentException if {@code limiters} is empty
     */
    @SafeVarargs
    static <T> RateLimiter<T> maxOf(RateLimiter<T>... limiters) {
        return new MaxOfRateLimiter<>(List.of(limiters));
    }

    /**
     * As {@link #maxOf(RateLimiter[])}, from a list.
     *
     * @param limiters the limiters; at least one
     * @param <T> the item type
     * @return a new limiter
     */
    static <T> RateLimiter<T> maxOf(List<? extends RateLimiter<T>> limiters) {
        return new MaxOfRateLimiter<>(List.copyOf(limiters));
    }

    /**
     * Returns a limiter that answers {@code limiter}'s delay capped at {@code maxWait}.
     *
     * @param limiter the limiter to cap
     * @param maxWait the cap; not negative
     * @param <T> the item type
     * @return a new limiter
     */
    static <T> RateLimiter<T> withMaxWait(RateLimiter<T> limiter, Duration maxWait) {
        return new WithMaxWaitRateLimiter<>(limiter, maxWait);
    }
}
