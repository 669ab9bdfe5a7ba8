package io.kubeloop.apiserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.apiserver.internal.schema.KubernetesRelease;
import io.kubeloop.client.KubeClient;
import io.kubeloop.client.ListOptions;
import io.kubeloop.client.PatchOptions;
import io.kubeloop.client.PatchType;
import io.kubeloop.client.ResourceClient;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * A three-Node simulated cluster through kubeloop's client: the Nodes are registered Ready with their own Pod
 * CIDRs, the scheduler spreads a Deployment's Pods over them, a DaemonSet runs one Pod per selected Node and
 * rolls a template change Node by Node, and a cordoned Node takes no new Pods.
 */
class SimulatedClusterTest {

    private static final Duration WAIT = Duration.ofSeconds(20);

    static EmbeddedApiServer server;
    static KubeClient client;

    @BeforeAll
    static void start() {
        server = EmbeddedApiServer.start(
                ServerOptions.defaults().withCluster(SimulatedCluster.defaults().withNodes(3)));
        client = server.client();
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    private static ResourceClient<DynamicObject> resource(String plural, String namespace) {
        return client.resource(plural).inNamespace(namespace);
    }

    private static String newNamespace(String name) {
        client.resource("namespaces")
                .create(DynamicObject.parse(
                        "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"" + name + "\"}}"));
        return name;
    }

    private static String text(DynamicObject o, String pointer) {
        return o.at(pointer).map(JsonNode::asString).orElse("");
    }

    private static int number(DynamicObject o, String pointer) {
        return o.at(pointer).map(JsonNode::asInt).orElse(-1);
    }

    /** Pods that run and are not being deleted. */
    private static List<DynamicObject> runningPods(String namespace) {
        return resource("pods", namespace).list(ListOptions.none()).items().stream()
                .filter(p -> text(p, "/status/phase").equals("Running")
                        && p.at("/metadata/deletionTimestamp").isEmpty())
                .toList();
    }

    @Test
    void threeReadyNodesEachWithItsOwnPodCidr() {
        List<DynamicObject> nodes =
                client.resource("nodes").list(ListOptions.none()).items();
        assertThat(nodes)
                .extracting(n -> text(n, "/metadata/name"))
                .containsExactly("kubeloop-node-1", "kubeloop-node-2", "kubeloop-node-3");
        assertThat(nodes)
                .extracting(n -> text(n, "/spec/podCIDR"))
                .containsExactly("10.244.0.0/24", "10.244.1.0/24", "10.244.2.0/24");
        assertThat(nodes).allSatisfy(n -> {
            assertThat(text(n, "/status/conditions/3/type")).isEqualTo("Ready");
            assertThat(text(n, "/status/conditions/3/status")).isEqualTo("True");
            assertThat(text(n, "/status/nodeInfo/kubeletVersion")).isEqualTo(KubernetesRelease.tag());
        });
    }

    @Test
    void theSchedulerSpreadsADeploymentsPodsOverTheNodes() {
        String ns = newNamespace("spread");
        resource("deployments", ns).create(DynamicObject.parse("""
                {"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},
                 "spec":{"replicas":3,"selector":{"matchLabels":{"app":"web"}},
                  "template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"c","image":"nginx"}]}}}}
                """));
        await().atMost(WAIT).untilAsserted(() -> {
            List<DynamicObject> pods = runningPods(ns);
            assertThat(pods).hasSize(3);
            assertThat(pods.stream().map(p -> text(p, "/spec/nodeName")).collect(Collectors.toSet()))
                    .containsExactlyInAnyOrder("kubeloop-node-1", "kubeloop-node-2", "kubeloop-node-3");
            for (DynamicObject p : pods) {
                String node = text(p, "/spec/nodeName");
                int index = Integer.parseInt(node.substring(node.lastIndexOf('-') + 1));
                assertThat(text(p, "/status/podIP")).startsWith("10.244." + (index - 1) + ".");
            }
        });
    }

    @Test
    void aDaemonSetRunsOnePodPerSelectedNodeAndRollsATemplateChangeNodeByNode() {
        String ns = newNamespace("daemons");
        ResourceClient<DynamicObject> sets = resource("daemonsets", ns);
        sets.create(DynamicObject.parse("""
                {"apiVersion":"apps/v1","kind":"DaemonSet","metadata":{"name":"agent"},
                 "spec":{"selector":{"matchLabels":{"app":"agent"}},
                  "template":{"metadata":{"labels":{"app":"agent"}},"spec":{"containers":[{"name":"c","image":"agent:1"}]}}}}
                """));
        await().atMost(WAIT).untilAsserted(() -> {
            DynamicObject ds = sets.get("agent");
            assertThat(number(ds, "/status/desiredNumberScheduled")).isEqualTo(3);
            assertThat(number(ds, "/status/numberReady")).isEqualTo(3);
            assertThat(number(ds, "/status/numberAvailable")).isEqualTo(3);
            assertThat(number(ds, "/status/updatedNumberScheduled")).isEqualTo(3);
            List<DynamicObject> pods = runningPods(ns);
            assertThat(pods.stream().map(p -> text(p, "/spec/nodeName")).collect(Collectors.toSet()))
                    .hasSize(3);
            assertThat(pods)
                    .allSatisfy(p -> assertThat(p.at("/spec/tolerations")
                                    .map(JsonNode::toString)
                                    .orElse(""))
                            .contains("node.kubernetes.io/not-ready"));
        });

        sets.patch(
                "agent",
                PatchType.STRATEGIC_MERGE,
                "{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"agent:2\"}]}}}}",
                PatchOptions.none());
        await().atMost(WAIT).untilAsserted(() -> {
            DynamicObject ds = sets.get("agent");
            assertThat(number(ds, "/status/observedGeneration")).isEqualTo(2);
            assertThat(number(ds, "/status/updatedNumberScheduled")).isEqualTo(3);
            assertThat(number(ds, "/status/numberAvailable")).isEqualTo(3);
            assertThat(runningPods(ns))
                    .hasSize(3)
                    .allSatisfy(
                            p -> assertThat(text(p, "/spec/containers/0/image")).isEqualTo("agent:2"));
        });

        assertThat(resource("controllerrevisions", ns).list(ListOptions.none()).items())
                .as("one revision per template, for kubectl rollout history")
                .extracting(r -> number(r, "/revision"))
                .containsExactlyInAnyOrder(1, 2);

        client.resource("nodes")
                .patch(
                        "kubeloop-node-2",
                        PatchType.MERGE,
                        "{\"metadata\":{\"labels\":{\"agent\":\"yes\"}}}",
                        PatchOptions.none());
        sets.patch(
                "agent",
                PatchType.MERGE,
                "{\"spec\":{\"template\":{\"spec\":{\"nodeSelector\":{\"agent\":\"yes\"}}}}}",
                PatchOptions.none());
        await().atMost(WAIT).untilAsserted(() -> {
            assertThat(number(sets.get("agent"), "/status/desiredNumberScheduled"))
                    .isEqualTo(1);
            assertThat(runningPods(ns))
                    .singleElement()
                    .satisfies(p -> assertThat(text(p, "/spec/nodeName")).isEqualTo("kubeloop-node-2"));
        });
    }

    @Test
    void aCordonedNodeTakesNoNewPods() {
        String ns = newNamespace("cordon");
        client.resource("nodes")
                .patch("kubeloop-node-3", PatchType.MERGE, "{\"spec\":{\"unschedulable\":true}}", PatchOptions.none());
        try {
            ResourceClient<DynamicObject> pods = resource("pods", ns);
            for (int i = 0; i < 4; i++) {
                pods.create(DynamicObject.parse("{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p" + i
                        + "\"},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"nginx\"}]}}"));
            }
            await().atMost(WAIT).untilAsserted(() -> {
                Map<String, Long> perNode = runningPods(ns).stream()
                        .collect(Collectors.groupingBy(p -> text(p, "/spec/nodeName"), Collectors.counting()));
                assertThat(perNode.values().stream().mapToLong(Long::longValue).sum())
                        .isEqualTo(4);
                assertThat(perNode).doesNotContainKey("kubeloop-node-3");
            });
        } finally {
            client.resource("nodes")
                    .patch(
                            "kubeloop-node-3",
                            PatchType.MERGE,
                            "{\"spec\":{\"unschedulable\":null}}",
                            PatchOptions.none());
        }
    }
}
