package io.kubeloop.apiserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The built-in API beyond workloads through real kubectl: {@code api-resources} lists networking, storage,
 * discovery, autoscaling, scheduling and admission registration; kubectl's generators create an Ingress, a
 * PriorityClass and a ResourceQuota, and an autoscaling/v2 autoscaler is applied, shown with kube-apiserver's columns; a claim is bound by the
 * default StorageClass; a StatefulSet and a DaemonSet roll out and have a history; a Service's Endpoints list its Pods; and
 * {@code explain} describes the new kinds. Run with kubectl 1.27, 1.33 and the one on PATH (those installed).
 */
class KubectlApiSurfaceTest extends KubectlAgainstServer {

    static Stream<Path> kubectls() {
        return Kubectl.choose("1.27", "1.33", "PATH");
    }

    @ParameterizedTest(name = "kubectl {0}")
    @MethodSource("kubectls")
    void theBuiltinApiOperatorsTouchIsServedWithKubectlsGeneratorsAndColumns(Path binary) throws IOException {
        Kubectl k = Kubectl.at(binary, kubeconfig, dir);
        String version = k.version();
        String ns = "surface-" + version.replace(".", "-").toLowerCase(Locale.ROOT);
        k.ok("create", "namespace", ns);

        String resources = k.ok("api-resources", "--no-headers");
        for (String r : List.of(
                "ingresses",
                "networkpolicies",
                "endpointslices",
                "persistentvolumeclaims",
                "storageclasses",
                "horizontalpodautoscalers",
                "priorityclasses",
                "controllerrevisions",
                "validatingwebhookconfigurations",
                "validatingadmissionpolicies")) {
            assertThat(resources).as(r).containsPattern("(?m)^" + r + "\\s");
        }

        k.ok("-n", ns, "create", "ingress", "web", "--rule=shop.example.com/=web:80");
        assertThat(k.ok("-n", ns, "get", "ingress", "web", "--no-headers"))
                .containsPattern("web\\s+<none>\\s+shop.example.com\\s+80");
        k.ok("create", "priorityclass", "high-" + ns, "--value=1000");
        assertThat(k.ok("get", "priorityclass", "high-" + ns, "--no-headers")).containsPattern("1000\\s+false");
        k.ok("-n", ns, "create", "quota", "q", "--hard=pods=10");
        k.ok("-n", ns, "create", "deployment", "web", "--image=nginx", "--port=80");
        Path hpa = Files.writeString(dir.resolve("hpa-" + version + ".yaml"), """
                apiVersion: autoscaling/v2
                kind: HorizontalPodAutoscaler
                metadata: {name: web}
                spec:
                  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
                  minReplicas: 1
                  maxReplicas: 3
                  metrics:
                  - type: Resource
                    resource: {name: cpu, target: {type: Utilization, averageUtilization: 50}}
                """);
        k.ok("-n", ns, "apply", "-f", hpa.toString());
        assertThat(k.ok("-n", ns, "get", "hpa", "web", "--no-headers"))
                .containsPattern("Deployment/web\\s+cpu: <unknown>/50%\\s+1\\s+3");

        assertThat(k.ok("get", "storageclass", "--no-headers"))
                .containsPattern("standard.*kubeloop.io/simulated\\s+Delete\\s+Immediate");
        Path claim = Files.writeString(dir.resolve("claim-" + version + ".yaml"), """
                apiVersion: v1
                kind: PersistentVolumeClaim
                metadata: {name: data}
                spec:
                  accessModes: [ReadWriteOnce]
                  resources: {requests: {storage: 1Gi}}
                """);
        k.ok("-n", ns, "apply", "-f", claim.toString());
        await().atMost(Duration.ofSeconds(20))
                .untilAsserted(() -> assertThat(k.ok("-n", ns, "get", "pvc", "data", "--no-headers"))
                        .containsPattern("data\\s+Bound\\s+pvc-\\S+\\s+1Gi\\s+RWO\\s+standard"));

        k.ok("-n", ns, "expose", "deployment", "web", "--port=80");
        await().atMost(Duration.ofSeconds(20))
                .untilAsserted(() -> assertThat(k.ok("-n", ns, "get", "endpoints", "web", "--no-headers"))
                        .containsPattern("web\\s+10\\.244\\.0\\.\\d+:80"));

        Path sts = Files.writeString(dir.resolve("sts-" + version + ".yaml"), """
                apiVersion: apps/v1
                kind: StatefulSet
                metadata: {name: db}
                spec:
                  replicas: 2
                  serviceName: db
                  selector: {matchLabels: {app: db}}
                  template:
                    metadata: {labels: {app: db}}
                    spec: {containers: [{name: db, image: "postgres:16"}]}
                """);
        k.ok("-n", ns, "apply", "-f", sts.toString());
        assertThat(k.ok("-n", ns, "rollout", "status", "statefulset/db", "--timeout=60s"))
                .contains("partitioned roll out complete: 2 new pods have been updated");
        k.ok("-n", ns, "set", "image", "statefulset/db", "db=postgres:17");
        k.ok("-n", ns, "rollout", "status", "statefulset/db", "--timeout=60s");
        assertThat(k.ok("-n", ns, "rollout", "history", "statefulset/db"))
                .containsPattern("(?m)^1\\s")
                .containsPattern("(?m)^2\\s");

        Path ds = Files.writeString(dir.resolve("ds-" + version + ".yaml"), """
                apiVersion: apps/v1
                kind: DaemonSet
                metadata: {name: agent}
                spec:
                  selector: {matchLabels: {app: agent}}
                  template:
                    metadata: {labels: {app: agent}}
                    spec: {containers: [{name: agent, image: "agent:1"}]}
                """);
        k.ok("-n", ns, "apply", "-f", ds.toString());
        assertThat(k.ok("-n", ns, "rollout", "status", "daemonset/agent", "--timeout=60s"))
                .contains("daemon set \"agent\" successfully rolled out");
        k.ok("-n", ns, "set", "image", "daemonset/agent", "agent=agent:2");
        k.ok("-n", ns, "rollout", "status", "daemonset/agent", "--timeout=60s");
        assertThat(k.ok("-n", ns, "rollout", "history", "daemonset/agent"))
                .containsPattern("(?m)^1\\s")
                .containsPattern("(?m)^2\\s");

        assertThat(k.ok("explain", "ingress.spec.rules")).contains("host");
        assertThat(k.ok("explain", "endpointslices.endpoints")).contains("addresses");
    }
}
