package io.kubeloop.workqueue;

import io.kubeloop.time.Ticker;
import java.time.Duration;

/**
 * Per-item two-speed retry: the first {@code maxFastAttempts} requests of an item (since it was
 * last forgotten) wait {@code fast}, later ones {@code slow}.
 *
 * <p><b>Thread safety:</b> thread-safe; counts are kept by {@link FailureCounts} (lock-free in the usual fail/forget cycle).
 *
 * @param <T> the item type
 * @see <a href="https://github.com/kubernetes/client-go/blob/master/util/workqueue/default_rate_limiters.go">client-go ItemFastSlowRateLimiter</a>
 */
final class ItemFastSlowRateLimiter<T> implements NanosRateLimiter<T> {

    /** Requests per item since it was last forgotten. */
    private final FailureCounts<T> failures = new FailureCounts<>();

    private final Duration fast;
    private final Duration slow;
    private final long fastNanos;
    private final long slowNanos;
    private final int maxFastAttempts;

    ItemFastSlowRateLimiter(Duration fast, Duration slow, int maxFastAttempts) {
        ItemExponentialFailureRateLimiter.requireNotNegative(fast, "fast delay");
        ItemExponentialFailureRateLimiter.requireNotNegative(slow, "slow delay");
        if (maxFastAttempts < 0) {
            throw new IllegalArgumentException("maxFastAttempts must not be negative: " + maxFastAttempts);
        }
        this.fast = fast;
        this.slow = slow;
        this.fastNanos = Durations.toNanosSaturated(fast);
        this.slowNanos = Durations.toNanosSaturated(slow);
        this.maxFastAttempts = maxFastAttempts;
    }

    @Override
    public long whenNanos(T item, Ticker clock, long clockNow) {
        return failures.increment(item) < maxFastAttempts ? fastNanos : slowNanos; // the n-th request, n ≤ max: fast
    }

    @Override
    public void forget(T item) {
        failures.reset(item);
    }

    @Override
    public int numRequeues(T item) {
        return failures.count(item);
    }

    @Override
    public String toString() {
        return "ItemFastSlowRateLimiter[fast=" + fast + ", slow=" + slow + ", maxFastAttempts=" + maxFastAttempts + "]";
    }
}
