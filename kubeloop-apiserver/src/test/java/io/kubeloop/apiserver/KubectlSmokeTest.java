package io.kubeloop.apiserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.kubeloop.client.KubeClient;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real kubectl against the embedded server with default settings ({@code create -f} validates through
 * {@code /openapi/v3}). Skipped when kubectl is not on PATH.
 */
class KubectlSmokeTest {

    /** The server these tests share: started before the first, closed after the last. */
    @AutoClose
    private static EmbeddedApiServer shared;

    @TempDir
    static Path dir;

    static Kubectl runner;

    @BeforeAll
    static void setUp() {
        EmbeddedApiServer server = shared = EmbeddedApiServer.start(ServerOptions.defaults());
        Path binary = Kubectl.onPath().orElse(null);
        assumeTrue(binary != null, "kubectl is not on PATH: kubectl smoke test skipped");
        runner = new Kubectl(binary, "PATH", server.writeKubeconfig(dir.resolve("kubeconfig")), dir.resolve("cache"));
    }

    private static Kubectl.Result kubectl(String... args) {
        return runner.run(args);
    }

    @Test
    void apiResourcesListsBuiltIns() throws Exception {
        Kubectl.Result r = kubectl("api-resources");
        assertThat(r.code()).as(r.out()).isZero();
        assertThat(r.out()).contains("configmaps", "deployments", "customresourcedefinitions");
    }

    @Test
    void getRawApi() throws Exception {
        Kubectl.Result r = kubectl("get", "--raw", "/api");
        assertThat(r.code()).as(r.out()).isZero();
        assertThat(r.out()).contains("APIVersions");
    }

    @Test
    void createGetTableJsonWatchAndDeleteAConfigMap() throws Exception {
        KubeClient client = shared.client();
        Path cm = dir.resolve("cm.yaml");
        Files.writeString(cm, "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: smoke\ndata:\n  a: b\n");
        Kubectl.Result created = kubectl("create", "-f", cm.toString());
        assertThat(created.code()).as(created.out()).isZero();
        assertThat(created.out()).contains("configmap/smoke created");

        Kubectl.Result json = kubectl("get", "configmap", "smoke", "-o", "json");
        assertThat(json.out()).contains("\"name\": \"smoke\"", "\"a\": \"b\"");

        Kubectl.Result table = kubectl("get", "configmaps");
        assertThat(table.code()).as(table.out()).isZero();
        assertThat(table.out()).contains("NAME", "DATA", "AGE", "smoke");

        List<String> cmd = List.of(
                "kubectl",
                "--kubeconfig",
                runner.kubeconfig().toString(),
                "--cache-dir",
                dir.resolve("cache").toString(),
                "get",
                "configmaps",
                "-w",
                "--request-timeout=0");
        Process watch = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        try {
            var reader = new BufferedReader(new InputStreamReader(watch.getInputStream(), StandardCharsets.UTF_8));
            String line;
            do {
                line = reader.readLine();
            } while (line != null && !line.startsWith("smoke"));
            Path watched = dir.resolve("watched.yaml");
            Files.writeString(watched, "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: watched\n");
            Kubectl.Result other = kubectl("create", "-f", watched.toString());
            assertThat(other.code()).as(other.out()).isZero();
            do {
                line = reader.readLine();
            } while (line != null && !line.startsWith("watched"));
            assertThat(line).startsWith("watched");
        } finally {
            watch.destroy();
        }

        Kubectl.Result deleted = kubectl("delete", "configmap", "smoke");
        assertThat(deleted.code()).as(deleted.out()).isZero();
        assertThat(deleted.out()).contains("configmap \"smoke\" deleted");
    }
}
