package io.kubeloop.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.GroupVersionKind;
import io.kubeloop.api.GroupVersionResource;
import io.kubeloop.api.ResourceScope;
import io.kubeloop.api.json.KubeJson;
import io.kubeloop.apiserver.EmbeddedApiServer;
import io.kubeloop.client.KubeClient;
import io.kubeloop.client.PatchType;
import io.kubeloop.client.ResourceClient;
import io.kubeloop.client.config.ConfigEnvironment;
import io.kubeloop.client.discovery.RestMapping;
import io.kubeloop.client.http.ApiRequest;
import io.kubeloop.codegen.OperatorBundle;
import io.kubeloop.it.operator.Widget;
import io.kubeloop.it.operator.WidgetBundle;
import io.kubeloop.it.operator.WidgetOperator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A user-style operator deployed from its generated bundle on the embedded API server, RBAC enforced: the
 * bundle's objects applied, then two replicas started as the Deployment's pods run — separate processes whose
 * {@code main} is kubeloop's entry point, given the container's arguments and environment, reaching the server
 * through the in-cluster path with a token of the bundle's ServiceAccount. Both answer their probes; exactly one
 * leads and reconciles; when it is stopped (SIGTERM) it hands the Lease back and the other leads and reconciles.
 */
@Timeout(240)
class OperatorReplicasIntegrationTest {

    private static final String NS = "widget-system";
    private static final GroupVersionResource LEASES = new GroupVersionResource("coordination.k8s.io", "v1", "leases");

    @TempDir
    Path dir;

    private final List<Process> processes = new ArrayList<>();

