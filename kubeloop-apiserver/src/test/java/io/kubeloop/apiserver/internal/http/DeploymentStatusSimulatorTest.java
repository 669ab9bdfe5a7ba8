package io.kubeloop.apiserver.internal.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kubeloop.apiserver.EmbeddedApiServer;
import io.kubeloop.apiserver.ServerOptions;
import io.kubeloop.apiserver.SimulatedCluster;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The {@code STATUS_ONLY} simulation makes Deployments report available replicas without ReplicaSets or Pods,
 * over real HTTPS.
 */
class DeploymentStatusSimulatorTest {

    static EmbeddedApiServer server;
    static RawHttp http;

    @BeforeAll
    static void connect() {
        server = EmbeddedApiServer.start(ServerOptions.defaults()
                .withCluster(SimulatedCluster.defaults().withWorkloads(SimulatedCluster.Workloads.STATUS_ONLY)));
        http = new RawHttp(server);
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    private static final String PATH = "/apis/apps/v1/namespaces/default/deployments/";

    private static JsonNode awaitStatus(String name, int replicas, long generation) {
        JsonNode[] seen = new JsonNode[1];
        await().atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(20))
                .until(() -> {
                    seen[0] = RawHttp.json(http.get(PATH + name));
                    JsonNode s = seen[0].path("status");
                    return s.path("availableReplicas").asInt(-1) == replicas
                            && s.path("observedGeneration").asLong(-1) == generation;
                });
        return seen[0];
    }

    @Test
    void aNewDeploymentBecomesAvailableAndFollowsAScaleUp() {
        HttpResponse<String> created =
                http.post("/apis/apps/v1/namespaces/default/deployments", Workloads.deployment("simulated", null));
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        assertThat(RawHttp.json(created)
                        .path("status")
                        .path("availableReplicas")
                        .isMissingNode())
                .as("not available at once")
                .isTrue();

        JsonNode available = awaitStatus("simulated", 1, 1);
        JsonNode status = available.path("status");
        assertThat(status.path("replicas").asInt()).isEqualTo(1);
        assertThat(status.path("readyReplicas").asInt()).isEqualTo(1);
        assertThat(status.path("updatedReplicas").asInt()).isEqualTo(1);
        assertThat(status.path("conditions").findValuesAsString("type")).contains("Available", "Progressing");

        HttpResponse<String> scaled =
                http.patch(PATH + "simulated", "application/merge-patch+json", "{\"spec\":{\"replicas\":3}}");
        assertThat(scaled.statusCode()).as(scaled.body()).isEqualTo(200);
        awaitStatus("simulated", 3, 2);
        assertThat(RawHttp.json(http.get("/apis/apps/v1/namespaces/default/replicasets"))
                        .path("items"))
                .as("no ReplicaSets")
                .isEmpty();
        assertThat(RawHttp.json(http.get("/api/v1/namespaces/default/pods")).path("items"))
                .as("no Pods")
                .isEmpty();
        assertThat(RawHttp.json(http.get("/api/v1/nodes")).path("items"))
                .as("no Nodes")
                .isEmpty();
    }
}
