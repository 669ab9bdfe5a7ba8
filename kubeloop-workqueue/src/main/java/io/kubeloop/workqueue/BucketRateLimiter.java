package io.kubeloop.workqueue;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;

/**
 * An overall token bucket, as Go's {@code rate.Limiter} used through {@code Reserve().Delay()}:
 * starts full with {@code burst} tokens, refills at {@code qps} tokens per second up to
 * {@code burst}, and every {@link #when} takes one token — the count may go negative, and the
 * delay is the time until the bucket is back at zero. Items are not told apart, so
 * {@link #numRequeues} is always 0 and {@link #forget} does nothing.
 *
 * <p><b>Thread safety:</b> thread-safe; token arithmetic happens under one short lock.
 *
 * @param <T> the item type
 * @see <a href="https://github.com/kubernetes/client-go/blob/master/util/workqueue/default_rate_limiters.go">client-go BucketRateLimiter</a>
 */
final class BucketRateLimiter<T> implements RateLimiter<T> {

    private final double qps;
    private final int burst;
    private final Ticker ticker;
    private final ReentrantLock lock = new ReentrantLock();
    /** Tokens available at {@link #last}; guarded by {@link #lock}. */
    private double tokens;
    /** Ticker instant of the last update; guarded by {@link #lock}. */
    private long last;

    BucketRateLimiter(double qps, int burst, Ticker ticker) {
        if (!(qps > 0)) {
            throw new IllegalArgumentException("bucket qps must be positive: " + qps);
        }
        if (burst < 1) {
            throw new IllegalArgumentException("bucket burst must be at least 1: " + burst);
        }
        this.qps = qps;
        this.burst = burst;
        this.ticker = Objects.requireNonNull(ticker, "ticker");
        this.tokens = burst;
        this.last = ticker.nanoTime();
    }

    @Override
    public Duration when(T item) {
        if (qps == Double.POSITIVE_INFINITY) {
            return Duration.ZERO;
        }
        double left;
        lock.lock();
        try {
            long now = ticker.nanoTime();
            long elapsed = now - last;
            if (elapsed > 0) {
                tokens = Math.min(burst, tokens + elapsed / 1e9 * qps);
                last = now;
            }
            tokens -= 1;
            left = tokens;
        } finally {
            lock.unlock();
        }
        if (left >= 0) {
            return Duration.ZERO;
        }
        double nanos = -left / qps * 1e9;
        return Duration.ofNanos(nanos >= Long.MAX_VALUE ? Long.MAX_VALUE : (long) nanos);
    }

    @Override
    public void forget(T item) {
    }

    @Override
    public int numRequeues(T item) {
        return 0;
    }

    @Override
    public String toString() {
        return "BucketRateLimiter[qps=" + qps + ", burst=" + burst + "]";
    }
}
