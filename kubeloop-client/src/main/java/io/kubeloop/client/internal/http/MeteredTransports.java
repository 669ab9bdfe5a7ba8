package io.kubeloop.client.internal.http;

import io.kubeloop.client.http.ApiTransport;
import io.kubeloop.client.http.RequestMetrics;
import io.kubeloop.time.Ticker;

/**
 * Views of a transport that report to a {@link RequestMetrics}. Stateless.
 *
 * <ul>
 * <li>kubeloop's own transport: every measurement, from its own pipeline (latency, each attempt's
 *     result, rate-limiter waits, retries), sharing its rate limiter and connections;</li>
 * <li>an {@link InterceptedTransport} view: the same view over a metered view of what it wraps;</li>
 * <li>any other transport: latency and results of each call, measured around it (it has no retries
 *     or rate limiter of kubeloop's to report).</li>
 * </ul>
 */
public final class MeteredTransports {

    private MeteredTransports() {}

    /**
     * A view of {@code transport} reporting to {@code metrics}; closing it closes nothing.
     *
     * @param ticker the clock that times calls through a transport other than kubeloop's
     */
    public static ApiTransport of(ApiTransport transport, RequestMetrics metrics, Ticker ticker) {
        return switch (transport) {
            case DefaultApiTransport own -> own.withRequestMetrics(metrics);
            case InterceptedTransport view -> view.over(of(view.delegate(), metrics, ticker));
            default ->
                new InterceptedTransport(
                        new InterceptedTransport(transport, new MetricsInterceptor.Result(metrics)),
                        new MetricsInterceptor.Latency(metrics, ticker));
        };
    }
}
