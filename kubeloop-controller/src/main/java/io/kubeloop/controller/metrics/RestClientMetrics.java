package io.kubeloop.controller.metrics;

import io.kubeloop.client.http.RequestMetrics;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The REST client's {@link RequestMetrics} in a Micrometer registry, under the names and labels of
 * Kubernetes' client metrics (component-base's {@code clientmetrics}), so that dashboards and alerts
 * written for Go controllers work unchanged:
 *
 * <ul>
 * <li>{@code rest_client_requests_total} ({@code code}, {@code method}, {@code host}): each attempt,
 *     by status, {@code <error>} when no answer came;</li>
 * <li>{@code rest_client_request_duration_seconds} ({@code verb}, {@code host}): each call, throttling
 *     and retries included; watches are not timed;</li>
 * <li>{@code rest_client_rate_limiter_duration_seconds} ({@code verb}, {@code host}), when the client
 * has a rate limiter (off by default): each attempt's
 *     wait for the client-side rate limiter;</li>
 * <li>{@code rest_client_retries_total} ({@code code}, {@code verb}, {@code host}): requests sent again,
 *     by the status that asked for it.</li>
 * </ul>
 *
 * The histograms have client-go's buckets (5 ms to 60 s). A {@link io.kubeloop.controller.Manager}
 * reports its client's requests to its registry by itself; elsewhere:
 *
 * {@snippet :
 * KubeClient measured = client.withRequestMetrics(RestClientMetrics.create(registry));
 * }
 *
 * <p>Thread-safe and lock-free once a label set has been seen: meters are made once per label set
 * and kept.
 */
public final class RestClientMetrics implements RequestMetrics {

    /** client-go's latency buckets, in seconds. */
    private static final Duration[] BUCKETS = Buckets.seconds(0.005, 0.025, 0.1, 0.25, 0.5, 1, 2, 4, 8, 15, 30, 60);

    private record Labels(String first, String second, String host) {}

    private final MeterRegistry registry;
    private final Map<Labels, Counter> results = new ConcurrentHashMap<>();
    private final Map<Labels, Counter> retries = new ConcurrentHashMap<>();
    private final Map<Labels, Timer> latencies = new ConcurrentHashMap<>();
    private final Map<Labels, Timer> waits = new ConcurrentHashMap<>();

    private RestClientMetrics(MeterRegistry registry) {
        this.registry = Objects.requireNonNull(registry, "registry");
    }

    /** Metrics registering their meters in {@code registry} as requests are made. */
    public static RestClientMetrics create(MeterRegistry registry) {
        return new RestClientMetrics(registry);
    }

    @Override
    public void requestLatency(String verb, String host, Duration latency) {
        latencies
                .computeIfAbsent(
                        new Labels(verb, "", host),
                        l -> Timer.builder("rest.client.request.duration")
                                .description("Request latency in seconds. Broken down by verb, and host.")
                                .tags("verb", l.first(), "host", l.host())
                                .serviceLevelObjectives(BUCKETS)
                                .register(registry))
                .record(latency);
    }

    @Override
    public void requestResult(String code, String method, String host) {
        results.computeIfAbsent(
                        new Labels(code, method, host),
                        l -> Counter.builder("rest.client.requests")
                                .description("Number of HTTP requests, partitioned by status code, method, and host.")
                                .tags("code", l.first(), "method", l.second(), "host", l.host())
                                .register(registry))
                .increment();
    }

    @Override
    public void rateLimiterLatency(String verb, String host, Duration wait) {
        waits.computeIfAbsent(
                        new Labels(verb, "", host),
                        l -> Timer.builder("rest.client.rate.limiter.duration")
                                .description(
                                        "Client side rate limiter latency in seconds. Broken down by verb, and host.")
                                .tags("verb", l.first(), "host", l.host())
                                .serviceLevelObjectives(BUCKETS)
                                .register(registry))
                .record(wait);
    }

    @Override
    public void requestRetry(String code, String method, String host) {
        retries.computeIfAbsent(
                        new Labels(code, method, host),
                        l -> Counter.builder("rest.client.retries")
                                .description("Number of request retries, partitioned by status code, verb, and host.")
                                .tags("code", l.first(), "verb", l.second(), "host", l.host())
                                .register(registry))
                .increment();
    }
}
