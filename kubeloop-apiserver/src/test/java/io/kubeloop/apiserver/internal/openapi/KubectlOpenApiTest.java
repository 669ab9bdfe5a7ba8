package io.kubeloop.apiserver.internal.openapi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.kubeloop.api.GroupVersionKind;
import io.kubeloop.api.json.KubeJson;
import io.kubeloop.apiserver.internal.schema.ServedKind;
import io.kubeloop.apiserver.internal.schema.StructuralSchema;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.node.ObjectNode;

/**
 * The real kubectl reads kubeloop's OpenAPI documents: {@code explain} walks them, {@code create}
 * finds the PATCH operation's {@code fieldValidation} parameter and sends {@code fieldValidation=Strict},
 * client-side {@code apply} picks strategic merge for built-ins and merge patch for custom resources.
 * kubectl 1.29 and later read {@code /openapi/v3}; 1.27 and 1.28 first fetch the protobuf
 * {@code /openapi/v2} and fail without it. {@link KubectlOpenApiV2OnlyTest} runs the same checks
 * against a server without v3, so every version works from the protobuf v2 alone. The server is a
 * plain-HTTP fake with discovery and the documents under test. Skipped when no kubectl binary is
 * installed.
 */
class KubectlOpenApiTest {

    static final Path SDK_BIN = Path.of("/usr/lib/google-cloud-sdk/bin");
    private static final GroupVersionKind FOO = new GroupVersionKind("samplecontroller.k8s.io", "v1alpha1", "Foo");

    @TempDir
    Path work;

    private FakeApiServer server;
    private Path kubeconfig;

