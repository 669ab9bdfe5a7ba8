package io.kubeloop.apiserver.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.kubeloop.api.GroupVersionKind;
import io.kubeloop.api.json.KubeJson;
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
import tools.jackson.databind.node.ObjectNode;

/**
 * The real kubectl reads kubeloop's OpenAPI v3 documents: {@code explain} walks them, {@code create}
 * finds the PATCH operation's {@code fieldValidation} parameter and sends {@code fieldValidation=Strict},
 * client-side {@code apply} picks strategic merge for built-ins and merge patch for custom resources.
 * The server is a plain-HTTP fake with discovery and the documents under test. Skipped when no
 * kubectl binary is installed.
 */
class KubectlOpenApiTest {

    private static final Path SDK_BIN = Path.of("/usr/lib/google-cloud-sdk/bin");
    private static final GroupVersionKind FOO = new GroupVersionKind("samplecontroller.k8s.io", "v1alpha1", "Foo");

    @TempDir
    Path work;

    private FakeApiServer server;
    private Path kubeconfig;

    /**
     * kubectl 1.29 (the oldest that needs only v3: 1.27 and 1.28 fetch protobuf {@code /openapi/v2}
     * first, see {@link #kubectl128FetchesProtobufOpenApiV2BeforeV3}) and 1.33 if present, else the one
     * on PATH, else "" (skip).
     */
    static Stream<String> kubectls() {
        List<String> found = new ArrayList<>();
        for (String v : new String[] {"1.29", "1.33"}) {
            Path p = SDK_BIN.resolve("kubectl." + v);
            if (Files.isExecutable(p)) {
                found.add(p.toString());
            }
        }
        if (found.isEmpty()) {
            for (String dir : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
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
                ServedKind.builtin(new GroupVersionKind("apps", "v1", "Deployment"), "deployments", true,
                        List.of("status", "scale")),
                ServedKind.custom(FOO, "foos", true, foo, List.of("status")));
    }

    @BeforeEach
    void start() throws IOException {
        server = new FakeApiServer(servedKinds());
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
    void explainShowsABuiltinFieldFromTheV3Document(String kubectl) throws Exception {
        assumeTrue(!kubectl.isEmpty(), "kubectl is not installed: skipping the kubectl OpenAPI test");
        String out = run(kubectl, "explain", "deployments.spec.replicas");
        assertThat(out).contains("KIND:", "Deployment", "FIELD:", "replicas <integer>");
        assertThat(server.describe()).contains("GET /openapi/v3/apis/apps/v1");
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
        FakeApiServer.Request post = server.requests().stream().filter(r -> r.method().equals("POST")).findFirst()
                .orElseThrow(() -> new AssertionError("no POST; requests:\n" + server.describe()));
        assertThat(post.path()).isEqualTo("/api/v1/namespaces/default/configmaps");
        assertThat(post.query()).contains("fieldValidation=Strict", "dryRun=All");
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
        assertThat(server.requests()).filteredOn(r -> r.method().equals("POST"))
                .extracting(FakeApiServer.Request::query).anySatisfy(q -> assertThat(q).contains("fieldValidation=Strict"));
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
        live.withObject("metadata").put("uid", "u1").put("resourceVersion", "5")
                .putObject("annotations").put("kubectl.kubernetes.io/last-applied-configuration", applied);
        server.put("/apis/apps/v1/namespaces/default/deployments/web", live);
        Path file = work.resolve("deploy.yaml");
        Files.writeString(file, applied.replace("nginx:1", "nginx:2"));
        run(kubectl, "apply", "-f", file.toString());
        FakeApiServer.Request patch = server.requests().stream().filter(r -> r.method().equals("PATCH")).findFirst()
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
        live.withObject("metadata").put("uid", "u2").put("resourceVersion", "7")
                .putObject("annotations").put("kubectl.kubernetes.io/last-applied-configuration", applied);
        server.put("/apis/samplecontroller.k8s.io/v1alpha1/namespaces/default/foos/f", live);
        Path file = work.resolve("foo.yaml");
        Files.writeString(file, applied.replace("\"replicas\":1", "\"replicas\":2"));
        run(kubectl, "apply", "-f", file.toString());
        FakeApiServer.Request patch = server.requests().stream().filter(r -> r.method().equals("PATCH")).findFirst()
                .orElseThrow(() -> new AssertionError("no PATCH; requests:\n" + server.describe()));
        assertThat(patch.contentType()).isEqualTo("application/merge-patch+json");
    }

    @org.junit.jupiter.api.Test
    void kubectl128FetchesProtobufOpenApiV2BeforeV3() throws Exception {
        Path kubectl = SDK_BIN.resolve("kubectl.1.28");
        assumeTrue(Files.isExecutable(kubectl), "kubectl 1.28 is not installed: skipping");
        List<String> cmd = List.of(kubectl.toString(), "--kubeconfig", kubeconfig.toString(), "--cache-dir",
                work.resolve("cache").toString(), "explain", "deployments.spec.replicas");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        // without a protobuf /openapi/v2 the command fails before it ever asks /openapi/v3
        assertThat(p.exitValue()).isNotZero();
        assertThat(server.requests().getFirst().path()).isEqualTo("/openapi/v2");
    }

    private String run(String kubectl, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(kubectl, "--kubeconfig", kubeconfig.toString(),
                "--cache-dir", work.resolve("cache").toString()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("kubectl finished").isTrue();
        assertThat(p.exitValue()).as("kubectl %s exit code; output:%n%s%nrequests:%n%s", String.join(" ", args), out,
                server.describe()).isZero();
        return out;
    }
}
