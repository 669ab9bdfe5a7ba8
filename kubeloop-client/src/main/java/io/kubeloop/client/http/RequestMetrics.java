package io.kubeloop.client.http;

import java.time.Duration;

/**
 * Receives the REST client's measurements, with the labels of client-go's {@code tools/metrics}
 * adapters, so that a registry can expose them under client-go's names ({@code
 * rest_client_requests_total}, {@code rest_client_request_duration_seconds}, {@code
 * rest_client_rate_limiter_duration_seconds}, {@code rest_client_retries_total}). Attach it with
 * {@link io.kubeloop.client.KubeClient#withRequestMetrics}; a manager attaches one to its registry
 * by itself.
 *
 * <p>{@code verb} and {@code method} are the HTTP method ({@code GET}, {@code POST}…), {@code host}
 * the server's {@code host:port}, {@code code} the HTTP status in decimal or {@code <error>} when no
 * answer came.
 *
 * <p><b>Thread safety.</b> Called from every thread that sends requests, at once, on the request's
 * path: implementations must be thread-safe and must not block.
 */
public interface RequestMetrics {

    /** Measures nothing. */
    RequestMetrics NONE = new RequestMetrics() {
        @Override
        public void requestLatency(String verb, String host, Duration latency) {}

        @Override
        public void requestResult(String code, String method, String host) {}

        @Override
        public void rateLimiterLatency(String verb, String host, Duration wait) {}

        @Override
        public void requestRetry(String code, String method, String host) {}
    };

    /**
     * A call ended: its whole time, client-side throttling and retries included, until the answer's
     * head arrived. Not reported for watches, whose answers last as long as the watch.
     */
    void requestLatency(String verb, String host, Duration latency);

    /** One attempt was answered with status {@code code}, or failed ({@code <error>}). */
    void requestResult(String code, String method, String host);

    /** How long one attempt waited for the client-side rate limiter (zero when a token was there). */
    void rateLimiterLatency(String verb, String host, Duration wait);

    /** A request is sent again after the answer {@code code} asked to retry it. */
    void requestRetry(String code, String method, String host);
}
