package io.kubeloop.apiserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kubeloop.apiserver.internal.schema.KubernetesRelease;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Node maintenance and Pod logs through real kubectl on a two-Node simulated cluster: {@code kubectl drain}
 * cordons a Node and evicts its Pods through the eviction subresource (their ReplicaSet recreates them on the
 * other Node), a PodDisruptionBudget's status shows its allowed disruptions, one that would be violated makes the eviction a 429 with kube-apiserver's
 * message, and {@code kubectl logs} reads a running container's (empty) log. Run with kubectl 1.27 and the one
 * on PATH (those installed).
 */
class KubectlDrainTest {

    @TempDir
    static Path dir;

    static EmbeddedApiServer server;
    static Path kubeconfig;

    @BeforeAll
    static void start() {
        server = EmbeddedApiServer.start(
                ServerOptions.defaults().withCluster(SimulatedCluster.defaults().withNodes(2)));
        kubeconfig = server.writeKubeconfig(dir.resolve("kubeconfig"));
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    static Stream<Path> kubectls() {
        return Kubectl.choose("1.27", "PATH");
    }

    @ParameterizedTest(name = "kubectl {0}")
    @MethodSource("kubectls")
    void drainEvictsWithinDisruptionBudgetsAndLogsAreReadable(Path binary) throws IOException {
        Kubectl k = Kubectl.at(binary, kubeconfig, dir);
        String version = k.version();
        String ns = "drain-" + version.replace(".", "-").toLowerCase(Locale.ROOT);
        k.ok("create", "namespace", ns);
        k.ok("-n", ns, "create", "deployment", "web", "--image=nginx", "--replicas=2");
        k.ok("-n", ns, "rollout", "status", "deployment/web", "--timeout=60s");
        assertThat(k.ok("-n", ns, "get", "pods", "-o", "jsonpath={.items[*].spec.nodeName}"))
                .contains("kubeloop-node-1")
                .contains("kubeloop-node-2");
        k.ok("-n", ns, "logs", "deployment/web");

        Path pdb = Files.writeString(dir.resolve("pdb-" + version + ".yaml"), """
                apiVersion: policy/v1
                kind: PodDisruptionBudget
                metadata: {name: web}
                spec:
                  minAvailable: 1
                  selector: {matchLabels: {app: web}}
                """);
        k.ok("-n", ns, "apply", "-f", pdb.toString());
        await().atMost(Duration.ofSeconds(20))
                .untilAsserted(() -> assertThat(k.ok("-n", ns, "get", "pdb", "web", "--no-headers"))
                        .as("the disruption controller's status: one disruption allowed")
                        .containsPattern("web\\s+1\\s+N/A\\s+1\\s"));
        assertThat(k.ok("get", "nodes", "-o", "wide", "--no-headers"))
                .containsPattern("kubeloop-node-1\\s+Ready\\s+<none>\\s+\\S+\\s+"
                        + Pattern.quote(KubernetesRelease.tag()) + "\\s+172.18.0.2\\s+<none>\\s+"
                        + "kubeloop simulated node\\s+6.1.0-kubeloop\\s+kubeloop://simulated");
        String drained =
                k.ok("drain", "kubeloop-node-1", "--ignore-daemonsets", "--pod-selector=app=web", "--timeout=60s");
        assertThat(drained).contains("node/kubeloop-node-1 cordoned").contains("evicting pod " + ns + "/web-");
        assertThat(k.ok("get", "node", "kubeloop-node-1", "--no-headers"))
                .containsPattern("kubeloop-node-1\\s+Ready,SchedulingDisabled\\s");
        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> assertThat(k.ok(
                                "-n",
                                ns,
                                "get",
                                "pods",
                                "--field-selector=status.phase=Running",
                                "-o",
                                "jsonpath={.items[*].spec.nodeName}"))
                        .isEqualTo("kubeloop-node-2 kubeloop-node-2"));

        k.ok("-n", ns, "patch", "pdb", "web", "--type=merge", "-p", "{\"spec\":{\"minAvailable\":2}}");
        Kubectl.Result refused =
                k.run("drain", "kubeloop-node-2", "--ignore-daemonsets", "--pod-selector=app=web", "--timeout=3s");
        assertThat(refused.code()).isNotZero();
        assertThat(refused.out()).contains("Cannot evict pod as it would violate the pod's disruption budget.");
        k.ok("uncordon", "kubeloop-node-1");
        k.ok("uncordon", "kubeloop-node-2");
        k.ok("-n", ns, "delete", "pdb", "web");
    }
}