    /**
     * kubectl 1.27 and 1.28 (which fetch the protobuf {@code /openapi/v2} first), 1.29 (the oldest
     * that needs only v3) and 1.33, those present, else the one on PATH, else "" (skip).
     */
    static Stream<String> kubectls() {
        List<String> found = new ArrayList<>();
        for (String v : new String[] {"1.27", "1.28", "1.29", "1.33"}) {
            Path p = SDK_BIN.resolve("kubectl." + v);
            if (Files.isExecutable(p)) {
                found.add(p.toString());
            }
        }
        if (found.isEmpty()) {
            for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
                if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, "kubectl"))) {
                    found.add(Path.of(dir, "kubectl").toString());
                    break;
                }
            }
        }
        return found.isEmpty() ? Stream.of("") : found.stream();
    }

    static List<ServedKind> servedKinds() {
        StructuralSchema foo = StructuralSchema.of(KubeJson.mapper().readTree("""
                {"type":"object","properties":{"spec":{"type":"object","description":"Spec of the Foo.",
                  "properties":{"deploymentName":{"type":"string"},"replicas":{"type":"integer","minimum":1,
                  "description":"How many replicas the Foo's Deployment runs."}}},
                 "status":{"type":"object","properties":{"availableReplicas":{"type":"integer"}}}}}"""));
        return List.of(
                ServedKind.builtin(new GroupVersionKind("", "v1", "ConfigMap"), "configmaps", true, List.of()),
                ServedKind.builtin(new GroupVersionKind("", "v1", "Namespace"), "namespaces", false, List.of("status")),
                ServedKind.builtin(
                        new GroupVersionKind("apps", "v1", "Deployment"),
                        "deployments",
                        true,
                        List.of("status", "scale")),
                ServedKind.custom(FOO, "foos", true, foo, List.of("status")));
    }

    /** Whether the fake server serves {@code /openapi/v3}; without it kubectl must use the protobuf v2. */
    boolean serveV3() {
        return true;
    }

    @BeforeEach
    void start() throws IOException {
        server = new FakeApiServer(servedKinds(), serveV3());
        kubeconfig = work.resolve("kubeconfig");
        Files.writeString(kubeconfig, """
                apiVersion: v1
                kind: Config
                clusters:
                - name: fake
                  cluster:
                    server: %s
                users:
                - name: nobody
                  user: {}
                contexts:
                - name: fake
                  context:
                    cluster: fake
                    user: nobody
                    namespace: default
                current-context: fake
                """.formatted(server.url()));
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @ParameterizedTest
    @MethodSource("kubectls")
    void explainShowsABuiltinField(String kubectl) throws Exception {
        assumeTrue(!kubectl.isEmpty(), "kubectl is not installed: skipping the kubectl OpenAPI test");
        String out = run(kubectl, "explain", "deployments.spec.replicas");
        assertThat(out).contains("KIND:", "Deployment", "FIELD:", "replicas <integer>");
        assertThat(server.describe()).contains(serveV3() ? "GET /openapi/v3/apis/apps/v1" : "GET /openapi/v2");
    }

    /**
     * Built-in fields carry Kubernetes' own descriptions, including the one written beside a reference
     * ({@code strategy} is a DeploymentStrategy, described at the field).
     */
    @ParameterizedTest
    @MethodSource("kubectls")
    void explainShowsUpstreamDescriptionsOfBuiltinFields(String kubectl) throws Exception {
        assumeTrue(!kubectl.isEmpty(), "kubectl is not installed: skipping the kubectl OpenAPI test");
        assertThat(run(kubectl, "explain", "deployments.spec.replicas")).contains("Number of desired pods.");
        assertThat(run(kubectl, "explain", "deployments.spec.strategy"))
                .contains("The deployment strategy to use to replace existing pods with new ones.");
    }

    @ParameterizedTest
    @MethodSource("kubectls")
    void explainRendersFromTheProtobufV2DocumentWhenAskedTo(String kubectl) throws Exception {
        assumeTrue(!kubectl.isEmpty(), "kubectl is not installed: skipping the kubectl OpenAPI test");
        String out = run(kubectl, "explain", "foos.spec", "--output=plaintext-openapiv2");
        assertThat(out)
                .contains(
                        "KIND:",
                        "Foo",
                        "RESOURCE: spec <Object>",
                        "Spec of the Foo.",
                        "replicas\t<integer>",
                        "How many replicas the Foo's Deployment runs.");
        FakeApiServer.Request v2 = server.requests().stream()
                .filter(r -> r.path().equals("/openapi/v2"))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no GET /openapi/v2; requests:\n" + server.describe()));
        assertThat(v2.accept()).isEqualTo(OpenApiV2.PROTOBUF_DEPRECATED);
    }

    @ParameterizedTest
    @MethodSource("kubectls")
    void explainShowsACustomResourceFieldWithItsDescription(String kubectl) throws Exception {
        assumeTrue(!kubectl.isEmpty(), "kubectl is not installed: skipping the kubectl OpenAPI test");
        String out = run(kubectl, "explain", "foos.spec.replicas");
        assertThat(out).contains("Foo", "replicas <integer>", "How many replicas the Foo's Deployment runs.");
    }

    @ParameterizedTest
    @MethodSource("kubectls")
    void createSendsStrictFieldValidation(String kubectl) throws Exception {
        assumeTrue(!kubectl.isEmpty(), "kubectl is not installed: skipping the kubectl OpenAPI test");
        Path cm = work.resolve("cm.yaml");
        Files.writeString(cm, """
                apiVersion: v1
                kind: ConfigMap
                metadata:
                  name: settings
                data:
                  a: b
                """);
        String out = run(kubectl, "create", "-f", cm.toString(), "--dry-run=server", "-o", "json");
        assertThat(out).contains("\"name\": \"settings\"");
        FakeApiServer.Request post = server.requests().stream()
                .filter(r -> r.method().equals("POST"))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no POST; requests:\n" + server.describe()));
        assertThat(post.path()).isEqualTo("/api/v1/namespaces/default/configmaps");
        assertThat(post.query()).contains("fieldValidation=Strict", "dryRun=All");
    }

    @ParameterizedTest
    @MethodSource("kubectls")
    void createOfADeploymentSendsStrictFieldValidation(String kubectl) throws Exception {
        assumeTrue(!kubectl.isEmpty(), "kubectl is not installed: skipping the kubectl OpenAPI test");
        Path deploy = work.resolve("deploy.yaml");
        Files.writeString(deploy, """
                apiVersion: apps/v1
                kind: Deployment
                metadata:
                  name: web
                spec:
                  replicas: 2
                  selector:
                    matchLabels: {app: web}
                  template:
                    metadata:
                      labels: {app: web}
                    spec:
                      containers:
                      - name: web
                        image: nginx:1
                        ports:
                        - containerPort: 80
                """);
        run(kubectl, "create", "-f", deploy.toString());
        FakeApiServer.Request post = server.requests().stream()
                .filter(r -> r.method().equals("POST"))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no POST; requests:\n" + server.describe()));
        assertThat(post.path()).isEqualTo("/apis/apps/v1/namespaces/default/deployments");
        assertThat(post.query()).contains("fieldValidation=Strict");
    }

    @ParameterizedTest
    @MethodSource("kubectls")
    void createOfACustomResourceSendsStrictFieldValidation(String kubectl) throws Exception {
        assumeTrue(!kubectl.isEmpty(), "kubectl is not installed: skipping the kubectl OpenAPI test");
        Path foo = work.resolve("foo.yaml");
        Files.writeString(foo, """
                apiVersion: samplecontroller.k8s.io/v1alpha1
                kind: Foo
                metadata:
                  name: example
                spec:
                  deploymentName: example
                  replicas: 1
                """);
        run(kubectl, "create", "-f", foo.toString());
        assertThat(server.requests())
                .filteredOn(r -> r.method().equals("POST"))
                .extracting(FakeApiServer.Request::query)
                .anySatisfy(q -> assertThat(q).contains("fieldValidation=Strict"));
    }

    @ParameterizedTest
    @MethodSource("kubectls")
    void clientSideApplyOfABuiltinSendsAStrategicMergePatch(String kubectl) throws Exception {
        assumeTrue(!kubectl.isEmpty(), "kubectl is not installed: skipping the kubectl OpenAPI test");
        String applied = """
                {"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","namespace":"default"},
                 "spec":{"replicas":1,"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},
                 "spec":{"containers":[{"name":"web","image":"nginx:1","ports":[{"containerPort":80}]}]}}}}""";
        ObjectNode live = (ObjectNode) KubeJson.mapper().readTree(applied);
        live.withObject("metadata")
                .put("uid", "u1")
                .put("resourceVersion", "5")
                .putObject("annotations")
                .put("kubectl.kubernetes.io/last-applied-configuration", applied);
        server.put("/apis/apps/v1/namespaces/default/deployments/web", live);
        Path file = work.resolve("deploy.yaml");
        Files.writeString(file, applied.replace("nginx:1", "nginx:2"));
        run(kubectl, "apply", "-f", file.toString());
        FakeApiServer.Request patch = server.requests().stream()
                .filter(r -> r.method().equals("PATCH"))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no PATCH; requests:\n" + server.describe()));
        assertThat(patch.contentType()).isEqualTo("application/strategic-merge-patch+json");
        // the merge key from x-kubernetes-patch-merge-key: the container is named, not replaced wholesale
        assertThat(patch.body()).contains("\"name\":\"web\"", "nginx:2");
        assertThat(patch.query()).contains("fieldValidation=Strict");
    }

    @ParameterizedTest
    @MethodSource("kubectls")
    void clientSideApplyOfACustomResourceSendsAMergePatch(String kubectl) throws Exception {
        assumeTrue(!kubectl.isEmpty(), "kubectl is not installed: skipping the kubectl OpenAPI test");
        String applied = """
                {"apiVersion":"samplecontroller.k8s.io/v1alpha1","kind":"Foo","metadata":{"name":"f","namespace":"default"},
                 "spec":{"deploymentName":"f","replicas":1}}""";
        ObjectNode live = (ObjectNode) KubeJson.mapper().readTree(applied);
        live.withObject("metadata")
                .put("uid", "u2")
                .put("resourceVersion", "7")
                .putObject("annotations")
                .put("kubectl.kubernetes.io/last-applied-configuration", applied);
        server.put("/apis/samplecontroller.k8s.io/v1alpha1/namespaces/default/foos/f", live);
        Path file = work.resolve("foo.yaml");
        Files.writeString(file, applied.replace("\"replicas\":1", "\"replicas\":2"));
        run(kubectl, "apply", "-f", file.toString());
        FakeApiServer.Request patch = server.requests().stream()
                .filter(r -> r.method().equals("PATCH"))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no PATCH; requests:\n" + server.describe()));
        assertThat(patch.contentType()).isEqualTo("application/merge-patch+json");
    }

    @ParameterizedTest
    @ValueSource(strings = {"1.27", "1.28"})
    void kubectl127And128FetchTheProtobufOpenApiV2First(String version) throws Exception {
        Path kubectl = SDK_BIN.resolve("kubectl." + version);
        assumeTrue(Files.isExecutable(kubectl), "kubectl " + version + " is not installed: skipping");
        run(kubectl.toString(), "explain", "deployments.spec.replicas");
        FakeApiServer.Request first = server.requests().getFirst();
        assertThat(first.path()).isEqualTo("/openapi/v2");
        assertThat(first.accept()).isEqualTo(OpenApiV2.PROTOBUF_DEPRECATED);
    }

    private String run(String kubectl, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(
                kubectl,
                "--kubeconfig",
                kubeconfig.toString(),
                "--cache-dir",
                work.resolve("cache").toString()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("kubectl finished").isTrue();
        assertThat(p.exitValue())
                .as("kubectl %s exit code; output:%n%s%nrequests:%n%s", String.join(" ", args), out, server.describe())
                .isZero();
        return out;
    }
}
