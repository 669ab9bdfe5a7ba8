package io.kubeloop.controller;

import io.kubeloop.controller.endpoints.HealthCheck;
import io.kubeloop.controller.internal.endpoints.InformerHealthChecks;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Optional;

/**
 * What a {@link Manager} serves over HTTP, and the checks behind it (controller-runtime's metrics and health probe
 * servers): {@code /metrics} in the Prometheus text format and the live {@code /loops} page when
 * {@link ManagerOptions#metricsAddress()} is set; {@code /healthz} and {@code /readyz} when
 * {@link ManagerOptions#healthProbeAddress()} is. The probes answer the checks added here as controller-runtime's
 * do: on the root every check runs, 200 {@code ok} when all pass ({@code ?verbose} lists them,
 * {@code ?exclude=name} skips one), else 500 with the failed ones named and their reasons withheld (and logged);
 * on {@code /<name>} that check alone, with its reason. The servers start with the manager — before leadership,
 * so a candidate answers probes — and stop last.
 *
 * <p><b>Thread safety:</b> thread-safe; checks may be added at any time.
 */
public final class ManagerEndpoints {

    /** How long {@link #informersReceiving} lets an informer's list or watch fail before it reports it. */
    static final int FAILING_GRACE_SECONDS = InformerHealthChecks.FAILING_GRACE_SECONDS;

    private final ManagerServers servers;
    private final InformerHealthChecks informerChecks;
    private final MeterRegistry registry;

    ManagerEndpoints(ManagerServers servers, InformerHealthChecks informerChecks, MeterRegistry registry) {
        this.servers = servers;
        this.informerChecks = informerChecks;
        this.registry = registry;
    }

    /**
     * Adds a liveness check, answered on {@code /healthz} and {@code /healthz/<name>}.
     *
     * @param name the check's name: non-empty, no {@code /}
     * @param check the check, e.g. {@link HealthCheck#ping()}
     * @throws IllegalArgumentException if the name is invalid or taken
     */
    public void addHealthzCheck(String name, HealthCheck check) {
        servers.addHealthzCheck(name, check);
    }

    /**
     * Adds a readiness check, answered on {@code /readyz} and {@code /readyz/<name>}.
     *
     * @param name the check's name: non-empty, no {@code /}
     * @param check the check, e.g. {@link #informersSynced()}
     * @throws IllegalArgumentException if the name is invalid or taken
     */
    public void addReadyzCheck(String name, HealthCheck check) {
        servers.addReadyzCheck(name, check);
    }

    /**
     * A check that passes once the manager started and every informer it started has synced, naming
     * the ones that have not, each with its last list or watch error when it has one: a refusal reads
     * {@code informers not synced: [deployments.v1.apps (deployments.apps is forbidden: User "…" cannot list
     * resource "deployments" in API group "apps" at the cluster scope)]}, so a readiness probe tells missing
     * RBAC from a slow sync.
     */
    public HealthCheck informersSynced() {
        return informerChecks.synced();
    }

    /**
     * A readiness check that fails not only before the first sync but whenever an informer stops
     * receiving: it fails while {@link #informersSynced()} does, when an informer's lists or watches have
     * been failing for over {@value #FAILING_GRACE_SECONDS} seconds with nothing received since (naming the
     * error: a retried blip does not fail it), and when it has received nothing — no event, no bookmark —
     * for longer than {@code maxSilence}. A working watch gets a bookmark about every minute,
     * so a few minutes (3, the client's watch idle timeout, is the usual choice) tell a quiet cluster
     * from a lost one.
     *
     * @param maxSilence how long an informer may receive nothing; at least a minute
     * @throws IllegalArgumentException when {@code maxSilence} is under a minute
     */
    public HealthCheck informersReceiving(Duration maxSilence) {
        return informerChecks.receiving(maxSilence);
    }

    /** The address metrics are served on, once started with a metrics address. */
    public Optional<InetSocketAddress> metricsAddress() {
        return servers.metricsAddress();
    }

    /** The address health probes are served on, once started with a probe address. */
    public Optional<InetSocketAddress> healthProbeAddress() {
        return servers.healthProbeAddress();
    }

    /**
     * The metrics text a scrape of {@code /metrics} returns now (Prometheus text format 0.0.4).
     *
     * @throws IllegalStateException when micrometer-registry-prometheus is not there (see {@link Manager})
     */
    public String scrape() {
        if (!PrometheusMetrics.AVAILABLE) {
            throw new IllegalStateException(PrometheusMetrics.missing("ManagerEndpoints.scrape()"));
        }
        return PrometheusMetrics.scrape(registry);
    }
}
