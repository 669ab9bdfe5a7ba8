package io.kubeloop.workqueue;

import java.time.Duration;
import java.util.Objects;

/**
 * Caps another limiter's delay at a maximum wait; counting and forgetting are delegated.
 *
 * <p><b>Thread safety:</b> as thread-safe as the wrapped limiter.
 *
 * @param <T> the item type
 * @see <a href="https://github.com/kubernetes/client-go/blob/master/util/workqueue/default_rate_limiters.go">client-go WithMaxWaitRateLimiter</a>
 */
final class WithMaxWaitRateLimiter<T> implements NanosRateLimiter<T> {

    private final NanosRateLimiter<T> limiter;
    private final Duration maxWait;
    private final long maxWaitNanos;

    WithMaxWaitRateLimiter(RateLimiter<T> limiter, Duration maxWait) {
        this.limiter = NanosRateLimiter.of(Objects.requireNonNull(limiter, "limiter"));
        ItemExponentialFailureRateLimiter.requireNotNegative(maxWait, "max wait");
        this.maxWait = maxWait;
        this.maxWaitNanos = Durations.toNanosSaturated(maxWait);
    }

    @Override
    public long whenNanos(T item, Ticker clock, long clockNow) {
        return Math.max(0, Math.min(limiter.whenNanos(item, clock, clockNow), maxWaitNanos));
    }

    @Override
    public void forget(T item) {
        limiter.forget(item);
    }

    @Override
    public int numRequeues(T item) {
        return limiter.numRequeues(item);
    }

    @Override
    public String toString() {
        return "WithMaxWaitRateLimiter[" + limiter + ", maxWait=" + maxWait + "]";
    }
}
