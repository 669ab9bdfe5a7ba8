package io.kubeloop.apiserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A Deployment's whole life through real kubectl, as on a cluster: {@code rollout status} and {@code wait
 * --for=condition=Available} succeed on a fresh server; {@code set image} rolls to revision 2 with its
 * change-cause in {@code rollout history}; {@code rollout undo} brings revision 1's template back as
 * revision 3; {@code rollout pause} holds a template change until {@code rollout resume}; {@code rollout
 * restart} rolls new Pods; {@code scale} gives Running, ready Pods on the simulated Node with Pod IPs. Run with
 * kubectl 1.27, 1.33 and the one on PATH (those installed; skipped without any).
 */
class KubectlRolloutTest extends KubectlAgainstServer {

    static Stream<Path> kubectls() {
        return Kubectl.choose("1.27", "1.33", "PATH");
    }

    @ParameterizedTest(name = "kubectl {0}")
    @MethodSource("kubectls")
    void aDeploymentRollsOutRollsBackPausesRestartsAndScalesAsOnACluster(Path binary) {
        Kubectl k = Kubectl.at(binary, kubeconfig, dir);
        String version = k.version();
        String ns = "rollout-" + version.replace(".", "-").toLowerCase(Locale.ROOT);
        k.ok("create", "namespace", ns);

        k.ok("-n", ns, "create", "deployment", "web", "--image=nginx:1.26", "--replicas=2");
        assertThat(k.ok("-n", ns, "rollout", "status", "deployment/web", "--timeout=60s"))
                .contains("deployment \"web\" successfully rolled out");
        assertThat(k.ok("-n", ns, "wait", "--for=condition=Available", "deployment/web", "--timeout=60s"))
                .contains("deployment.apps/web condition met");

        assertThat(k.ok("-n", ns, "describe", "deployment", "web"))
                .containsPattern("ScalingReplicaSet\\s.*Scaled up replica set web-\\w+ from 0 to 2");
        k.ok("-n", ns, "set", "image", "deployment/web", "nginx=nginx:1.27");
        k.ok("-n", ns, "annotate", "deployment/web", "kubernetes.io/change-cause=move to 1.27");
        assertThat(k.ok("-n", ns, "rollout", "status", "deployment/web", "--timeout=60s"))
                .contains("successfully rolled out");
        await().atMost(Duration.ofSeconds(20))
                .untilAsserted(() -> assertThat(k.ok("-n", ns, "rollout", "history", "deployment/web"))
                        .containsPattern("(?m)^1\\s+<none>")
                        .containsPattern("(?m)^2\\s+move to 1.27"));
        assertThat(k.ok("-n", ns, "rollout", "history", "deployment/web", "--revision=1"))
                .contains("nginx:1.26");

        assertThat(k.ok("-n", ns, "rollout", "undo", "deployment/web")).contains("rolled back");
        k.ok("-n", ns, "rollout", "status", "deployment/web", "--timeout=60s");
        assertThat(image(k, ns)).isEqualTo("nginx:1.26");
        await().atMost(Duration.ofSeconds(20))
                .untilAsserted(() -> assertThat(k.ok(
                                "-n",
                                ns,
                                "get",
                                "deployment",
                                "web",
                                "-o",
                                "jsonpath={.metadata.annotations.deployment\\.kubernetes\\.io/revision}"))
                        .isEqualTo("3"));
        assertThat(k.ok("-n", ns, "rollout", "history", "deployment/web"))
                .doesNotContainPattern("(?m)^1\\s")
                .containsPattern("(?m)^3\\s");

        k.ok("-n", ns, "rollout", "pause", "deployment/web");
        k.ok("-n", ns, "set", "image", "deployment/web", "nginx=nginx:1.28");
        assertThat(k.ok("-n", ns, "get", "replicasets", "-o", "name").lines().count())
                .as("a paused Deployment makes no ReplicaSet")
                .isEqualTo(2);
        k.ok("-n", ns, "rollout", "resume", "deployment/web");
        k.ok("-n", ns, "rollout", "status", "deployment/web", "--timeout=60s");
        await().atMost(Duration.ofSeconds(20))
                .untilAsserted(() -> assertThat(
                                k.ok("-n", ns, "get", "pods", "-o", "jsonpath={.items[*].spec.containers[0].image}"))
                        .isEqualTo("nginx:1.28 nginx:1.28"));

        String before = k.ok("-n", ns, "get", "pods", "-o", "jsonpath={.items[*].metadata.name}");
        k.ok("-n", ns, "rollout", "restart", "deployment/web");
        k.ok("-n", ns, "rollout", "status", "deployment/web", "--timeout=60s");
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            String after = k.ok("-n", ns, "get", "pods", "-o", "jsonpath={.items[*].metadata.name}");
            assertThat(after.split(" ")).hasSize(2).doesNotContainAnyElementsOf(List.of(before.split(" ")));
        });

        k.ok("-n", ns, "scale", "deployment/web", "--replicas=3");
        k.ok("-n", ns, "rollout", "status", "deployment/web", "--timeout=60s");
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            String pods = k.ok("-n", ns, "get", "pods", "-o", "wide", "--no-headers");
            assertThat(pods.lines().toList())
                    .hasSize(3)
                    .allSatisfy(line -> assertThat(line)
                            .containsPattern("1/1\\s+Running\\s+0")
                            .contains("10.244.0.")
                            .contains("kubeloop-node-1"));
        });
        assertThat(k.ok("-n", ns, "get", "deployment", "web", "--no-headers")).containsPattern("web\\s+3/3\\s+3\\s+3");
    }

    private static String image(Kubectl k, String ns) {
        return k.ok("-n", ns, "get", "deployment", "web", "-o", "jsonpath={.spec.template.spec.containers[0].image}");
    }

    @ParameterizedTest(name = "kubectl {0}")
    @MethodSource("kubectls")
    void aCreatedJobCompletesAndKubectlWaitSeesIt(Path binary) {
        assumeTrue(Files.isExecutable(binary), "no kubectl installed: skipped");
        String version = Kubectl.versionOf(binary);
        Kubectl k = new Kubectl(binary, version, kubeconfig, dir.resolve("cache-job-" + version));
        String ns = "job-" + version.replace(".", "-").toLowerCase(Locale.ROOT);
        k.ok("create", "namespace", ns);

        k.ok("-n", ns, "create", "job", "hello", "--image=busybox", "--", "echo", "hello");
        assertThat(k.ok("-n", ns, "wait", "--for=condition=complete", "job/hello", "--timeout=60s"))
                .contains("job.batch/hello condition met");
        assertThat(k.ok("-n", ns, "get", "job", "hello", "--no-headers")).containsPattern("hello\\s+Complete\\s+1/1");
        assertThat(k.ok("-n", ns, "get", "pods", "--no-headers"))
                .containsPattern("hello-\\S+\\s+0/1\\s+Completed\\s+0");
    }
}
