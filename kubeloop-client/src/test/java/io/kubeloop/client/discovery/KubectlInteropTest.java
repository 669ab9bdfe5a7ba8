package io.kubeloop.client.discovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

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

/**
 * kubeloop and the real kubectl share one discovery cache: each reads what the other wrote without
 * asking the server. Skipped when no kubectl binary is installed.
 */
class KubectlInteropTest {

    private static final Path SDK_BIN = Path.of("/usr/lib/google-cloud-sdk/bin");

    @TempDir
    Path work;

    private FakeDiscoveryServer server;
    private JdkHttpTransport transport;
    private Path kubeconfig;
    private Path cacheDir;

    /** Versioned kubectl binaries if present (oldest, current, newest), else the one on PATH. */
    static Stream<String> kubectls() {
        List<String> found = new ArrayList<>();
        for (String v : new String[] {"1.27", "1.32", "1.33"}) {
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
        if (found.isEmpty()) {
            found.add("");
        }
        return found.stream();
    }

    @BeforeEach
    void start() throws IOException {
        server = FakeDiscoveryServer.aggregated();
        transport = new JdkHttpTransport(server.uri());
        cacheDir = work.resolve("cache");
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
        transport.close();
        server.close();
    }

    @ParameterizedTest
    @MethodSource("kubectls")
    void kubectlUsesTheCacheKubeloopWrote(String kubectl) throws Exception {
        assumeTrue(!kubectl.isEmpty(), "kubectl is not installed: skipping the kubectl cache interoperability test");
        CachedDiscoveryClient.forServer(new HttpDiscoveryClient(transport), cacheDir, server.url())
                .serverGroupsAndResources();
        server.clearRequests();

        String resources = run(kubectl, "api-resources", "--cached", "-o", "name");
        // (kubectl itself refetches for "foos.samplecontroller.k8s.io": it first reads it as
        // resource.version.group with version "samplecontroller", misses, and invalidates)
        String foos = run(kubectl, "get", "foo.v1alpha1.samplecontroller.k8s.io", "-o", "name");
        String deploy = run(kubectl, "get", "deploy", "-o", "name");

        assertThat(resources.lines())
                .contains(
                        "pods",
                        "deployments.apps",
                        "horizontalpodautoscalers.autoscaling",
                        "foos.samplecontroller.k8s.io",
                        "customresourcedefinitions.apiextensions.k8s.io");
        assertThat(foos + deploy).doesNotContain("error");
        assertThat(server.discoveryPaths())
                .as("discovery requests kubectl made")
                .isEmpty();
        assertThat(server.requests())
                .extracting(FakeDiscoveryServer.Request::path)
                .contains(
                        "/apis/samplecontroller.k8s.io/v1alpha1/namespaces/default/foos",
                        "/apis/apps/v1/namespaces/default/deployments");
    }

    @ParameterizedTest
    @MethodSource("kubectls")
    void kubeloopUsesTheCacheKubectlWrote(String kubectl) throws Exception {
        assumeTrue(!kubectl.isEmpty(), "kubectl is not installed: skipping the kubectl cache interoperability test");
        run(kubectl, "api-resources");
        assertThat(server.discoveryPaths()).contains("/api", "/apis");
        server.clearRequests();

        CachedDiscoveryClient cached =
                CachedDiscoveryClient.forServer(new HttpDiscoveryClient(transport), cacheDir, server.url());
        ServerResources fromKubectlsFiles = cached.serverGroupsAndResources();
        RestMapping foo = new DiscoveryRestMapper(cached).resolve("foo");

        assertThat(server.requests()).as("requests kubeloop made").isEmpty();
        ServerResources live = new HttpDiscoveryClient(transport).serverGroupsAndResources();
        assertThat(fromKubectlsFiles.groups()).isEqualTo(live.groups());
        assertThat(HttpDiscoveryClientTest.withoutSubresourceSingulars(fromKubectlsFiles))
                .isEqualTo(HttpDiscoveryClientTest.withoutSubresourceSingulars(live));
        assertThat(foo.groupVersionResource().format()).isEqualTo("foos.v1alpha1.samplecontroller.k8s.io");
    }

    private String run(String kubectl, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(
                kubectl,
                "--kubeconfig",
                kubeconfig.toString(),
                "--cache-dir",
                cacheDir.toString(),
                "--request-timeout",
                "10s"));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().remove("KUBECONFIG");
        pb.environment().put("HOME", work.toString());
        Process p = pb.start();
        byte[] out = p.getInputStream().readAllBytes();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String text = new String(out, StandardCharsets.UTF_8);
        assertThat(p.exitValue())
                .as("exit code of %s, output:%n%s", command, text)
                .isZero();
        return text;
    }
}
