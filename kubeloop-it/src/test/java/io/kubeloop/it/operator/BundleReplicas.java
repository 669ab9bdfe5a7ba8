package io.kubeloop.it.operator;

import static org.awaitility.Awaitility.await;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.GroupVersionKind;
import io.kubeloop.api.GroupVersionResource;
import io.kubeloop.api.ResourceScope;
import io.kubeloop.api.json.KubeJson;
import io.kubeloop.apiserver.EmbeddedApiServer;
import io.kubeloop.client.KubeClient;
import io.kubeloop.client.ResourceClient;
import io.kubeloop.client.config.ConfigEnvironment;
import io.kubeloop.client.discovery.RestMapping;
import io.kubeloop.client.http.ApiRequest;
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
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * An operator's bundle deployed on an embedded API server as a cluster administrator deploys it, and its pods run
 * as separate processes on this host: {@link #apply} creates the bundle's objects; {@link #start} starts a replica
 * as a pod of the bundle's Deployment runs — the container's arguments and environment, a ServiceAccount directory
 * with a fresh token of the bundle's ServiceAccount and the server's CA, the in-cluster variables, no kubeconfig.
 *
 * <p>{@link #close} kills every replica still running. Not thread-safe: one test drives it.
 */
public final class BundleReplicas implements AutoCloseable {

    private static final GroupVersionResource LEASES = new GroupVersionResource("coordination.k8s.io", "v1", "leases");

    private final EmbeddedApiServer server;
    private final KubeClient admin;
    private final List<ObjectNode> bundle;
    private final Path dir;
    private final List<Process> processes = new ArrayList<>();

    /**
     * @param server the server the replicas reach
     * @param admin a client with every right, to apply the bundle and create tokens
     * @param bundle the bundle's objects, in the order {@code kubectl apply} takes them
     * @param dir where the replicas' ServiceAccount directories, homes and output go
     */
    public BundleReplicas(EmbeddedApiServer server, KubeClient admin, List<ObjectNode> bundle, Path dir) {
        this.server = server;
        this.admin = admin;
        this.bundle = List.copyOf(bundle);
        this.dir = dir;
    }

    /** A started replica: its process, its host name, where it serves probes and metrics, its output. */
    public record Replica(String name, Process process, URI probes, URI metrics, Path stdoutFile, Path stderrFile) {

        /** What it wrote to stderr so far (where SLF4J's simple logger writes). */
        public String stderr() {
            return read(stderrFile);
        }

        /** What it wrote to stdout so far. */
        public String stdout() {
            return read(stdoutFile);
        }

        private static String read(Path file) {
            try {
                return Files.readString(file);
            } catch (IOException e) {
                return "(unreadable: " + e + ")";
            }
        }
    }

    /** The bundle's Deployment. */
    public ObjectNode deployment() {
        return bundle.stream()
                .filter(o -> o.path("kind").asString("").equals("Deployment"))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no Deployment in the bundle"));
    }

    /** The namespace the bundle's Deployment runs in. */
    public String namespace() {
        return deployment().path("metadata").path("namespace").asString();
    }

    /** The Deployment's one container. */
    public ObjectNode container() {
        return (ObjectNode) deployment()
                .path("spec")
                .path("template")
                .path("spec")
                .path("containers")
                .get(0);
    }

    /** The ServiceAccount the Deployment's pods run as. */
    public String serviceAccount() {
        return deployment()
                .path("spec")
                .path("template")
                .path("spec")
                .path("serviceAccountName")
                .asString();
    }

    /**
     * Creates every object of the bundle, as {@code kubectl create -f} would, and waits until the server serves the
     * kinds of its CRDs.
     */
    public void apply() {
        for (ObjectNode o : bundle) {
            GroupVersionKind kind = GroupVersionKind.of(
                    o.path("apiVersion").asString(), o.path("kind").asString());
            RestMapping mapping = admin.restMapper().mapping(kind);
            ResourceClient<DynamicObject> rc =
                    admin.resource(mapping.groupVersionResource(), mapping.scope(), DynamicObject.class);
            String namespace = o.path("metadata").path("namespace").asString("");
            (namespace.isEmpty() ? rc : rc.inNamespace(namespace)).create(DynamicObject.wrap(o));
        }
        for (ObjectNode crd : bundle) {
            if (!crd.path("kind").asString("").equals("CustomResourceDefinition")) {
                continue;
            }
            JsonNode spec = crd.path("spec");
            GroupVersionResource served = new GroupVersionResource(
                    spec.path("group").asString(),
                    spec.path("versions").get(0).path("name").asString(),
                    spec.path("names").path("plural").asString());
            ResourceScope scope =
                    spec.path("scope").asString().equals("Cluster") ? ResourceScope.CLUSTER : ResourceScope.NAMESPACED;
            await().atMost(Duration.ofSeconds(30))
                    .ignoreExceptions()
                    .until(() ->
                            admin.resource(served, scope, DynamicObject.class).list() != null);
        }
    }

    /**
     * Starts replica {@code name} of the Deployment: {@code java} with {@code jvmOptions}, {@code classpath} and
     * {@code mainClass} (the image's entry point), then the container's arguments, its probe and metrics servers
     * moved to free loopback ports (as replicas share this host); the container's environment with the downward API
     * resolved for this pod ({@code JAVA_TOOL_OPTIONS}, which sizes the heap for the container, left out);
     * {@code HOSTNAME} the replica's name.
     */
    public Replica start(String name, Path java, List<String> jvmOptions, String classpath, String mainClass)
            throws IOException {
        int probePort = freePort();
        int metricsPort = freePort();
        ObjectNode container = container();
        List<String> command = new ArrayList<>();
        command.add(java.toString());
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", classpath, mainClass));
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
        env.remove("JAVA_TOOL_OPTIONS");
        String namespace = namespace();
        for (JsonNode e : container.path("env")) {
            String field =
                    e.path("valueFrom").path("fieldRef").path("fieldPath").asString("");
            String value = e.has("value")
                    ? e.path("value").asString()
                    : field.equals("metadata.namespace") ? namespace : ""; // no pod annotations: the OLM one is empty
            if (!e.path("name").asString().equals("JAVA_TOOL_OPTIONS")) {
                env.put(e.path("name").asString(), value);
            }
        }
        Path account = Files.createDirectories(dir.resolve(name + "-serviceaccount"));
        Files.writeString(account.resolve("token"), token(serviceAccount()));
        Files.writeString(account.resolve("ca.crt"), server.caPem());
        Files.writeString(account.resolve("namespace"), namespace);
        env.put("KUBERNETES_SERVICE_HOST", "127.0.0.1");
        env.put("KUBERNETES_SERVICE_PORT", Integer.toString(server.url().getPort()));
        env.put(ConfigEnvironment.SERVICE_ACCOUNT_DIR_VARIABLE, account.toString());
        env.put("HOSTNAME", name);
        env.put("HOME", Files.createDirectories(dir.resolve(name + "-home")).toString());
        Path stdout = dir.resolve(name + ".stdout");
        Path stderr = dir.resolve(name + ".stderr");
        pb.redirectErrorStream(false).redirectOutput(stdout.toFile()).redirectError(stderr.toFile());
        Process process = pb.start();
        processes.add(process);
        return new Replica(
                name,
                process,
                URI.create("http://127.0.0.1:" + probePort),
                URI.create("http://127.0.0.1:" + metricsPort),
                stdout,
                stderr);
    }

    /** The holder of the Lease {@code name} in the bundle's namespace, empty when none. */
    public String leaseHolder(String name) {
        DynamicObject lease = admin.resource(LEASES, ResourceScope.NAMESPACED, DynamicObject.class)
                .inNamespace(namespace())
                .get(name);
        return lease.at("/spec/holderIdentity").map(JsonNode::asString).orElse("");
    }

    /** A token of the ServiceAccount, from the TokenRequest API ({@code kubectl create token}). */
    private String token(String account) {
        byte[] body = ("{\"apiVersion\":\"authentication.k8s.io/v1\",\"kind\":\"TokenRequest\","
                        + "\"spec\":{\"expirationSeconds\":3600}}")
                .getBytes(StandardCharsets.UTF_8);
        URI uri = URI.create(admin.transport().server() + "/api/v1/namespaces/" + namespace() + "/serviceaccounts/"
                + account + "/token");
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

    /** The status code of a plain HTTP GET of {@code path} on {@code server}. */
    public static int get(URI server, String path) throws IOException, InterruptedException {
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

    /** Kills every replica still running and waits for it to end. */
    @Override
    public void close() {
        for (Process p : processes) {
            p.destroyForcibly();
            try {
                p.waitFor(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
