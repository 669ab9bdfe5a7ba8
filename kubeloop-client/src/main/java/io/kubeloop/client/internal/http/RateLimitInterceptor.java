package io.kubeloop.client.internal.http;

import io.kubeloop.client.http.ApiRequest;
import io.kubeloop.client.http.ApiResponse;
import io.kubeloop.client.http.Interceptor;
import io.kubeloop.client.http.RequestMetrics;
import io.kubeloop.client.http.TransportException;
import io.kubeloop.time.Ticker;
import java.time.Duration;

/**
 * Client-side throttling: every attempt that reaches the network first takes a token from a
 * {@link TokenBucket}, waiting for one when the bucket is empty (client-go's {@code tryThrottle}).
 * Sits below the retry stage, so retries are throttled too, as in client-go. Each attempt's wait
 * (zero when a token was there) goes to the {@link RequestMetrics}. Thread-safe.
 */
final class RateLimitInterceptor implements Interceptor {

    private final TokenBucket bucket;
    private final Ticker ticker;
    private final RequestMetrics metrics;

    /** A stage taking tokens from {@code bucket}, which other stages (of metered views) may share. */
    RateLimitInterceptor(TokenBucket bucket, Ticker ticker, RequestMetrics metrics) {
        this.bucket = bucket;
        this.ticker = ticker;
        this.metrics = metrics;
    }

    @Override
    public ApiResponse intercept(Chain chain) {
        Duration wait = bucket.reserve();
        ApiRequest request = chain.request();
        metrics.rateLimiterLatency(request.method(), MetricsInterceptor.host(request), wait);
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
