package io.kubeloop.controller;

import io.kubeloop.controller.endpoints.HealthCheck;
import io.kubeloop.controller.internal.endpoints.EndpointServer;
import io.kubeloop.controller.internal.endpoints.HealthEndpoint;
import io.kubeloop.controller.internal.live.LoopSnapshots;
import io.kubeloop.controller.internal.live.LoopsPage;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The servers of a {@link Manager}: its metrics server ({@code /metrics}, {@code /loops}), its health
 * probe server ({@code /healthz}, {@code /readyz} and the checks behind them). Its one job is to start
 * them together, before leadership, and close them last.
 *
 * <p>Invariants: a metrics address without micrometer-registry-prometheus fails before any server
 * starts; an address is known only once its server bound it; every server started is closed by
 * {@link #close()}, also one whose start was cut short by another's failure.
 *
 * <p><b>Thread safety:</b> thread-safe. The server list is guarded by its own lock, the addresses are volatile, and the health endpoints take checks while answering.
 * Package-private: it needs {@link PrometheusMetrics}.
 */
final class ManagerServers {

    /** The manager's logger: these servers log as the manager always has. */
    private static final Logger LOG = LoggerFactory.getLogger(Manager.class);

    private final HealthEndpoint healthz = new HealthEndpoint("healthz");
    private final HealthEndpoint readyz = new HealthEndpoint("readyz");
    /** Guarded by itself. */
    private final List<EndpointServer> servers = new ArrayList<>();

    private volatile Optional<InetSocketAddress> metricsAddress = Optional.empty();
    private volatile Optional<InetSocketAddress> healthProbeAddress = Optional.empty();

    void addHealthzCheck(String name, HealthCheck check) {
        healthz.add(name, check);
    }

    void addReadyzCheck(String name, HealthCheck check) {
        readyz.add(name, check);
    }

    Optional<InetSocketAddress> metricsAddress() {
        return metricsAddress;
    }

    Optional<InetSocketAddress> healthProbeAddress() {
        return healthProbeAddress;
    }

    /**
     * Starts the servers {@code options} ask for. The caller closes the
     * manager (and so these servers) when this throws.
     *
     * @throws IllegalStateException with a metrics address but without micrometer-registry-prometheus
     * @throws java.io.UncheckedIOException when a server cannot bind its address
     */
    void start(
            ManagerOptions options,
            MeterRegistry registry,
            Supplier<String> scrape,
            BooleanSupplier isLeader,
            Supplier<List<Controller>> controllers) {
        if (options.metricsAddress().isPresent() && !PrometheusMetrics.AVAILABLE) {
            throw new IllegalStateException(PrometheusMetrics.missing(
                    "serving /metrics on " + options.metricsAddress().get()));
        }
        options.metricsAddress()
                .ifPresent(address -> metricsAddress = Optional.of(serve(
                        new EndpointServer("metrics")
                                .text("/metrics", "text/plain; version=0.0.4; charset=utf-8", scrape)
                                .text(LoopsPage.PATH, "text/html; charset=utf-8", LoopsPage::html)
                                .events(
                                        LoopsPage.EVENTS_PATH,
                                        new LoopSnapshots(registry, isLeader, controllers, options.ticker())::json,
                                        Duration.ofSeconds(1),
                                        options.ticker()),
                        address)));
        options.healthProbeAddress()
                .ifPresent(address -> healthProbeAddress = Optional.of(serve(
                        new EndpointServer("health probes")
                                .health("/healthz", healthz)
                                .health("/readyz", readyz),
                        address)));
    }

    /** Closes the probe and metrics servers. */
    void close() {
        synchronized (servers) {
            servers.forEach(EndpointServer::close);
        }
    }

    private InetSocketAddress serve(EndpointServer server, InetSocketAddress address) {
        synchronized (servers) {
            servers.add(server);
        }
        InetSocketAddress bound = server.start(address);
        LOG.info("manager serving on http://{}:{}", bound.getHostString(), bound.getPort());
        return bound;
    }
}
