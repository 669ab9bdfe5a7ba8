package io.kubeloop.apiserver.internal.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubeloop.apiserver.BuiltinControllerMode;
import io.kubeloop.apiserver.EmbeddedApiServer;
import io.kubeloop.apiserver.ServerOptions;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A built-in object nobody gave a status comes back with the status kube-apiserver serializes for it (its Go
 * type holds a struct: {@code {}} for a Deployment, zero counts where the fields are not omitempty), whatever
 * wrote it: a create, a scale subresource patch, a status update without one. No built-in controller runs
 * here, so nothing else writes a status.
 */
class BuiltinStatusTest {

    static EmbeddedApiServer server;
    static RawHttp http;

    @BeforeAll
    static void start() {
        server = EmbeddedApiServer.start(ServerOptions.defaults().withBuiltinControllers(BuiltinControllerMode.OFF));
        http = new RawHttp(server);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static final String DEPLOYMENT = "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{"
            + "\"name\":\"web\"},\"spec\":{\"replicas\":1,\"selector\":{\"matchLabels\":{\"app\":\"web\"}},"
            + "\"template\":{\"metadata\":{\"labels\":{\"app\":\"web\"}},\"spec\":{\"containers\":[{\"name\":\"c\","
            + "\"image\":\"nginx\"}]}}}}";

    @Test
    void aNewDeploymentHasAnEmptyStatusAndKeepsItThroughAScalePatch() {
        String ns = http.newNamespace("status");
        String deployments = "/apis/apps/v1/namespaces/" + ns + "/deployments";
        HttpResponse<String> created = http.post(deployments, DEPLOYMENT);
        assertThat(RawHttp.json(created).path("status").toString()).isEqualTo("{}");
        HttpResponse<String> scaled =
                http.patch(deployments + "/web/scale", "application/merge-patch+json", "{\"spec\":{\"replicas\":3}}");
        assertThat(scaled.statusCode()).as(scaled.body()).isEqualTo(200);
        assertThat(RawHttp.json(http.get(deployments + "/web")).path("status").toString())
                .isEqualTo("{}");
    }

    @Test
    void aStatusUpdateWithoutAStatusLeavesTheZeroStatus() {
        String ns = http.newNamespace("status");
        String deployments = "/apis/apps/v1/namespaces/" + ns + "/deployments";
        String rv = RawHttp.json(http.post(deployments, DEPLOYMENT))
                .path("metadata")
                .path("resourceVersion")
                .asString();
        HttpResponse<String> r = http.put(
                deployments + "/web/status",
                DEPLOYMENT.replace("\"name\":\"web\"", "\"name\":\"web\",\"resourceVersion\":\"" + rv + "\""));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        assertThat(RawHttp.json(r).path("status").toString()).isEqualTo("{}");
    }

    @Test
    void otherKindsGetTheirZeroValuedStatusFields() {
        String ns = http.newNamespace("status");
        String rs = "{\"apiVersion\":\"apps/v1\",\"kind\":\"ReplicaSet\",\"metadata\":{\"name\":\"rs\"},\"spec\":{"
                + "\"selector\":{\"matchLabels\":{\"a\":\"b\"}},\"template\":{\"metadata\":{\"labels\":{\"a\":\"b\"}},"
                + "\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"nginx\"}]}}}}";
        assertThat(RawHttp.json(http.post("/apis/apps/v1/namespaces/" + ns + "/replicasets", rs))
                        .path("status")
                        .toString())
                .isEqualTo("{\"replicas\":0}");
        String svc = "{\"apiVersion\":\"v1\",\"kind\":\"Service\",\"metadata\":{\"name\":\"svc\"},\"spec\":{"
                + "\"ports\":[{\"port\":80}]}}";
        assertThat(RawHttp.json(http.post("/api/v1/namespaces/" + ns + "/services", svc))
                        .path("status")
                        .toString())
                .isEqualTo("{\"loadBalancer\":{}}");
        String cm = "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"cm\"}}";
        assertThat(RawHttp.json(http.post("/api/v1/namespaces/" + ns + "/configmaps", cm))
                        .has("status"))
                .as("a kind without a status gets none")
                .isFalse();
    }
}