    @AfterEach
    void stopReplicas() throws InterruptedException {
        for (Process p : processes) {
            p.destroyForcibly();
            p.waitFor(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void oneOfTwoReplicasLeadsAndReconcilesAndTheOtherTakesOverWhenItStops() throws Exception {
        try (EmbeddedApiServer server = EmbeddedApiServer.start();
                KubeClient admin = server.client()) {
            OperatorBundle bundle = WidgetBundle.of(NS);
            apply(admin, bundle.objects());
            ResourceClient<Widget> widgets = admin.resource(Widget.class).inNamespace("default");

            Replica a = start(server, admin, bundle, "widget-operator-a");
            Replica b = start(server, admin, bundle, "widget-operator-b");
            for (Replica r : List.of(a, b)) {
                await().atMost(Duration.ofSeconds(90))
                        .ignoreExceptions()
                        .untilAsserted(() -> assertThat(get(r.probes(), "/readyz"))
                                .as(r.name() + " ready; its stderr: " + r.stderr())
                                .isEqualTo(200));
                assertThat(get(r.probes(), "/healthz")).isEqualTo(200);
                assertThat(get(r.metrics(), "/metrics")).isEqualTo(200);
            }

            String holder = await().atMost(Duration.ofSeconds(60))
                    .ignoreExceptions()
                    .until(() -> leaseHolder(admin), h -> h != null && !h.isEmpty());
            Replica leader = holder.startsWith(a.name() + "_") ? a : b;
            Replica follower = leader == a ? b : a;
            assertThat(holder).startsWith(leader.name() + "_");

            widgets.create(Widget.of("default", "w", "one"));
            awaitStatus(widgets, "one", leader);
            for (String message : List.of("two", "three")) {
                widgets.patch("w", PatchType.MERGE, "{\"spec\":{\"message\":\"" + message + "\"}}");
                awaitStatus(widgets, message, leader);
            }
            assertThat(leaseHolder(admin)).as("still the same leader").isEqualTo(holder);
            assertThat(get(follower.probes(), "/readyz"))
                    .as("the follower is ready too, with warm caches")
                    .isEqualTo(200);

            leader.process().destroy(); // SIGTERM, as the kubelet stops a pod
            assertThat(leader.process().waitFor(60, TimeUnit.SECONDS))
                    .as("the leader exits on SIGTERM")
                    .isTrue();
            await().atMost(Duration.ofSeconds(30))
                    .ignoreExceptions()
                    .untilAsserted(() -> assertThat(leaseHolder(admin))
                            .as("the Lease handed back, taken by the other replica")
                            .startsWith(follower.name() + "_"));
            widgets.patch("w", PatchType.MERGE, "{\"spec\":{\"message\":\"four\"}}");
            awaitStatus(widgets, "four", follower);
        }
    }

    /** A started replica: its process, its host name, where it serves probes and metrics. */
    private record Replica(String name, Process process, URI probes, URI metrics, Path stderrFile) {
        String stderr() {
            try {
                return Files.readString(stderrFile);
            } catch (IOException e) {
                return "(unreadable: " + e + ")";
            }
        }
    }

    /**
     * Starts a replica as a pod of the bundle's Deployment runs: the container's arguments (its probe and metrics
     * servers moved to free loopback ports, as two replicas share this host) and environment (the downward API
     * resolved for this pod), a ServiceAccount directory with a fresh token of the bundle's ServiceAccount and
     * the server's CA, the in-cluster variables, no kubeconfig.
     */
    private Replica start(EmbeddedApiServer server, KubeClient admin, OperatorBundle bundle, String name)
            throws IOException {
        int probePort = freePort();
        int metricsPort = freePort();
        JsonNode container = WidgetBundle.container(bundle);
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC",
                "-D" + RecordingLogProvider.ECHO_PROPERTY + "=true",
                "-cp",
                System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")),
                WidgetOperator.class.getName()));
        for (JsonNode arg : container.path("args")) {
            String a = arg.asString();
            if (a.startsWith("--health-probe-bind-address=")) {
                a = "--health-probe-bind-address=127.0.0.1:" + probePort;
            } else if (a.startsWith("--metrics-bind-address=")) {
                a = "--metrics-bind-address=127.0.0.1:" + metricsPort;
            }
            command.add(a);
        }
        ProcessBuilder pb = new ProcessBuilder(command);
        Map<String, String> env = pb.environment();
        env.remove("KUBECONFIG");
        env.remove("WATCH_NAMESPACE");
        for (JsonNode e : container.path("env")) {
            String field =
                    e.path("valueFrom").path("fieldRef").path("fieldPath").asString("");
            String value = e.has("value")
                    ? e.path("value").asString()
                    : field.equals("metadata.namespace") ? NS : ""; // no pod annotations: the OLM one is empty
            if (!e.path("name").asString().equals("JAVA_TOOL_OPTIONS")) {
                env.put(e.path("name").asString(), value);
            }
        }
        Path account = Files.createDirectories(dir.resolve(name + "-serviceaccount"));
        Files.writeString(account.resolve("token"), token(admin, bundle.serviceAccountName()));
        Files.writeString(account.resolve("ca.crt"), server.caPem());
        Files.writeString(account.resolve("namespace"), NS);
        env.put("KUBERNETES_SERVICE_HOST", "127.0.0.1");
        env.put("KUBERNETES_SERVICE_PORT", Integer.toString(server.url().getPort()));
        env.put(ConfigEnvironment.SERVICE_ACCOUNT_DIR_VARIABLE, account.toString());
        env.put("HOSTNAME", name);
        env.put("HOME", Files.createDirectories(dir.resolve(name + "-home")).toString());
        Path stderr = dir.resolve(name + ".stderr");
        pb.redirectErrorStream(false)
                .redirectOutput(dir.resolve(name + ".stdout").toFile())
                .redirectError(stderr.toFile());
        Process process = pb.start();
        processes.add(process);
        return new Replica(
                name,
                process,
                URI.create("http://127.0.0.1:" + probePort),
                URI.create("http://127.0.0.1:" + metricsPort),
                stderr);
    }

    /** Creates every object of the bundle, as {@code kubectl create -f} would, and waits for the CRD. */
    private static void apply(KubeClient admin, List<ObjectNode> objects) {
        for (ObjectNode o : objects) {
            GroupVersionKind kind = GroupVersionKind.of(
                    o.path("apiVersion").asString(), o.path("kind").asString());
            RestMapping mapping = admin.restMapper().mapping(kind);
            ResourceClient<DynamicObject> rc =
                    admin.resource(mapping.groupVersionResource(), mapping.scope(), DynamicObject.class);
            String namespace = o.path("metadata").path("namespace").asString("");
            (namespace.isEmpty() ? rc : rc.inNamespace(namespace)).create(DynamicObject.wrap(o));
        }
        await().atMost(Duration.ofSeconds(30))
                .ignoreExceptions()
                .until(() -> admin.resource(Widget.class).list() != null);
    }

    /** A token of the ServiceAccount, from the TokenRequest API ({@code kubectl create token}). */
    private static String token(KubeClient admin, String account) {
        byte[] body = ("{\"apiVersion\":\"authentication.k8s.io/v1\",\"kind\":\"TokenRequest\","
                        + "\"spec\":{\"expirationSeconds\":3600}}")
                .getBytes(StandardCharsets.UTF_8);
        URI uri = URI.create(
                admin.transport().server() + "/api/v1/namespaces/" + NS + "/serviceaccounts/" + account + "/token");
        try (var response = admin.transport()
                .send(new ApiRequest("POST", uri, Map.of("Content-Type", List.of("application/json")), body, false))
                .requireSuccess()) {
            return KubeJson.mapper()
                    .readTree(response.bytes())
                    .path("status")
                    .path("token")
                    .asString();
        }
    }

    private static String leaseHolder(KubeClient admin) {
        DynamicObject lease = admin.resource(LEASES, ResourceScope.NAMESPACED, DynamicObject.class)
                .inNamespace(NS)
                .get(WidgetOperator.NAME);
        return lease.at("/spec/holderIdentity").map(JsonNode::asString).orElse("");
    }

    private static void awaitStatus(ResourceClient<Widget> widgets, String message, Replica by) {
        await().atMost(Duration.ofSeconds(60))
                .untilAsserted(() -> assertThat(widgets.get("w").status())
                        .as("reconciled by " + by.name() + "; its stderr: " + by.stderr())
                        .isEqualTo(new Widget.Status(message, by.name())));
    }

    private static int get(URI server, String path) throws IOException, InterruptedException {
        try (HttpClient http = HttpClient.newHttpClient()) {
            return http.send(
                            HttpRequest.newBuilder(server.resolve(path))
                                    .timeout(Duration.ofSeconds(5))
                                    .build(),
                            HttpResponse.BodyHandlers.discarding())
                    .statusCode();
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
