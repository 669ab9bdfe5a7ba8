package io.kubeloop.client.internal.http;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import io.kubeloop.time.Ticker;
import java.time.Duration;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A token bucket holding up to {@code burst} tokens and refilled at {@code qps} tokens a second;
 * it starts full. {@link #reserve()} takes one token and says how long the caller must wait for it:
 * callers reserve in arrival order and the bucket may go into debt, so waiting callers are served
 * first come, first served (the behaviour of Go's {@code rate.Limiter.Wait}, which client-go's
 * {@code flowcontrol.NewTokenBucketRateLimiter} uses).
 *
 * <p>Thread-safe: state is guarded by {@link #lock}; the waiting itself happens outside it.
 */
final class TokenBucket {

    private final double qps;
    private final int burst;
    private final Ticker ticker;
    private final ReentrantLock lock = new ReentrantLock();
    /** Tokens available at {@link #lastNanos}; negative while callers wait in debt. Guarded by lock. */
    @GuardedBy("lock")
    private double tokens;
    /** When {@link #tokens} was last brought up to date. Guarded by lock. */
    @GuardedBy("lock")
    private long lastNanos;

    TokenBucket(double qps, int burst, Ticker ticker) {
        if (!(qps > 0) || burst < 1) {
            throw new IllegalArgumentException(
                    "rate limit needs qps > 0 and burst >= 1, got qps=" + qps + " burst=" + burst);
        }
        this.qps = qps;
        this.burst = burst;
        this.ticker = ticker;
        this.tokens = burst;
        this.lastNanos = ticker.nanoTime();
    }

    /** Takes a token; returns how long to wait before using it (zero when one was available). */
    Duration reserve() {
        lock.lock();
        try {
            long now = ticker.nanoTime();
            tokens = Math.min(burst, tokens + (now - lastNanos) / 1e9 * qps);
            lastNanos = now;
            tokens -= 1;
            if (tokens >= 0) {
                return Duration.ZERO;
            }
            return Duration.ofNanos((long) Math.ceil(-tokens / qps * 1e9));
        } finally {
            lock.unlock();
        }
    }
}
