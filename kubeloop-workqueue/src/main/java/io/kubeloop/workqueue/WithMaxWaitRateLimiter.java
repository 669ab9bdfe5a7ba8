package io.kubeloop.workqueue;

import io.kubeloop.time.Ticker;
import java.time.Duration;

/**
 * Caps another limiter's delay at a maximum wait; counting and forgetting are delegated.
 *
 * <p><b>Thread safety:</b> as thread-safe as the wrapped limiter.
 *
 * @param <T> the item type
 * @see <a href="https://github.com/kubernetes/client-go/blob/master/util/workqueue/default_rate_limiters.go">client-go WithMaxWaitRateLimiter</a>
 */
final class WithMaxWaitRateLimiter<T> extends ForwardingRateLimiter<T> {

    /** The wrapped limiter, in nanoseconds. */
    private final NanosRateLimiter<T> limiter;

    private final Duration maxWait;
    private final long maxWaitNanos;

    WithMaxWaitRateLimiter(RateLimiter<T> limiter, Duration maxWait) {
        super(limiter);
        this.limiter = NanosRateLimiter.of(limiter);
        ItemExponentialFailureRateLimiter.requireNotNegative(maxWait, "max wait");
        this.maxWait = maxWait;
        this.maxWaitNanos = Durations.toNanosSaturated(maxWait);
    }

    @Override
    public long whenNanos(T item, Ticker clock, long clockNow) {
        return Math.max(0, Math.min(limiter.whenNanos(item, clock, clockNow), maxWaitNanos));
    }

    @Override
    public String toString() {
        return "WithMaxWaitRateLimiter[" + limiter + ", maxWait=" + maxWait + "]";
    }
}
