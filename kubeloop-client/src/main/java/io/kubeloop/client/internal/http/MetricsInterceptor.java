package io.kubeloop.client.internal.http;

import io.kubeloop.client.http.ApiRequest;
import io.kubeloop.client.http.ApiResponse;
import io.kubeloop.client.http.Interceptor;
import io.kubeloop.client.http.RequestMetrics;
import io.kubeloop.client.http.TransportException;
import io.kubeloop.time.Ticker;
import java.net.URI;
import java.time.Duration;
import java.util.Objects;

/**
 * The two measuring stages of a metered pipeline: {@link Latency}, outermost, times each call;
 * {@link Result}, below the retries and the rate limiter, counts each attempt's answer. Both are
 * thread-safe when their {@link RequestMetrics} is.
 */
final class MetricsInterceptor {

    /** What a failed attempt is counted as, as client-go counts it. */
    static final String ERROR = "<error>";

    private MetricsInterceptor() {}

    /** The {@code host} label: the server's host and, when the URI names one, its port. */
    static String host(ApiRequest request) {
        URI uri = request.uri();
        String host = uri.getHost() == null ? "" : uri.getHost();
        if (host.indexOf(':') >= 0 && !host.startsWith("[")) {
            host = "[" + host + "]";
        }
        return uri.getPort() == -1 ? host : host + ":" + uri.getPort();
    }

    /** Times a whole call, throttling and retries included; watches (streaming requests) are not timed. */
    static final class Latency implements Interceptor {
        private final RequestMetrics metrics;
        private final Ticker ticker;

        Latency(RequestMetrics metrics, Ticker ticker) {
            this.metrics = Objects.requireNonNull(metrics, "metrics");
            this.ticker = Objects.requireNonNull(ticker, "ticker");
        }

        @Override
        public ApiResponse intercept(Chain chain) {
            ApiRequest request = chain.request();
            if (request.streaming()) {
                return chain.proceed(request);
            }
            long start = ticker.nanoTime();
            try {
                return chain.proceed(request);
            } finally {
                metrics.requestLatency(request.method(), host(request), Duration.ofNanos(ticker.nanoTime() - start));
            }
        }
    }

    /** Counts each attempt by its status, or {@link #ERROR} when no answer came. */
    static final class Result implements Interceptor {
        private final RequestMetrics metrics;

        Result(RequestMetrics metrics) {
            this.metrics = Objects.requireNonNull(metrics, "metrics");
        }

        @Override
        public ApiResponse intercept(Chain chain) {
            ApiRequest request = chain.request();
            ApiResponse response;
            try {
                response = chain.proceed(request);
            } catch (TransportException e) {
                metrics.requestResult(ERROR, request.method(), host(request));
                throw e;
            }
            metrics.requestResult(Integer.toString(response.status()), request.method(), host(request));
            return response;
        }
    }
}
