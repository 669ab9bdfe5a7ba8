package io.kubeloop.apiserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Real kubectl writing to the embedded server with default settings (no {@code --validate=false}): create
 * with the default strict validation on every installed kubectl from 1.29, and with the
 * kubectl on PATH client-side and server-side apply, patch (json, merge, strategic), label, annotate, edit and
 * explain. Skipped when no kubectl is installed.
 */
class KubectlWriteTest {

    /** The server these tests share: started before the first, closed after the last. */
    @AutoClose
    private static EmbeddedApiServer shared;

    @TempDir
    static Path dir;

    static Path kubeconfig;

    @BeforeAll
    static void setUp() {
        EmbeddedApiServer server = shared = EmbeddedApiServer.start(ServerOptions.defaults());
        assumeTrue(!Kubectl.installed().isEmpty(), "no kubectl installed: kubectl write tests skipped");
        kubeconfig = server.writeKubeconfig(dir.resolve("kubeconfig"));
    }

    static Stream<Path> everyKubectl() {
        List<Path> all = Kubectl.installed();
        return all.isEmpty() ? Stream.of(Path.of("kubectl-not-installed")) : all.stream();
    }

    private static Kubectl kubectl(Path binary) {
        String version = Kubectl.versionOf(binary);
        return new Kubectl(binary, version, kubeconfig, dir.resolve("cache-" + version));
    }

    private static Kubectl pathKubectl() {
        Path binary = Kubectl.onPath().orElse(null);
        assumeTrue(binary != null, "no kubectl on PATH: skipped");
        return kubectl(binary);
    }

    private static Path write(String name, String content) throws IOException {
        return Files.writeString(dir.resolve(name), content);
    }

    private static String configMap(String name, String value) {
        return "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: " + name + "\ndata:\n  a: " + value + "\n";
    }

    private static String deployment(String name, int replicas, String image) {
        return """
                apiVersion: apps/v1
                kind: Deployment
                metadata:
                  name: %s
                spec:
                  replicas: %d
                  selector:
                    matchLabels:
                      app: %s
                  template:
                    metadata:
                      labels:
                        app: %s
                    spec:
                      containers:
                      - name: main
                        image: %s
                      - name: sidecar
                        image: busybox:1
                """.formatted(name, replicas, name, name, image);
    }

    @ParameterizedTest(name = "kubectl {0}")
    @MethodSource("everyKubectl")
    void createWithDefaultValidationSendsStrictAndSucceeds(Path binary) throws IOException {
        assumeTrue(Files.isExecutable(binary), "no kubectl installed: skipped");
        Kubectl k = kubectl(binary);
        String name = "strict-" + k.version().replace('.', '-').toLowerCase();
        String out =
                k.ok("create", "-f", write(name + ".yaml", configMap(name, "b")).toString(), "-v=6");
        assertThat(out).contains("configmap/" + name + " created").contains("fieldValidation=Strict");

        Path unknown = write(name + "-bad.yaml", configMap(name + "-bad", "b") + "foo: 1\n");
        Kubectl.Result bad = k.run("create", "-f", unknown.toString());
        assertThat(bad.code()).isNotZero();
        assertThat(bad.out())
                .contains("ConfigMap in version \"v1\" cannot be handled as a ConfigMap: strict decoding "
                        + "error: unknown field \"foo\"");
    }

    @Test
    void clientSideApplyCreatesThenIsUnchangedThenConfigures() throws IOException {
        Kubectl k = pathKubectl();
        Path file = write("csa.yaml", deployment("csa", 1, "nginx:1"));
        assertThat(k.ok("apply", "-f", file.toString())).contains("deployment.apps/csa created");
        assertThat(k.ok("apply", "-f", file.toString())).contains("deployment.apps/csa unchanged");
        write("csa.yaml", deployment("csa", 2, "nginx:2"));
        assertThat(k.ok("apply", "-f", file.toString())).contains("deployment.apps/csa configured");
        String json = k.ok(
                "get",
                "deployment",
                "csa",
                "-o",
                "jsonpath={.spec.replicas} " + "{.spec.template.spec.containers[*].image}");
        assertThat(json).isEqualTo("2 nginx:2 busybox:1");
    }

