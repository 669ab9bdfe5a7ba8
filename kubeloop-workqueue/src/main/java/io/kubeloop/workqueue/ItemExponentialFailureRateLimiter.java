package io.kubeloop.workqueue;

import io.kubeloop.time.Ticker;
import java.time.Duration;
import java.util.Objects;

/**
 * Per-item exponential backoff: the n-th request of an item (n counted from 0 since it was last
 * forgotten) waits {@code base × 2^n}, capped at {@code max}; 5 ms/1000 s gives 5, 10, 20 ms … and
 * reaches the cap at the 19th request. The computation saturates instead of overflowing, for any
 * count, and the count itself stops at {@link Integer#MAX_VALUE}.
 *
 * <p><b>Thread safety:</b> thread-safe and lock-free in the usual fail/forget cycle; counts are kept
 * by {@link FailureCounts}, so a {@code when} racing with {@code forget} of the same item is ordered
 * before or after it, never lost.
 *
 * @param <T> the item type
 * @see <a href="https://github.com/kubernetes/client-go/blob/master/util/workqueue/default_rate_limiters.go">client-go ItemExponentialFailureRateLimiter</a>
 */
final class ItemExponentialFailureRateLimiter<T> implements NanosRateLimiter<T> {

    /** Requests per item since it was last forgotten. */
    private final FailureCounts<T> failures = new FailureCounts<>();

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
            throw new IllegalArgumentException(what + " must not be negative: " + io.kubeloop.time.Durations.format(d));
        }
    }

    @Override
    public long whenNanos(T item, Ticker clock, long clockNow) {
        return delayNanos(failures.increment(item));
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
        failures.reset(item);
    }

    @Override
    public int numRequeues(T item) {
        return failures.count(item);
    }

    @Override
    public String toString() {
        return "ItemExponentialFailureRateLimiter[base=" + Duration.ofNanos(baseNanos) + ", max=" + max + "]";
    }
}
