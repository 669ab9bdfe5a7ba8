package io.kubeloop.apiserver.internal.metrics;

import io.kubeloop.apiserver.internal.auth.RequestAttributes;
import io.kubeloop.apiserver.internal.registry.ResourceDefinition;
import io.kubeloop.apiserver.internal.registry.ResourceRegistry;
import io.kubeloop.apiserver.internal.storage.VersionedStore;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The embedded server's metrics, served as Prometheus text on {@code /metrics} under kube-apiserver's
 * names:
 *
 * <ul>
 * <li>{@code apiserver_request_total} ({@code verb}, {@code group}, {@code version}, {@code resource},
 *     {@code subresource}, {@code scope}, {@code component}, {@code code}): every answered request;</li>
 * <li>{@code apiserver_request_duration_seconds} (the same labels but {@code code}; histogram with
 *     kube-apiserver's buckets): each request but watches, until its answer was handed to the
 *     connection;</li>
 * <li>{@code apiserver_storage_objects} ({@code resource}, e.g. {@code deployments.apps}): objects
 *     stored, per resource;</li>
 * <li>{@code apiserver_registered_watchers} ({@code resource}): open watches, per resource, the built-in
 *     controllers' own included;</li>
 * <li>{@code apiserver_terminated_watchers_total} ({@code resource}): watches the server ended because
 *     their client fell a whole buffer of events behind;</li>
 * <li>{@code kubeloop_wal_commit_duration_seconds} (histogram): with {@code --data-dir}, how long each
 *     write waited for its group commit to reach the disk — what etcd's
 *     {@code etcd_disk_wal_fsync_duration_seconds} tells of a cluster.</li>
 * </ul>
 *
 * {@code verb} is kube-apiserver's: {@code LIST} and {@code WATCH} for collection reads, {@code APPLY}
 * for server-side apply, else the HTTP method. {@code scope} is {@code resource} for a named object,
 * {@code namespace} or {@code cluster} for a collection.
 *
 * <p>Thread-safe: meters are made once per label set and kept; gauges for a resource are registered
 * the first time {@link #scrape()} sees it.
 */
public final class ServerMetrics {

    private static final Duration[] REQUEST_BUCKETS = seconds(
            0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60);
    private static final Duration[] COMMIT_BUCKETS =
            seconds(0.001, 0.002, 0.004, 0.008, 0.016, 0.032, 0.064, 0.128, 0.256, 0.512, 1.024, 2.048, 4.096, 8.192);

    /** A request's labels. */
    private record Labels(
            String verb, String group, String version, String resource, String subresource, String scope) {}

    private record Counted(Labels labels, String code) {}

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final ResourceRegistry resources;
    private final VersionedStore store;
    private final Map<Counted, Counter> requests = new ConcurrentHashMap<>();
    private final Map<Labels, Timer> durations = new ConcurrentHashMap<>();
    private final Set<String> gauged = ConcurrentHashMap.newKeySet();
    private final Timer commits;

    /** Metrics of a server over {@code resources} stored in {@code store}. */
    public ServerMetrics(ResourceRegistry resources, VersionedStore store) {
        this.resources = resources;
        this.store = store;
        this.commits = Timer.builder("kubeloop.wal.commit.duration")
                .description("How long a write waited for its group commit to the write-ahead log to be on disk")
                .serviceLevelObjectives(COMMIT_BUCKETS)
                .register(registry);
    }

    private static Duration[] seconds(double... values) {
        Duration[] b = new Duration[values.length];
        for (int i = 0; i < values.length; i++) {
            b[i] = Duration.ofNanos(Math.round(values[i] * 1e9));
        }
        return b;
    }

    /**
     * Counts an answered request and, unless it is a watch, its duration.
     *
     * @param attributes what it asked, or null when it was refused before that was known (401)
     * @param method the HTTP method
     * @param apply whether it was a server-side apply patch
     * @param code the answer's status
     * @param took from its arrival to its answer
     */
    public void request(RequestAttributes attributes, String method, boolean apply, int code, Duration took) {
        Labels labels = labels(attributes, method, apply);
        requests.computeIfAbsent(
                        new Counted(labels, Integer.toString(code)),
                        c -> Counter.builder("apiserver.request")
                                .description(
                                        "Counter of apiserver requests broken out for each verb, dry run value, group,"
                                                + " version, resource, scope, component, and HTTP response code.")
                                .tags(tags(c.labels()))
                                .tag("code", c.code())
                                .register(registry))
                .increment();
        if (!labels.verb().equals("WATCH")) {
            durations
                    .computeIfAbsent(
                            labels,
                            l -> Timer.builder("apiserver.request.duration")
                                    .description(
                                            "Response latency distribution in seconds for each verb, dry run value,"
                                                    + " group, version, resource, subresource, scope and component.")
                                    .tags(tags(l))
                                    .serviceLevelObjectives(REQUEST_BUCKETS)
                                    .register(registry))
                    .record(took);
        }
    }

    private static String[] tags(Labels l) {
        return new String[] {
            "verb", l.verb(),
            "group", l.group(),
            "version", l.version(),
            "resource", l.resource(),
            "subresource", l.subresource(),
            "scope", l.scope(),
            "component", "apiserver"
        };
    }

    private static Labels labels(RequestAttributes a, String method, boolean apply) {
        String upper = method.toUpperCase(Locale.ROOT);
        if (a == null || !a.resourceRequest()) {
            return new Labels(upper, "", "", "", "", "");
        }
        String verb = switch (a.verb()) {
            case "list" -> "LIST";
            case "watch" -> "WATCH";
            default -> apply && upper.equals("PATCH") ? "APPLY" : upper;
        };
        String scope = !a.name().isEmpty() ? "resource" : !a.namespace().isEmpty() ? "namespace" : "cluster";
        return new Labels(verb, a.apiGroup(), a.apiVersion(), a.resource(), a.subresource(), scope);
    }

    /** One write waited {@code took} for the write-ahead log. */
    public void committed(Duration took) {
        commits.record(took);
    }

    /** The metrics as Prometheus text (format 0.0.4). */
    public String scrape() {
        for (ResourceDefinition def : resources.all()) {
            if (!def.verbs().contains("watch")) {
                continue; // reviews and the like: nothing stored
            }
            String resource = def.qualifiedResource();
            String id = def.storageId();
            if (gauged.add(resource)) {
                Gauge.builder("apiserver.storage.objects", store, s -> s.count(id, null))
                        .description("Number of stored objects at the time of last check split by kind.")
                        .tag("resource", resource)
                        .strongReference(true)
                        .register(registry);
                Gauge.builder("apiserver.registered.watchers", store, s -> s.watcherCount(id))
                        .description("Number of currently registered watchers for a given resources")
                        .tag("resource", resource)
                        .strongReference(true)
                        .register(registry);
                FunctionCounter.builder("apiserver.terminated.watchers", store, s -> s.terminatedWatchers(id))
                        .description("Counter of watchers closed due to unresponsiveness broken by resource type.")
                        .tag("resource", resource)
                        .register(registry); // the store outlives its metrics: no strong reference needed
            }
        }
        return registry.scrape();
    }
}
