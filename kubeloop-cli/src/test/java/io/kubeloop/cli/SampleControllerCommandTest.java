package io.kubeloop.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.kubeloop.api.errors.NotFoundException;
import io.kubeloop.apiserver.EmbeddedApiServer;
import io.kubeloop.client.ClientOptions;
import io.kubeloop.client.KubeClient;
import io.kubeloop.samples.samplecontroller.Foo;
import io.kubeloop.testing.faults.Fault;
import io.kubeloop.testing.faults.FaultInjectingProxy;
import io.kubeloop.testing.faults.FaultPlan;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code kubeloop sample-controller} against an embedded API server reached through a kubeconfig. */
@Timeout(120)
class SampleControllerCommandTest {

    @TempDir
    Path dir;

    @Test
    void itInstallsTheCrdReconcilesFoosServesMetricsAndProbesAndStopsCleanly() throws Exception {
        try (EmbeddedApiServer server = EmbeddedApiServer.start();
                KubeClient client = KubeClient.create(server.clientConfig(), ClientOptions.defaults())) {
            Path kubeconfig = dir.resolve("kubeconfig");
            server.writeKubeconfig(kubeconfig);
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            AtomicInteger exit = new AtomicInteger(-1);
            Thread command = Thread.ofPlatform()
                    .start(() -> exit.set(Main.run(
                            new PrintWriter(out),
                            new PrintWriter(err),
                            "sample-controller",
                            "--kubeconfig",
                            kubeconfig.toString(),
                            "--cache-dir",
                            dir.resolve("cache").toString(),
                            "--metrics-bind-address",
                            "127.0.0.1:0",
                            "--health-probe-bind-address",
                            "127.0.0.1:0")));
            await().atMost(Duration.ofSeconds(60)).until(() -> out.toString().contains("sample-controller running"));
            assertThat(out.toString()).startsWith("Foo CRD foos.samplecontroller.k8s.io installed\n");

            client.resource(Foo.class).inNamespace("default").create(Foo.of("default", "cli-foo", "cli-foo-nginx", 1));
            await().atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(50))
                    .until(() -> {
                        try {
                            return client.resource(Deployment.class)
                                            .inNamespace("default")
                                            .get("cli-foo-nginx")
                                    != null;
                        } catch (NotFoundException e) {
                            return false;
                        }
                    });

            Matcher metrics =
                    Pattern.compile("metrics on (http://\\S+/metrics)").matcher(out.toString());
            Matcher probes =
                    Pattern.compile("health probes on (http://\\S+)/healthz").matcher(out.toString());
            assertThat(metrics.find()).as(out.toString()).isTrue();
            assertThat(probes.find()).as(out.toString()).isTrue();
            try (HttpClient http = HttpClient.newHttpClient()) {
                await().atMost(Duration.ofSeconds(30))
                        .until(
                                () -> http.send(
                                                HttpRequest.newBuilder(URI.create(metrics.group(1)))
                                                        .build(),
                                                HttpResponse.BodyHandlers.ofString())
                                        .body()
                                        .contains(
                                                "controller_runtime_reconcile_total{controller=\"foo-controller\",result=\"success\"}"));
                HttpResponse<String> ready = http.send(
                        HttpRequest.newBuilder(URI.create(probes.group(1) + "/readyz?verbose"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                assertThat(ready.statusCode()).isEqualTo(200);
                assertThat(ready.body()).isEqualTo("[+]informers ok\nhealthz check passed\n");
            }

            command.interrupt(); // what SIGINT does to its wait
            command.join(Duration.ofSeconds(30));
            assertThat(exit.get()).as(err.toString()).isZero();
            assertThat(out.toString()).endsWith("sample-controller stopped\n");
        }
    }

    @Test
    void withWatchNamespacesItReconcilesInThoseNamespacesAndSaysSo() throws Exception {
        try (EmbeddedApiServer server = EmbeddedApiServer.start();
                KubeClient client = KubeClient.create(server.clientConfig(), ClientOptions.defaults())) {
            Path kubeconfig = server.writeKubeconfig(dir.resolve("kubeconfig"));
            client.resource(Namespace.class)
                    .create(new NamespaceBuilder()
                            .withNewMetadata()
                            .withName("team")
                            .endMetadata()
                            .build());
            InProcessCommand copy = InProcessCommand.start(
                    "sample-controller",
                    "--kubeconfig",
                    kubeconfig.toString(),
                    "--cache-dir",
                    dir.resolve("cache").toString(),
                    "--watch-namespaces",
                    "team");
            try {
                await().atMost(Duration.ofSeconds(60))
                        .until(() -> copy.out().toString().contains("sample-controller running"));
                assertThat(copy.out().toString())
                        .contains("watching foos and deployments in namespaces team; Ctrl-C to stop");
                client.resource(Foo.class).inNamespace("team").create(Foo.of("team", "scoped", "scoped-nginx", 1));
                await().atMost(Duration.ofSeconds(30)).until(() -> deploymentExists(client, "team", "scoped-nginx"));
            } finally {
                copy.stop();
            }
        }
    }

    /** Whether a copy of the command leads. */
    private static boolean leads(InProcessCommand copy) {
        return copy.out().toString().contains("leading: the controller runs");
    }

    private static boolean deploymentExists(KubeClient client, String name) {
        return deploymentExists(client, "default", name);
    }

    private static boolean deploymentExists(KubeClient client, String namespace, String name) {
        try {
            return client.resource(Deployment.class).inNamespace(namespace).get(name) != null;
        } catch (NotFoundException e) {
            return false;
        }
    }

    /**
     * Two copies with {@code --leader-elect} against one server: one leads and reconciles, the other
     * waits without reconciling; when the leader stops it releases the Lease and the other takes over.
     */
    @Test
    void withLeaderElectOneOfTwoCopiesLeadsAndTheOtherTakesOverWhenItStops() throws Exception {
        try (EmbeddedApiServer server = EmbeddedApiServer.start();
                KubeClient client = KubeClient.create(server.clientConfig(), ClientOptions.defaults())) {
            Path kubeconfig = dir.resolve("kubeconfig");
            server.writeKubeconfig(kubeconfig);
            String[] args = {
                "sample-controller",
                "--kubeconfig",
                kubeconfig.toString(),
                "--cache-dir",
                dir.resolve("cache").toString(),
                "--leader-elect"
            };
            InProcessCommand first = InProcessCommand.start(args);
            await().atMost(Duration.ofSeconds(60)).until(() -> leads(first));
            InProcessCommand second = InProcessCommand.start(args);
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> second.out().toString().contains("waiting to lead: lease default/foo-controller"));

            client.resource(Foo.class).inNamespace("default").create(Foo.of("default", "one", "one-nginx", 1));
            await().atMost(Duration.ofSeconds(30)).until(() -> deploymentExists(client, "one-nginx"));
            assertThat(leads(second))
                    .as("the second copy waits while the first leads")
                    .isFalse();

            first.stop();
            assertThat(first.exit().get()).as(first.err().toString()).isZero();
            await().atMost(Duration.ofSeconds(30)).until(() -> leads(second));
            client.resource(Foo.class).inNamespace("default").create(Foo.of("default", "two", "two-nginx", 1));
            await().atMost(Duration.ofSeconds(30)).until(() -> deploymentExists(client, "two-nginx"));

            second.stop();
            assertThat(second.exit().get()).as(second.err().toString()).isZero();
        }
    }

    /**
     * Two operating-system processes with {@code --leader-elect}: each names its own identity, the
     * Lease names the leader's, the other reconciles nothing; SIGTERM stops the leader with exit 0 and
     * releases the Lease, so the other takes over well before the 15 s lease duration would run out.
     */
    @Test
    @Timeout(180)
    void withLeaderElectTwoProcessesShareOneLeaseAndTheWaitingOneTakesOverOnSigterm() throws Exception {
        try (EmbeddedApiServer server = EmbeddedApiServer.start();
                KubeClient client = KubeClient.create(server.clientConfig(), ClientOptions.defaults())) {
            Path kubeconfig = dir.resolve("kubeconfig");
            server.writeKubeconfig(kubeconfig);
            String[] args = {
                "sample-controller",
                "--kubeconfig",
                kubeconfig.toString(),
                "--cache-dir",
                dir.resolve("cache").toString(),
                "--leader-elect"
            };
            try (KubeloopProcess first = KubeloopProcess.command(args)) {
                first.awaitOutput("leading: the controller runs", Duration.ofSeconds(90));
                try (KubeloopProcess second = KubeloopProcess.command(args)) {
                    second.awaitOutput("waiting to lead: lease default/foo-controller", Duration.ofSeconds(90));
                    String firstIdentity = identity(first.stdoutSoFar());
                    String secondIdentity = identity(second.stdoutSoFar());
                    assertThat(secondIdentity).isNotEqualTo(firstIdentity);
                    assertThat(holder(client)).isEqualTo(firstIdentity);

                    client.resource(Foo.class).inNamespace("default").create(Foo.of("default", "one", "one-nginx", 1));
                    await().atMost(Duration.ofSeconds(30)).until(() -> deploymentExists(client, "one-nginx"));
                    assertThat(second.stdoutSoFar())
                            .as("the waiting process does not lead")
                            .doesNotContain("leading: the controller runs");

                    assertThat(first.terminate(Duration.ofSeconds(60)))
                            .as(first.stderr())
                            .isZero();
                    long stopped = System.nanoTime();
                    second.awaitOutput("leading: the controller runs", Duration.ofSeconds(30));
                    assertThat(Duration.ofNanos(System.nanoTime() - stopped))
                            .as("a released Lease is taken at the next retry, not after the lease duration")
                            .isLessThan(Duration.ofSeconds(12));
                    assertThat(holder(client)).isEqualTo(secondIdentity);
                    client.resource(Foo.class).inNamespace("default").create(Foo.of("default", "two", "two-nginx", 1));
                    await().atMost(Duration.ofSeconds(30)).until(() -> deploymentExists(client, "two-nginx"));
                    assertThat(second.terminate(Duration.ofSeconds(60)))
                            .as(second.stderr())
                            .isZero();
                }
            }
        }
    }

    private static String identity(String stdout) {
        Matcher m = Pattern.compile("identity (\\S+)").matcher(stdout);
        assertThat(m.find()).as(stdout).isTrue();
        return m.group(1);
    }

    private static String holder(KubeClient client) {
        return client.resource(Lease.class)
                .inNamespace("default")
                .get("foo-controller")
                .getSpec()
                .getHolderIdentity();
    }

    /**
     * Faults only the Foo CRD's create and reads: a 503 and a cut connection (after the server created
     * it) on the create; on the reads a run of 503s and one of 429s, each one longer than the client's
     * own retries of a GET, and a cut connection between them.
     */
    static final class CrdFaults implements FaultPlan {
        private final AtomicInteger creates = new AtomicInteger();
        private final AtomicInteger reads = new AtomicInteger();

        @Override
        public Fault choose(ProxiedRequest request) {
            if (!request.target().startsWith("/apis/apiextensions.k8s.io/v1/customresourcedefinitions")) {
                return new Fault.Pass();
            }
            if (request.method().equals("POST")) {
                return switch (creates.getAndIncrement()) {
                    case 0 -> new Fault.Reject(503, "ServiceUnavailable", Duration.ZERO);
                    case 1 -> new Fault.Cut(0, Duration.ZERO);
                    default -> new Fault.Pass();
                };
            }
            int read = reads.getAndIncrement();
            int clientAttempts = 1 + ClientOptions.defaults().maxRetries(); // a GET's attempts within the client
            if (read < clientAttempts) {
                return new Fault.Reject(503, "ServiceUnavailable", Duration.ZERO);
            } else if (read == clientAttempts) {
                return new Fault.Cut(0, Duration.ZERO);
            } else if (read <= 2 * clientAttempts) {
                return new Fault.Reject(429, "TooManyRequests", Duration.ZERO);
            }
            return new Fault.Pass();
        }
    }

    @Test
    void startUpRidesOutRefusalsAndCutConnectionsWhileInstallingTheCrdAndWaitingForIt() throws Exception {
        try (EmbeddedApiServer server = EmbeddedApiServer.start();
                FaultInjectingProxy proxy = FaultInjectingProxy.start(server, new CrdFaults())) {
            Path kubeconfig = proxy.writeKubeconfig(dir.resolve("kubeconfig"));
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            AtomicInteger exit = new AtomicInteger(-1);
            Thread command = Thread.ofPlatform()
                    .start(() -> exit.set(Main.run(
                            new PrintWriter(out),
                            new PrintWriter(err),
                            "sample-controller",
                            "--kubeconfig",
                            kubeconfig.toString(),
                            "--cache-dir",
                            dir.resolve("cache").toString())));
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> out.toString().contains("sample-controller running") || exit.get() >= 0);
            assertThat(err.toString()).as("stderr").isEmpty();
            assertThat(out.toString())
                    .startsWith("Foo CRD foos.samplecontroller.k8s.io installed\n")
                    .contains("sample-controller running");
            assertThat(proxy.injected()).as("faults met").containsKeys("reject-503", "reject-429", "cut");

            command.interrupt();
            command.join(Duration.ofSeconds(30));
            assertThat(exit.get()).as(err.toString()).isZero();
        }
    }

    @Test
    void aBindAddressThatIsNotHostColonPortIsOneLineAndExitOne() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = Main.run(
                new PrintWriter(out), new PrintWriter(err), "sample-controller", "--metrics-bind-address", "8080");
        assertThat(exit).isEqualTo(1);
        assertThat(err.toString().strip())
                .doesNotContain("\n")
                .startsWith("error: --metrics-bind-address must be [HOST]:PORT or 0, got \"8080\"");
    }

    @Test
    void anUnreachableServerIsOneLineAndExitOne() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        Path kubeconfig = dir.resolve("missing-kubeconfig");
        int exit = Main.run(
                new PrintWriter(out), new PrintWriter(err), "sample-controller", "--kubeconfig", kubeconfig.toString());
        assertThat(exit).isEqualTo(1);
        assertThat(err.toString().strip()).doesNotContain("\n").startsWith("error: ");
    }
}
