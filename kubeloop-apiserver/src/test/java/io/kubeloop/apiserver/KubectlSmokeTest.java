package io.kubeloop.apiserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.kubeloop.apiserver.junit.EmbeddedApiServerTest;
import io.kubeloop.client.KubeClient;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real kubectl against the embedded server with default settings ({@code create -f} validates through
 * {@code /openapi/v3}). Skipped when kubectl is not on PATH.
 */
@EmbeddedApiServerTest
class KubectlSmokeTest {

    @TempDir
    static Path dir;
    static Path kubeconfig;

    @BeforeAll
    static void setUp(EmbeddedApiServer server) {
        assumeTrue(kubectlAvailable(), "kubectl is not on PATH: kubectl smoke test skipped");
        kubeconfig = server.writeKubeconfig(dir.resolve("kubeconfig"));
    }

    private static boolean kubectlAvailable() {
        try {
            return new ProcessBuilder("kubectl", "version", "--client").redirectErrorStream(true).start()
                    .waitFor(20, TimeUnit.SECONDS);
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    private record Result(int code, String out) {
    }

    private static Result kubectl(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("kubectl", "--kubeconfig", kubeconfig.toString(), "--cache-dir",
                dir.resolve("cache").toString()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).as("kubectl %s finished", String.join(" ", args)).isTrue();
        return new Result(p.exitValue(), new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
    }

    @Test
    void apiResourcesListsBuiltIns() throws Exception {
        Result r = kubectl("api-resources");
        assertThat(r.code()).as(r.out()).isZero();
        assertThat(r.out()).contains("configmaps", "deployments", "customresourcedefinitions");
    }

    @Test
    void getRawApi() throws Exception {
        Result r = kubectl("get", "--raw", "/api");
        assertThat(r.code()).as(r.out()).isZero();
        assertThat(r.out()).contains("APIVersions");
    }

    @Test
    void createGetTableJsonWatchAndDeleteAConfigMap(KubeClient client) throws Exception {
        Path cm = dir.resolve("cm.yaml");
        Files.writeString(cm, "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: smoke\ndata:\n  a: b\n");
        Result created = kubectl("create", "-f", cm.toString());
        assertThat(created.code()).as(created.out()).isZero();
        assertThat(created.out()).contains("configmap/smoke created");

        Result json = kubectl("get", "configmap", "smoke", "-o", "json");
        assertThat(json.out()).contains("\"name\": \"smoke\"", "\"a\": \"b\"");

        Result table = kubectl("get", "configmaps");
        assertThat(table.code()).as(table.out()).isZero();
        assertThat(table.out()).contains("NAME", "DATA", "AGE", "smoke");

        List<String> cmd = List.of("kubectl", "--kubeconfig", kubeconfig.toString(), "--cache-dir",
                dir.resolve("cache").toString(), "get", "configmaps", "-w", "--request-timeout=0");
        Process watch = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        try {
            var reader = new java.io.BufferedReader(new java.io.InputStreamReader(watch.getInputStream(),
                    StandardCharsets.UTF_8));
            String line;
            do {
                line = reader.readLine();
            } while (line != null && !line.startsWith("smoke"));
            // (kubectl create configmap NAME sends a protobuf body, which this JSON-only server answers with 415)
            Path watched = dir.resolve("watched.yaml");
            Files.writeString(watched, "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: watched\n");
            Result other = kubectl("create", "-f", watched.toString());
            assertThat(other.code()).as(other.out()).isZero();
            do {
                line = reader.readLine();
            } while (line != null && !line.startsWith("watched"));
            assertThat(line).startsWith("watched");
        } finally {
            watch.destroy();
        }

        Result deleted = kubectl("delete", "configmap", "smoke");
        assertThat(deleted.code()).as(deleted.out()).isZero();
        assertThat(deleted.out()).contains("configmap \"smoke\" deleted");
    }
}
