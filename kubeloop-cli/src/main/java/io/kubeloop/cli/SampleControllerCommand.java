package io.kubeloop.cli;

import io.kubeloop.client.KubeClient;
import io.kubeloop.controller.Manager;
import io.kubeloop.controller.ManagerOptions;
import io.kubeloop.controller.client.CacheOptions;
import io.kubeloop.controller.endpoints.HealthCheck;
import io.kubeloop.controller.leader.LeaderElectionOptions;
import io.kubeloop.controller.webhook.WebhookServer;
import io.kubeloop.controller.webhook.WebhookServerOptions;
import io.kubeloop.samples.samplecontroller.FooCrd;
import io.kubeloop.samples.samplecontroller.FooWebhooks;
import io.kubeloop.samples.samplecontroller.SampleController;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code kubeloop sample-controller}: runs the sample-controller under a {@link Manager} against the
 * cluster of the kubeconfig (any Kubernetes API server, the embedded one included) until SIGINT or
 * SIGTERM, after installing the Foo CRD unless {@code --no-install-crd}; serves Prometheus metrics and
 * health probes where {@code --metrics-bind-address} and {@code --health-probe-bind-address} say
 * (kubebuilder's flags; {@code 0} turns one off); {@code --watch-namespaces} (or {@code WATCH_NAMESPACE}) limits
 * its caches to some namespaces. With {@code --leader-elect} it reconciles only
 * while it holds a Lease ({@code --leader-election-namespace}, {@code --leader-election-id}), so
 * copies can run side by side, one active; a copy that loses the lease stops with exit 1. Prints one
 * line when it runs (and, electing, one when it starts leading) and one when it stopped. Installing the CRD and waiting for it ride out transient failures (429, 5xx, a broken or
 * refused connection) with back-off for up to 30 s; a failure that is not transient (403, 422…), one
 * that lasts past those 30 s, or an address in use is one line on stderr and exit 1.
 *
 * <p>Not thread-safe: picocli runs it once on the main thread.
 */
@Command(
        name = "sample-controller",
        description =
                "Run the sample-controller (a Foo owns a Deployment) against the kubeconfig's cluster until stopped.")
final class SampleControllerCommand implements Callable<Integer>, ConnectedCommand {

    @Mixin
    ConnectionOptions connection;

    @Spec
    CommandSpec spec;

    @Option(
            names = "--install-crd",
            negatable = true,
            defaultValue = "true",
            fallbackValue = "true",
            description = "Install the Foo CRD first if it is missing (default: true; --no-install-crd to skip).")
    boolean installCrd;

    @Option(
            names = "--metrics-bind-address",
            defaultValue = "0",
            paramLabel = "[HOST]:PORT",
            description = "Serve Prometheus metrics on /metrics here, e.g. :8080 (default 0: off).")
    String metricsAddress;

    @Option(
            names = "--health-probe-bind-address",
            defaultValue = "0",
            paramLabel = "[HOST]:PORT",
            description = "Serve /healthz and /readyz here, e.g. :8081 (default 0: off).")
    String probeAddress;

    @Option(
            names = "--webhook-bind-address",
            defaultValue = "0",
            paramLabel = "[HOST]:PORT",
            description = "Serve Foo's defaulting, validating and conversion webhooks over HTTPS here, e.g. :9443"
                    + " (default 0: off).")
    String webhookAddress;

    @Option(
            names = "--webhook-cert-dir",
            paramLabel = "DIR",
            defaultValue = "/tmp/k8s-webhook-server/serving-certs",
            description = "The webhooks' certificate: tls.crt and tls.key, reloaded when they change"
                    + " (default: ${DEFAULT-VALUE}).")
    Path webhookCertDir;

    @Option(
            names = "--leader-elect",
            defaultValue = "false",
            description = "Run only while holding a Lease, so several copies can run side by side with one"
                    + " active (default: false). The lease is released on a clean stop.")
    boolean leaderElect;

    @Option(
            names = "--leader-election-namespace",
            paramLabel = "NAMESPACE",
            description = "The namespace of the Lease (default: the kubeconfig context's namespace).")
    String leaderElectionNamespace;

    @Option(
            names = "--leader-election-id",
            defaultValue = "foo-controller",
            paramLabel = "NAME",
            description = "The name of the Lease (default: ${DEFAULT-VALUE}).")
    String leaderElectionId;

    @Option(
            names = "--watch-namespaces",
            split = ",",
            paramLabel = "NS[,NS...]",
            defaultValue = "${env:WATCH_NAMESPACE}",
            description = "Watch and reconcile only in these namespaces (default: $WATCH_NAMESPACE, else all"
                    + " namespaces), as a Deployment whose RBAC is granted per namespace needs.")
    List<String> watchNamespaces;

    @Override
    public ConnectionOptions connection() {
        return connection;
    }

    /**
     * The leader election of {@code --leader-elect}: a Lease in the given namespace (else the
     * kubeconfig's), an identity of host name and a random suffix (client-go's), released on a clean
     * stop so that a waiting copy takes over at once.
     */
    private Optional<LeaderElectionOptions> leaderElection(KubeClient client) {
        if (!leaderElect) {
            return Optional.empty();
        }
        String namespace = leaderElectionNamespace != null ? leaderElectionNamespace : client.namespace();
        String identity = hostName() + "_" + UUID.randomUUID();
        return Optional.of(LeaderElectionOptions.defaults(namespace, leaderElectionId, identity)
                .withReleaseOnStop(true));
    }

    private static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "localhost";
        }
    }

    /** Prints one line when this copy starts leading. */
    private static void announceLeadership(Manager manager, PrintWriter out) {
        Thread.ofVirtual().name("leadership").start(() -> {
            try {
                while (!manager.isLeader()) {
                    if (manager.awaitTermination(Duration.ofMillis(100))) {
                        return;
                    }
                }
            } catch (InterruptedException e) {
                return;
            }
            synchronized (out) {
                out.println("leading: the controller runs");
                out.flush();
            }
        });
    }

    /**
     * Parses a Go-style bind address: {@code 0} (off), {@code :8080} (all interfaces),
     * {@code host:port}.
     */
    static Optional<InetSocketAddress> bindAddress(String option, String value) {
        if (value.equals("0")) {
            return Optional.empty();
        }
        int colon = value.lastIndexOf(':');
        if (colon < 0) {
            throw new IllegalArgumentException(option + " must be [HOST]:PORT or 0, got \"" + value + "\"");
        }
        String host = value.substring(0, colon);
        int port;
        try {
            port = Integer.parseInt(value.substring(colon + 1));
        } catch (NumberFormatException e) {
            port = -1;
        }
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException(
                    option + ": \"" + value.substring(colon + 1) + "\" is not a port (0-65535)");
        }
        return Optional.of(host.isEmpty() ? new InetSocketAddress(port) : new InetSocketAddress(host, port));
    }

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        ManagerOptions options = ManagerOptions.defaults();
        Optional<InetSocketAddress> metrics = bindAddress("--metrics-bind-address", metricsAddress);
        Optional<InetSocketAddress> probes = bindAddress("--health-probe-bind-address", probeAddress);
        options = metrics.map(options::withMetricsAddress).orElse(options);
        options = probes.map(options::withHealthProbeAddress).orElse(options);
        List<String> namespaces = watchNamespaces == null
                ? List.of()
                : watchNamespaces.stream()
                        .map(String::strip)
                        .filter(n -> !n.isEmpty())
                        .toList();
        if (!namespaces.isEmpty()) {
            options =
                    options.withCache(CacheOptions.defaults().withDefaultNamespaces(namespaces.toArray(String[]::new)));
        }
        StopSignal stop = StopSignal.install();
        try (KubeClient client = connection.connect(spec.commandLine().getErr())) {
            Optional<LeaderElectionOptions> election = leaderElection(client);
            options = election.map(options::withLeaderElection).orElse(options);
            if (installCrd) {
                FooCrd.install(client, Duration.ofSeconds(30));
                out.println("Foo CRD " + FooCrd.NAME + " installed");
            }
            try (Manager manager = Manager.create(client, options)) {
                SampleController.addTo(manager);
                Optional<WebhookServer> webhooks = bindAddress("--webhook-bind-address", webhookAddress)
                        .map(a -> WebhookServer.create(
                                WebhookServerOptions.defaults().withAddress(a).withCertDir(webhookCertDir)));
                webhooks.ifPresent(w -> {
                    FooWebhooks.registerWith(w, client.scheme());
                    manager.add(w);
                });
                manager.endpoints().addHealthzCheck("ping", HealthCheck.ping());
                manager.endpoints()
                        .addReadyzCheck("informers", manager.endpoints().informersReceiving(Duration.ofMinutes(3)));
                manager.start();
                manager.endpoints()
                        .metricsAddress()
                        .ifPresent(a -> out.println("metrics on http://" + ServeCommand.hostPort(a) + "/metrics"));
                manager.endpoints()
                        .healthProbeAddress()
                        .ifPresent(a -> out.println(
                                "health probes on http://" + ServeCommand.hostPort(a) + "/healthz and /readyz"));
                webhooks.flatMap(WebhookServer::address)
                        .ifPresent(a -> out.println("webhooks on https://" + ServeCommand.hostPort(a)
                                + ": Foo defaulting, validation and v1alpha1/v1 conversion"));
                out.println("sample-controller running: watching foos and deployments in "
                        + (namespaces.isEmpty() ? "all namespaces" : "namespaces " + String.join(", ", namespaces))
                        + "; Ctrl-C to stop");
                election.ifPresent(e -> {
                    out.println(
                            "waiting to lead: lease " + e.namespace() + "/" + e.name() + ", identity " + e.identity());
                    announceLeadership(manager, out);
                });
                out.flush();
                Thread.ofVirtual().start(() -> {
                    try {
                        manager.awaitTermination();
                    } catch (InterruptedException e) {
                        return;
                    }
                    stop.trigger();
                });
                stop.await();
                manager.failure().ifPresent(f -> {
                    throw new IllegalStateException("the manager stopped: " + f.getMessage(), f);
                });
            }
        }
        out.println("sample-controller stopped");
        out.flush();
        return 0;
    }
}
