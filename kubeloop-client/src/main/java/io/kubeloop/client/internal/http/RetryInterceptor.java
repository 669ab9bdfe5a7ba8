package io.kubeloop.client.internal.http;

import io.kubeloop.client.http.ApiRequest;
import io.kubeloop.client.http.ApiResponse;
import io.kubeloop.client.http.Interceptor;
import io.kubeloop.client.http.RequestMetrics;
import io.kubeloop.client.http.TransportException;
import io.kubeloop.time.Ticker;
import java.time.Duration;

/**
 * Re-sends safe requests (GET, HEAD) that the server answered with 429 or any 5xx <em>and</em> a
 * {@code Retry-After} header, waiting as the header asks (capped), up to {@code maxRetries} times.
 * This follows client-go's {@code rest.Request} ({@code checkWait}: 429 or >= 500 with Retry-After,
 * 10 retries by default) but, unlike client-go, never repeats a write: a 5xx after a POST says
 * nothing about whether it took effect. A reply without Retry-After is returned as is. Each retry is
 * counted in the {@link RequestMetrics} with the status that caused it.
 *
 * <p>Thread-safe (stateless apart from immutable settings).
 */
final class RetryInterceptor implements Interceptor {

    private final int maxRetries;
    private final Duration maxWait;
    private final Ticker ticker;
    private final RequestMetrics metrics;

    RetryInterceptor(int maxRetries, Duration maxWait, Ticker ticker, RequestMetrics metrics) {
        this.maxRetries = maxRetries;
        this.maxWait = maxWait;
        this.ticker = ticker;
        this.metrics = metrics;
    }

    @Override
    public ApiResponse intercept(Chain chain) {
        ApiRequest request = chain.request();
        ApiResponse response = chain.proceed(request);
        if (!request.isSafe()) {
            return response;
        }
        for (int retry = 1; retry <= maxRetries; retry++) {
            Duration wait = waitFor(response);
            if (wait == null) {
                return response;
            }
            response.close();
            metrics.requestRetry(
                    Integer.toString(response.status()), request.method(), MetricsInterceptor.host(request));
            try {
                ticker.sleep(wait.compareTo(maxWait) > 0 ? maxWait : wait);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new TransportException(
                        request.uri(),
                        request.method() + " " + request.uri() + ": interrupted while waiting to retry after HTTP "
                                + response.status(),
                        e);
            }
            response = chain.proceed(request);
        }
        return response;
    }

    /** How long the server asked to wait, or null when this response is not to be retried. */
    private static Duration waitFor(ApiResponse response) {
        int status = response.status();
        if (status != 429 && status < 500) {
            return null;
        }
        Duration retryAfter = response.retryAfter();
        return retryAfter == null || retryAfter.isNegative() ? null : retryAfter;
    }
}
