package io.kubeloop.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kubeloop.apiserver.EmbeddedApiServer;
import io.kubeloop.client.KubeClient;
import io.kubeloop.client.PatchType;
import io.kubeloop.client.ResourceClient;
import io.kubeloop.it.operator.BundleReplicas;
import io.kubeloop.it.operator.BundleReplicas.Replica;
import io.kubeloop.it.operator.Widget;
import io.kubeloop.it.operator.WidgetBundle;
import io.kubeloop.it.operator.WidgetOperator;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A user-style operator deployed from its generated bundle on the embedded API server, RBAC enforced: the
 * bundle's objects applied, then two replicas started as the Deployment's pods run — separate processes whose
 * {@code main} is kubeloop's entry point, given the container's arguments and environment, reaching the server
 * through the in-cluster path with a token of the bundle's ServiceAccount. Both answer their probes; exactly one
 * leads and reconciles; when it is stopped (SIGTERM) it hands the Lease back and the other leads and reconciles.
 */
@Timeout(240)
class OperatorReplicasIntegrationTest {

    private static final String NS = "widget-system";

    @TempDir
    Path dir;

    @Test
    void oneOfTwoReplicasLeadsAndReconcilesAndTheOtherTakesOverWhenItStops() throws Exception {
        try (EmbeddedApiServer server = EmbeddedApiServer.start();
                KubeClient admin = server.client();
                BundleReplicas pods =
                        new BundleReplicas(server, admin, WidgetBundle.of(NS).objects(), dir)) {
            pods.apply();
            ResourceClient<Widget> widgets = admin.resource(Widget.class).inNamespace("default");

            Replica a = start(pods, "widget-operator-a");
            Replica b = start(pods, "widget-operator-b");
            for (Replica r : List.of(a, b)) {
                await().atMost(Duration.ofSeconds(90))
                        .ignoreExceptions()
                        .untilAsserted(() -> assertThat(BundleReplicas.get(r.probes(), "/readyz"))
                                .as(r.name() + " ready; its stderr: " + r.stderr())
                                .isEqualTo(200));
                assertThat(BundleReplicas.get(r.probes(), "/healthz")).isEqualTo(200);
                assertThat(BundleReplicas.get(r.metrics(), "/metrics")).isEqualTo(200);
            }

            String holder = await().atMost(Duration.ofSeconds(60))
                    .ignoreExceptions()
                    .until(() -> pods.leaseHolder(WidgetOperator.NAME), h -> h != null && !h.isEmpty());
            Replica leader = holder.startsWith(a.name() + "_") ? a : b;
            Replica follower = leader.equals(a) ? b : a;
            assertThat(holder).startsWith(leader.name() + "_");

            widgets.create(Widget.of("default", "w", "one"));
            awaitStatus(widgets, "one", leader);
            for (String message : List.of("two", "three")) {
                widgets.patch("w", PatchType.MERGE, "{\"spec\":{\"message\":\"" + message + "\"}}");
                awaitStatus(widgets, message, leader);
            }
            assertThat(pods.leaseHolder(WidgetOperator.NAME))
                    .as("still the same leader")
                    .isEqualTo(holder);
            assertThat(BundleReplicas.get(follower.probes(), "/readyz"))
                    .as("the follower is ready too, with warm caches")
                    .isEqualTo(200);

            leader.process().destroy(); // SIGTERM, as the kubelet stops a pod
            assertThat(leader.process().waitFor(60, TimeUnit.SECONDS))
                    .as("the leader exits on SIGTERM")
                    .isTrue();
            await().atMost(Duration.ofSeconds(30))
                    .ignoreExceptions()
                    .untilAsserted(() -> assertThat(pods.leaseHolder(WidgetOperator.NAME))
                            .as("the Lease handed back, taken by the other replica")
                            .startsWith(follower.name() + "_"));
            widgets.patch("w", PatchType.MERGE, "{\"spec\":{\"message\":\"four\"}}");
            awaitStatus(widgets, "four", follower);
        }
    }

    /** A replica of the in-tree operator, from this build's test class path, logging as the tests do. */
    private static Replica start(BundleReplicas pods, String name) throws IOException {
        return pods.start(
                name,
                Path.of(System.getProperty("java.home"), "bin", "java"),
                List.of(
                        "-XX:TieredStopAtLevel=1",
                        "-XX:+UseSerialGC",
                        "-D" + RecordingLogProvider.ECHO_PROPERTY + "=true"),
                System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")),
                WidgetOperator.class.getName());
    }

    private static void awaitStatus(ResourceClient<Widget> widgets, String message, Replica by) {
        await().atMost(Duration.ofSeconds(60))
                .untilAsserted(() -> assertThat(widgets.get("w").status())
                        .as("reconciled by " + by.name() + "; its stderr: " + by.stderr())
                        .isEqualTo(new Widget.Status(message, by.name())));
    }
}
