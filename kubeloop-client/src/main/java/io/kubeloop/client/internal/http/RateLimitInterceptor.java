package io.kubeloop.client.internal.http;

import io.kubeloop.client.http.ApiRequest;
import io.kubeloop.client.http.ApiResponse;
import io.kubeloop.client.http.Interceptor;
import io.kubeloop.client.http.TransportException;
import io.kubeloop.time.Ticker;
import java.time.Duration;

/**
 * Client-side throttling: every attempt that reaches the network first takes a token from a
 * {@link TokenBucket}, waiting for one when the bucket is empty (client-go's {@code tryThrottle}).
 * Sits below the retry stage, so retries are throttled too, as in client-go. Thread-safe.
 */
final class RateLimitInterceptor implements Interceptor {

    private final TokenBucket bucket;
    private final Ticker ticker;

    RateLimitInterceptor(double qps, int burst, Ticker ticker) {
        this.bucket = new TokenBucket(qps, burst, ticker);
        this.ticker = ticker;
    }

    @Override
    public ApiResponse intercept(Chain chain) {
        Duration wait = bucket.reserve();
        if (wait.isPositive()) {
            try {
                ticker.sleep(wait);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                ApiRequest r = chain.request();
                throw new TransportException(
                        r.uri(),
                        r.method() + " " + r.uri() + ": interrupted while waiting for the client-side rate limiter",
                        e);
            }
        }
        return chain.proceed(chain.request());
    }
}
