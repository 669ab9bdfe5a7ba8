package io.kubeloop.workqueue;

import io.kubeloop.time.Ticker;
import java.util.List;

/**
 * The worst case of several limiters: {@link #when} asks every limiter (so each records the
 * request) and answers the longest delay; {@link #numRequeues} answers the highest count;
 * {@link #forget} forgets in all. With a bucket inside, the bucket's burst can appear exceeded when
 * other limiters delayed some items longer (as in client-go).
 *
 * <p><b>Thread safety:</b> as thread-safe as its limiters; holds no state of its own.
 *
 * @param <T> the item type
 * @see <a href="https://github.com/kubernetes/client-go/blob/master/util/workqueue/default_rate_limiters.go">client-go MaxOfRateLimiter</a>
 */
final class MaxOfRateLimiter<T> implements NanosRateLimiter<T> {

    private final List<RateLimiter<T>> limiters;
    /** {@link #limiters}, each in nanoseconds; never empty. */
    private final NanosRateLimiter<T>[] nanos;

    @SuppressWarnings("unchecked")
    MaxOfRateLimiter(List<RateLimiter<T>> limiters) {
        if (limiters.isEmpty()) {
            throw new IllegalArgumentException("maxOf needs at least one rate limiter");
        }
        this.limiters = limiters;
        this.nanos = limiters.stream().map(NanosRateLimiter::of).toArray(NanosRateLimiter[]::new);
    }

    @Override
    public long whenNanos(T item, Ticker clock, long clockNow) {
        long max = 0;
        for (NanosRateLimiter<T> limiter : nanos) {
            max = Math.max(max, limiter.whenNanos(item, clock, clockNow));
        }
        return max;
    }

    @Override
    public void forget(T item) {
        for (NanosRateLimiter<T> limiter : nanos) {
            limiter.forget(item);
        }
    }

    @Override
    public int numRequeues(T item) {
        int max = 0;
        for (NanosRateLimiter<T> limiter : nanos) {
            max = Math.max(max, limiter.numRequeues(item));
        }
        return max;
    }

    @Override
    public String toString() {
        return "MaxOfRateLimiter" + limiters;
    }
}
