package io.kubeloop.apiserver.internal.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kubeloop.api.json.KubeJson;
import io.kubeloop.apiserver.EmbeddedApiServer;
import io.kubeloop.apiserver.ServerOptions;
import io.kubeloop.apiserver.SimulatedCluster;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * CRD conversion webhooks as kube-apiserver calls them: a CRD with the {@code Webhook} strategy stores
 * objects in its storage version, converted by the webhook (a ConversionReview v1 over HTTPS trusted
 * through the {@code caBundle}), and serves them in every version through it; metadata other than labels
 * and annotations stays the server's; a failing webhook is a 500 naming the conversion.
 */
class ConversionWebhookTest {

    private static final String CRDS = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";

    private static EmbeddedApiServer server;
    private static RawHttp http;
    private static TestWebhookServer webhook;

    @BeforeAll
    static void start() throws Exception {
        server = EmbeddedApiServer.start(ServerOptions.defaults().withCluster(SimulatedCluster.off()));
        http = new RawHttp(server);
        webhook = new TestWebhookServer();
        // v1alpha1 spec.replicas <-> v1 spec.size; refuses objects named "unconvertible"
        webhook.handle("/convert", review -> {
            JsonNode request = review.path("request");
            String desired = request.path("desiredAPIVersion").asString();
            ObjectNode response = KubeJson.mapper().createObjectNode();
            response.put("uid", request.path("uid").asString());
            var converted = response.putArray("convertedObjects");
            for (JsonNode o : request.path("objects")) {
                if (o.path("metadata").path("name").asString().equals("unconvertible")) {
                    response.putObject("result").put("status", "Failure").put("message", "cannot convert this one");
                    return wrap(response);
                }
                ObjectNode copy = (ObjectNode) o.deepCopy();
                ObjectNode spec = (ObjectNode) copy.path("spec");
                if (desired.endsWith("/v1")) {
                    spec.set("size", spec.remove("replicas"));
                } else {
                    spec.set("replicas", spec.remove("size"));
                }
                copy.put("apiVersion", desired);
                ((ObjectNode) copy.path("metadata")).put("uid", "changed-by-webhook");
                converted.add(copy);
            }
            response.putObject("result").put("status", "Success");
            return wrap(response);
        });
        String crd = """
                apiVersion: apiextensions.k8s.io/v1
                kind: CustomResourceDefinition
                metadata: {name: dials.convert.example.com}
                spec:
                  group: convert.example.com
                  scope: Namespaced
                  names: {kind: Dial, plural: dials}
                  conversion:
                    strategy: Webhook
                    webhook:
                      conversionReviewVersions: [v1]
                      clientConfig: {url: "%s", caBundle: %s}
                  versions:
                  - name: v1alpha1
                    served: true
                    storage: true
                    schema:
                      openAPIV3Schema:
                        type: object
                        properties:
                          spec: {type: object, properties: {replicas: {type: integer}}}
                  - name: v1
                    served: true
                    storage: false
                    schema:
                      openAPIV3Schema:
                        type: object
                        properties:
                          spec: {type: object, properties: {size: {type: integer}}}
                """.formatted(webhook.url("/convert"), webhook.caBundle());
        HttpResponse<String> r =
                http.post(CRDS, YAMLMapper.builder().build().readTree(crd).toString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
        await().atMost(Duration.ofSeconds(10))
                .until(() -> http.get("/apis/convert.example.com/v1/dials").statusCode() == 200);
    }

    @AfterAll
    static void stop() {
        webhook.close();
        server.close();
    }

    private static JsonNode wrap(ObjectNode response) {
        ObjectNode review = KubeJson.mapper().createObjectNode();
        review.put("apiVersion", "apiextensions.k8s.io/v1").put("kind", "ConversionReview");
        review.set("response", response);
        return review;
    }

    @Test
    void objectsWrittenInOneVersionAreStoredAndServedThroughTheWebhook() {
        String ns = http.newNamespace("conv");
        HttpResponse<String> created = http.post(
                "/apis/convert.example.com/v1/namespaces/" + ns + "/dials",
                "{\"apiVersion\":\"convert.example.com/v1\",\"kind\":\"Dial\",\"metadata\":{\"name\":\"d\"},"
                        + "\"spec\":{\"size\":3}}");
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);

        JsonNode asAlpha = RawHttp.json(http.get("/apis/convert.example.com/v1alpha1/namespaces/" + ns + "/dials/d"));
        assertThat(asAlpha.path("apiVersion").asString()).isEqualTo("convert.example.com/v1alpha1");
        assertThat(asAlpha.path("spec").path("replicas").asInt()).isEqualTo(3);
        assertThat(asAlpha.path("metadata").path("uid").asString()).isNotEqualTo("changed-by-webhook");

        JsonNode asV1 = RawHttp.json(http.get("/apis/convert.example.com/v1/namespaces/" + ns + "/dials/d"));
        assertThat(asV1.path("spec").path("size").asInt()).isEqualTo(3);
        assertThat(asV1.path("spec").has("replicas")).isFalse();
        JsonNode list = RawHttp.json(http.get("/apis/convert.example.com/v1/namespaces/" + ns + "/dials"));
        assertThat(list.path("items").get(0).path("spec").path("size").asInt()).isEqualTo(3);
        assertThat(webhook.requests())
                .anySatisfy(r -> assertThat(
                                r.path("request").path("desiredAPIVersion").asString())
                        .isEqualTo("convert.example.com/v1alpha1"));
    }

    @Test
    void aFailedConversionIsAServerError() {
        String ns = http.newNamespace("conv-fail");
        HttpResponse<String> r = http.post(
                "/apis/convert.example.com/v1/namespaces/" + ns + "/dials",
                "{\"apiVersion\":\"convert.example.com/v1\",\"kind\":\"Dial\",\"metadata\":{\"name\":\"unconvertible\"},"
                        + "\"spec\":{\"size\":1}}");
        assertThat(r.statusCode()).isEqualTo(500);
        assertThat(RawHttp.json(r).path("message").asString())
                .isEqualTo(
                        "conversion webhook for convert.example.com/v1alpha1, Kind=Dial failed: cannot convert this one");
    }
}
