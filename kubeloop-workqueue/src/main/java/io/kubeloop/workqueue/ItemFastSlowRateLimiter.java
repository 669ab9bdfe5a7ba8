package io.kubeloop.workqueue;

import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Per-item two-speed retry: the first {@code maxFastAttempts} requests of an item (since it was
 * last forgotten) wait {@code fast}, later ones {@code slow}.
 *
 * <p><b>Thread safety:</b> thread-safe; one atomic counter per item in a concurrent map.
 *
 * @param <T> the item type
 * @see <a href="https://github.com/kubernetes/client-go/blob/master/util/workqueue/default_rate_limiters.go">client-go ItemFastSlowRateLimiter</a>
 */
final class ItemFastSlowRateLimiter<T> implements RateLimiter<T> {

    private final ConcurrentHashMap<T, AtomicInteger> failures = new ConcurrentHashMap<>();
    private final Duration fast;
    private final Duration slow;
    private final int maxFastAttempts;

    ItemFastSlowRateLimiter(Duration fast, Duration slow, int maxFastAttempts) {
        ItemExponentialFailureRateLimiter.requireNotNegative(fast, "fast delay");
        ItemExponentialFailureRateLimiter.requireNotNegative(slow, "slow delay");
        if (maxFastAttempts < 0) {
            throw new IllegalArgumentException("maxFastAttempts must not be negative: " + maxFastAttempts);
        }
        this.fast = fast;
        this.slow = slow;
        this.maxFastAttempts = maxFastAttempts;
    }

    @Override
    public Duration when(T item) {
        int n = failures.computeIfAbsent(item, k -> new AtomicInteger())
                .updateAndGet(c -> c == Integer.MAX_VALUE ? c : c + 1);
        return n <= maxFastAttempts ? fast : slow;
    }

    @Override
    public void forget(T item) {
        failures.remove(item);
    }

    @Override
    public int numRequeues(T item) {
        AtomicInteger n = failures.get(item);
        return n == null ? 0 : n.get();
    }

    @Override
    public String toString() {
        return "ItemFastSlowRateLimiter[fast=" + fast + ", slow=" + slow + ", maxFastAttempts=" + maxFastAttempts + "]";
    }
}
