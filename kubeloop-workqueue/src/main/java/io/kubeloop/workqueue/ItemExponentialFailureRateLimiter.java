package io.kubeloop.workqueue;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Per-item exponential backoff: the n-th request of an item (n counted from 0 since it was last
 * forgotten) waits {@code base × 2^n}, capped at {@code max}; 5 ms/1000 s gives 5, 10, 20 ms … and
 * reaches the cap at the 19th request. The computation saturates instead of overflowing, for any
 * count, and the count itself stops at {@link Integer#MAX_VALUE}.
 *
 * <p><b>Thread safety:</b> thread-safe; one atomic counter per item in a concurrent map. A
 * {@code when} racing with {@code forget} of the same item may be lost.
 *
 * @param <T> the item type
 * @see <a href="https://github.com/kubernetes/client-go/blob/master/util/workqueue/default_rate_limiters.go">client-go ItemExponentialFailureRateLimiter</a>
 */
final class ItemExponentialFailureRateLimiter<T> implements RateLimiter<T> {

    private final ConcurrentHashMap<T, AtomicInteger> failures = new ConcurrentHashMap<>();
    private final long baseNanos;
    private final long maxNanos;
    private final Duration max;

    ItemExponentialFailureRateLimiter(Duration base, Duration max) {
        requireNotNegative(base, "base delay");
        requireNotNegative(max, "max delay");
        this.baseNanos = Durations.toNanosSaturated(base);
        this.maxNanos = Durations.toNanosSaturated(max);
        this.max = max;
    }

    static void requireNotNegative(Duration d, String what) {
        Objects.requireNonNull(d, what);
        if (d.isNegative()) {
            throw new IllegalArgumentException(what + " must not be negative: " + d);
        }
    }

    @Override
    public Duration when(T item) {
        int n = failures.computeIfAbsent(item, k -> new AtomicInteger())
                .getAndUpdate(c -> c == Integer.MAX_VALUE ? c : c + 1);
        return Duration.ofNanos(delayNanos(n));
    }

    /** {@code base × 2^n} capped at max, without overflow. */
    long delayNanos(int n) {
        if (baseNanos == 0) {
            return 0;
        }
        if (n >= Long.SIZE - 1 || baseNanos > (Long.MAX_VALUE >> n)) {
            return maxNanos;
        }
        return Math.min(baseNanos << n, maxNanos);
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
        return "ItemExponentialFailureRateLimiter[base=" + Duration.ofNanos(baseNanos) + ", max=" + max + "]";
    }
}