    @Test
    void serverSideApplyAfterCreateReportsConflictsAndForceConflictsWins() throws IOException {
        Kubectl k = pathKubectl();
        Path file = write("ssa.yaml", configMap("ssa", "one"));
        assertThat(k.ok("create", "-f", file.toString())).contains("configmap/ssa created");
        assertThat(k.ok("apply", "--server-side", "-f", file.toString())).contains("configmap/ssa serverside-applied");

        write("ssa.yaml", configMap("ssa", "two"));
        Kubectl.Result conflict = k.run("apply", "--server-side", "-f", file.toString());
        assertThat(conflict.code()).isNotZero();
        assertThat(conflict.out())
                .contains("Apply failed with 1 conflict: conflict with \"kubectl-create\" using v1: .data.a");

        Kubectl.Result other = k.run(
                "apply",
                "--server-side",
                "--field-manager=other",
                "-f",
                write("ssa3.yaml", configMap("ssa", "three")).toString());
        assertThat(other.code()).isNotZero();
        assertThat(other.out()).contains("conflict");

        assertThat(k.ok("apply", "--server-side", "--force-conflicts", "-f", file.toString()))
                .contains("configmap/ssa serverside-applied");
        assertThat(k.ok("get", "configmap", "ssa", "-o", "jsonpath={.data.a}")).isEqualTo("two");
        String applier = k.ok(
                "get",
                "configmap",
                "ssa",
                "--show-managed-fields",
                "-o",
                "jsonpath={.metadata.managedFields[?(@.manager==\"kubectl\")].fieldsV1}");
        assertThat(applier).contains("\"f:a\"");
        String creator = k.ok(
                "get",
                "configmap",
                "ssa",
                "--show-managed-fields",
                "-o",
                "jsonpath={.metadata.managedFields[?(@.manager==\"kubectl-create\")].fieldsV1}");
        assertThat(creator).doesNotContain("\"f:a\"");
    }

    @Test
    void patchJsonMergeAndStrategic() throws IOException {
        Kubectl k = pathKubectl();
        k.ok(
                "create",
                "-f",
                write("patched.yaml", deployment("patched", 1, "nginx:1")).toString());
        assertThat(k.ok(
                        "patch",
                        "deployment",
                        "patched",
                        "--type",
                        "json",
                        "-p",
                        "[{\"op\":\"replace\",\"path\":\"/spec/replicas\",\"value\":3}]"))
                .contains("deployment.apps/patched patched");
        assertThat(k.ok(
                        "patch",
                        "deployment",
                        "patched",
                        "--type",
                        "merge",
                        "-p",
                        "{\"metadata\":{\"labels\":{\"tier\":\"web\"}}}"))
                .contains("patched");
        assertThat(
                        k.ok(
                                "patch",
                                "deployment",
                                "patched",
                                "-p",
                                "{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"main\",\"image\":\"nginx:9\"}]}}}}"))
                .contains("patched");
        String out = k.ok(
                "get",
                "deployment",
                "patched",
                "-o",
                "jsonpath={.spec.replicas} {.metadata.labels.tier} " + "{.spec.template.spec.containers[*].image}");
        assertThat(out).isEqualTo("3 web nginx:9 busybox:1");
    }

    @Test
    void labelAndAnnotate() throws IOException {
        Kubectl k = pathKubectl();
        k.ok("create", "-f", write("labelled.yaml", configMap("labelled", "x")).toString());
        assertThat(k.ok("label", "configmap", "labelled", "team=blue")).contains("configmap/labelled labeled");
        assertThat(k.ok("annotate", "configmap", "labelled", "note=hello")).contains("configmap/labelled annotated");
        assertThat(k.ok(
                        "get",
                        "configmap",
                        "labelled",
                        "-o",
                        "jsonpath={.metadata.labels.team} {.metadata.annotations.note}"))
                .isEqualTo("blue hello");
    }

    @Test
    void editWithAScriptedEditor() throws IOException {
        Kubectl k = pathKubectl();
        k.ok("create", "-f", write("edited.yaml", configMap("edited", "before")).toString());
        Path editor = write("editor.sh", "#!/bin/sh\nsed -i 's/a: before/a: after/' \"$1\"\n");
        Files.setPosixFilePermissions(editor, PosixFilePermissions.fromString("rwx------"));
        Kubectl.Result r = k.run(
                Map.of("KUBE_EDITOR", editor.toString(), "EDITOR", editor.toString()), "edit", "configmap", "edited");
        assertThat(r.code()).as(r.out()).isZero();
        assertThat(r.out()).contains("configmap/edited edited");
        assertThat(k.ok("get", "configmap", "edited", "-o", "jsonpath={.data.a}"))
                .isEqualTo("after");
    }

    @Test
    void explainReadsTheOpenApiDocuments() {
        Kubectl k = pathKubectl();
        String out = k.ok("explain", "deployment.spec.replicas");
        assertThat(out).contains("KIND:", "Deployment").containsPattern("FIELD:\\s+replicas\\s+<integer>");
    }
}
