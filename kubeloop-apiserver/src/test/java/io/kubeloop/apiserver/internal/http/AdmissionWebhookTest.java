package io.kubeloop.apiserver.internal.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubeloop.api.json.KubeJson;
import io.kubeloop.apiserver.EmbeddedApiServer;
import io.kubeloop.apiserver.ServerOptions;
import io.kubeloop.apiserver.SimulatedCluster;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * Admission webhooks called by the embedded server as kube-apiserver calls them: an AdmissionReview v1
 * over HTTPS trusted through the configuration's {@code caBundle}; a validating webhook's refusal with
 * kube-apiserver's message and its warnings as headers; a mutating webhook's JSON patch applied before
 * validation, on create and update; unreachable and slow webhooks under both failure policies; and
 * the validation of webhook configurations.
 */
class AdmissionWebhookTest {

    private static EmbeddedApiServer server;
    private static RawHttp http;
    private static TestWebhookServer webhooks;

    @BeforeAll
    static void start() throws Exception {
        server = EmbeddedApiServer.start(ServerOptions.defaults().withCluster(SimulatedCluster.off()));
        http = new RawHttp(server);
        webhooks = new TestWebhookServer();
        webhooks.handle(
                "/validate",
                review -> answer(review, () -> {
                    JsonNode object = review.path("request").path("object");
                    boolean forbidden = object.path("data").has("forbidden");
                    ObjectNode response = response(review, !forbidden);
                    if (forbidden) {
                        response.putObject("status")
                                .put("code", 403)
                                .put("message", "the key 'forbidden' is not allowed");
                    } else {
                        response.putArray("warnings").add("checked by the test webhook");
                    }
                    return response;
                }));
        webhooks.handle(
                "/mutate",
                review -> answer(review, () -> {
                    ObjectNode response = response(review, true);
                    JsonNode labels = review.path("request")
                            .path("object")
                            .path("metadata")
                            .path("labels");
                    String patch = labels.isObject()
                            ? "[{\"op\":\"add\",\"path\":\"/metadata/labels/mutated\",\"value\":\"yes\"}]"
                            : "[{\"op\":\"add\",\"path\":\"/metadata/labels\",\"value\":{\"mutated\":\"yes\"}}]";
                    response.put("patchType", "JSONPatch");
                    response.put("patch", Base64.getEncoder().encodeToString(patch.getBytes(StandardCharsets.UTF_8)));
                    return response;
                }));
        webhooks.handle("/slow", review -> {
            try {
                Thread.sleep(3000);
            } catch (InterruptedException ie) {
                Thread.currentThread().interrupt();
            }
            return answer(review, () -> response(review, true));
        });
    }

    @AfterAll
    static void stop() {
        if (webhooks != null) {
            webhooks.close();
        }
        server.close();
    }

    /** An AdmissionReview answering {@code review} with {@code response}. */
    private static JsonNode answer(JsonNode review, Supplier<ObjectNode> response) {
        ObjectNode out = KubeJson.mapper().createObjectNode();
        out.put("apiVersion", "admission.k8s.io/v1").put("kind", "AdmissionReview");
        out.set("response", response.get());
        return out;
    }

    private static ObjectNode response(JsonNode review, boolean allowed) {
        ObjectNode r = KubeJson.mapper().createObjectNode();
        r.put("uid", review.path("request").path("uid").asString());
        r.put("allowed", allowed);
        return r;
    }

    /** A webhook configuration for ConfigMaps in namespaces labelled {@code hooks: <label>}. */
    private static void configure(String kind, String name, String label, String path, String extra) {
        String plural = kind.equals("Mutating") ? "mutatingwebhookconfigurations" : "validatingwebhookconfigurations";
        String yaml = """
                apiVersion: admissionregistration.k8s.io/v1
                kind: %sWebhookConfiguration
                metadata: {name: %s}
                webhooks:
                - name: %s.hooks.example.com
                  clientConfig: {url: "%s", caBundle: %s}
                  rules:
                  - {apiGroups: [""], apiVersions: [v1], operations: [CREATE, UPDATE], resources: [configmaps]}
                  namespaceSelector: {matchLabels: {hooks: %s}}
                  sideEffects: None
                  admissionReviewVersions: [v1]
                %s
                """.formatted(kind, name, name, webhooks.url(path), webhooks.caBundle(), label, extra.indent(2));
        HttpResponse<String> r = http.post(
                "/apis/admissionregistration.k8s.io/v1/" + plural,
                YAMLMapper.builder().build().readTree(yaml).toString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
    }

    private static String namespace(String label) {
        return http.newNamespace(label, "hooks", label);
    }

    private static HttpResponse<String> configMap(String ns, String name, String data) {
        return http.createConfigMap(ns, name, data);
    }

    @Test
    void aValidatingWebhookRefusesWithItsMessageAndWarnsOtherwise() {
        configure("Validating", "checker", "checked", "/validate", "");
        String ns = namespace("checked");
        HttpResponse<String> ok = configMap(ns, "fine", "{\"a\":\"1\"}");
        assertThat(ok.statusCode()).isEqualTo(201);
        assertThat(ok.headers().allValues("Warning"))
                .anySatisfy(w -> assertThat(w).contains("checked by the test webhook"));
        JsonNode review = webhooks.requests().stream()
                .filter(r -> r.path("request").path("name").asString().equals("fine"))
                .findFirst()
                .orElseThrow();
        assertThat(review.path("request").path("operation").asString()).isEqualTo("CREATE");
        assertThat(review.path("request").path("namespace").asString()).isEqualTo(ns);
        assertThat(review.path("request").path("userInfo").path("username").asString())
                .isEqualTo("kubernetes-admin");
        assertThat(review.path("request").path("resource").path("resource").asString())
                .isEqualTo("configmaps");

        HttpResponse<String> refused = configMap(ns, "bad", "{\"forbidden\":\"1\"}");
        assertThat(refused.statusCode()).isEqualTo(403);
        assertThat(RawHttp.json(refused).path("message").asString())
                .isEqualTo("admission webhook \"checker.hooks.example.com\" denied the request: "
                        + "the key 'forbidden' is not allowed");
        HttpResponse<String> refusedUpdate = http.patch(
                "/api/v1/namespaces/" + ns + "/configmaps/fine",
                "application/merge-patch+json",
                "{\"data\":{\"forbidden\":\"x\"}}");
        assertThat(refusedUpdate.statusCode()).isEqualTo(403);
        assertThat(configMap(http.newNamespace("unhooked"), "bad", "{\"forbidden\":\"1\"}")
                        .statusCode())
                .as("outside the namespace selector")
                .isEqualTo(201);
    }

    @Test
    void aMutatingWebhooksPatchIsAppliedOnCreateAndUpdate() {
        configure("Mutating", "labeller", "mutated", "/mutate", "reinvocationPolicy: IfNeeded");
        String ns = namespace("mutated");
        HttpResponse<String> created = configMap(ns, "m", "{}");
        assertThat(created.statusCode()).isEqualTo(201);
        assertThat(RawHttp.json(created)
                        .path("metadata")
                        .path("labels")
                        .path("mutated")
                        .asString())
                .isEqualTo("yes");
        HttpResponse<String> replaced = http.put(
                "/api/v1/namespaces/" + ns + "/configmaps/m",
                "{\"metadata\":{\"name\":\"m\",\"labels\":{\"other\":\"x\"}},\"data\":{\"b\":\"2\"}}");
        assertThat(replaced.statusCode()).as(replaced.body()).isEqualTo(200);
        assertThat(RawHttp.json(replaced)
                        .path("metadata")
                        .path("labels")
                        .path("mutated")
                        .asString())
                .isEqualTo("yes");
        assertThat(RawHttp.json(http.get("/api/v1/namespaces/" + ns + "/configmaps/m"))
                        .path("metadata")
                        .path("labels")
                        .path("other")
                        .asString())
                .isEqualTo("x");
    }

    @Test
    void aValidatingWebhookSeesDeletesWithTheOldObject() {
        configure("Validating", "delete-checker", "deletes", "/validate", "");
        http.patch(
                "/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations/delete-checker",
                "application/json-patch+json",
                "[{\"op\":\"replace\",\"path\":\"/webhooks/0/rules/0/operations\",\"value\":[\"DELETE\"]}]");
        String ns = namespace("deletes");
        assertThat(configMap(ns, "gone", "{}").statusCode()).isEqualTo(201);
        assertThat(http.delete("/api/v1/namespaces/" + ns + "/configmaps/gone").statusCode())
                .isEqualTo(200);
        JsonNode review = webhooks.requests().stream()
                .filter(r -> r.path("request").path("operation").asString().equals("DELETE"))
                .findFirst()
                .orElseThrow();
        assertThat(review.path("request").path("object").isNull()).isTrue();
        assertThat(review.path("request")
                        .path("oldObject")
                        .path("metadata")
                        .path("name")
                        .asString())
                .isEqualTo("gone");
        assertThat(review.path("request").path("options").path("kind").asString())
                .isEqualTo("DeleteOptions");
    }

    @Test
    void aWebhookBehindAServiceIsCalledAtItsEndpointAndCheckedAgainstTheServicesName() throws Exception {
        String ns = namespace("by-service");
        try (TestWebhookServer named = new TestWebhookServer(List.of("hooks." + ns + ".svc"))) {
            named.handle(
                    "/validate",
                    review -> answer(review, () -> {
                        ObjectNode response = response(review, false);
                        response.putObject("status").put("code", 403).put("message", "refused behind a Service");
                        return response;
                    }));
            for (var s : List.of(Map.entry("hooks", named.port()), Map.entry("wrong-name", webhooks.port()))) {
                assertThat(http.post(
                                        "/api/v1/namespaces/" + ns + "/services",
                                        "{\"metadata\":{\"name\":\"" + s.getKey() + "\"},\"spec\":{\"ports\":"
                                                + "[{\"name\":\"https\",\"port\":443,\"targetPort\":" + s.getValue()
                                                + "}]}}")
                                .statusCode())
                        .isEqualTo(201);
                assertThat(http.post(
                                        "/api/v1/namespaces/" + ns + "/endpoints",
                                        "{\"metadata\":{\"name\":\"" + s.getKey() + "\"},\"subsets\":[{\"addresses\":"
                                                + "[{\"ip\":\"127.0.0.1\"}],\"ports\":[{\"name\":\"https\",\"port\":"
                                                + s.getValue() + "}]}]}")
                                .statusCode())
                        .isEqualTo(201);
            }
            String config = """
                    {"apiVersion":"admissionregistration.k8s.io/v1","kind":"ValidatingWebhookConfiguration",
                     "metadata":{"name":"%1$s-by-service"},
                     "webhooks":[{"name":"%1$s.hooks.example.com",
                       "clientConfig":{"service":{"namespace":"%2$s","name":"%1$s","path":"/validate"},"caBundle":"%3$s"},
                       "rules":[{"apiGroups":[""],"apiVersions":["v1"],"operations":["CREATE"],"resources":["secrets"]}],
                       "namespaceSelector":{"matchLabels":{"hooks":"by-service"}},
                       "sideEffects":"None","admissionReviewVersions":["v1"]}]}""";
            String path = "/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations";
            assertThat(http.post(path, config.formatted("hooks", ns, named.caBundle()))
                            .statusCode())
                    .isEqualTo(201);
            HttpResponse<String> refused =
                    http.post("/api/v1/namespaces/" + ns + "/secrets", "{\"metadata\":{\"name\":\"s\"}}");
            assertThat(refused.statusCode()).isEqualTo(403);
            assertThat(RawHttp.json(refused).path("message").asString()).endsWith("refused behind a Service");
            http.delete(path + "/hooks-by-service");

            assertThat(http.post(path, config.formatted("wrong-name", ns, webhooks.caBundle()))
                            .statusCode())
                    .isEqualTo(201);
            HttpResponse<String> untrusted =
                    http.post("/api/v1/namespaces/" + ns + "/secrets", "{\"metadata\":{\"name\":\"t\"}}");
            assertThat(untrusted.statusCode())
                    .as("a certificate that does not name the Service is not trusted")
                    .isEqualTo(500);
            assertThat(RawHttp.json(untrusted).path("message").asString())
                    .contains("failed calling webhook \"wrong-name.hooks.example.com\"");
            http.delete(path + "/wrong-name-by-service");
        }
    }

    @Test
    void unreachableAndSlowWebhooksFailClosedUnlessIgnored() {
        configure("Validating", "unreachable", "down", "/validate", "");
        // point it at a closed port
        http.patch(
                "/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations/unreachable",
                "application/json-patch+json",
                "[{\"op\":\"replace\",\"path\":\"/webhooks/0/clientConfig/url\",\"value\":\"https://127.0.0.1:1/x\"}]");
        HttpResponse<String> down = configMap(namespace("down"), "c", "{}");
        assertThat(down.statusCode()).isEqualTo(500);
        assertThat(RawHttp.json(down).path("message").asString())
                .startsWith("Internal error occurred: failed calling webhook \"unreachable.hooks.example.com\": "
                        + "failed to call webhook: Post \"https://127.0.0.1:1/x\"");

        configure("Validating", "slow", "slow", "/slow", "timeoutSeconds: 1");
        HttpResponse<String> slow = configMap(namespace("slow"), "c", "{}");
        assertThat(slow.statusCode()).isEqualTo(500);
        assertThat(RawHttp.json(slow).path("message").asString()).contains("context deadline exceeded");

        configure("Validating", "slow-ignored", "slow-ignored", "/slow", "timeoutSeconds: 1\nfailurePolicy: Ignore");
        assertThat(configMap(namespace("slow-ignored"), "c", "{}").statusCode()).isEqualTo(201);
    }

    /**
     * kube-apiserver's v1 defaults, visible in the stored configurations: per webhook
     * {@code failurePolicy: Fail}, {@code matchPolicy: Equivalent}, empty namespace and object selectors,
     * {@code timeoutSeconds: 10}, {@code scope: "*"} on each rule, port 443 for a Service, and for a
     * mutating one {@code reinvocationPolicy: Never}.
     */
    @Test
    void webhookConfigurationsReadBackWithKubeApiserversDefaults() {
        String yaml = """
                apiVersion: admissionregistration.k8s.io/v1
                kind: %sWebhookConfiguration
                metadata: {name: defaulted-%s}
                webhooks:
                - name: defaulted.hooks.example.com
                  clientConfig: {service: {name: hooks, namespace: default}}
                  rules:
                  - {apiGroups: [example.com], apiVersions: [v1], operations: [CREATE], resources: [nothings]}
                  sideEffects: None
                  admissionReviewVersions: [v1]
                """;
        for (String kind : List.of("Validating", "Mutating")) {
            String plural = kind.toLowerCase(Locale.ROOT) + "webhookconfigurations";
            HttpResponse<String> r = http.post(
                    "/apis/admissionregistration.k8s.io/v1/" + plural,
                    YAMLMapper.builder()
                            .build()
                            .readTree(yaml.formatted(kind, plural))
                            .toString());
            assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
            JsonNode stored = RawHttp.json(
                            http.get("/apis/admissionregistration.k8s.io/v1/" + plural + "/defaulted-" + plural))
                    .path("webhooks")
                    .get(0);
            assertThat(stored.path("failurePolicy").asString()).isEqualTo("Fail");
            assertThat(stored.path("matchPolicy").asString()).isEqualTo("Equivalent");
            assertThat(stored.path("namespaceSelector").toString()).isEqualTo("{}");
            assertThat(stored.path("objectSelector").toString()).isEqualTo("{}");
            assertThat(stored.path("timeoutSeconds").asInt()).isEqualTo(10);
            assertThat(stored.path("rules").get(0).path("scope").asString()).isEqualTo("*");
            assertThat(stored.path("clientConfig").path("service").path("port").asInt())
                    .isEqualTo(443);
            assertThat(stored.path("reinvocationPolicy").asString(null))
                    .isEqualTo(kind.equals("Mutating") ? "Never" : null);
        }
    }

    @Test
    void webhookConfigurationsAreValidatedAsKubeApiserverDoes() {
        String yaml = """
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingWebhookConfiguration
                metadata: {name: invalid}
                webhooks:
                - name: short
                  clientConfig: {url: "http://127.0.0.1/x"}
                  timeoutSeconds: 31
                  sideEffects: Some
                """;
        HttpResponse<String> r = http.post(
                "/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations",
                YAMLMapper.builder().build().readTree(yaml).toString());
        assertThat(r.statusCode()).isEqualTo(422);
        assertThat(RawHttp.json(r).path("details").path("causes"))
                .extracting(c -> c.path("field").asString())
                .containsExactlyInAnyOrder(
                        "webhooks[0].name",
                        "webhooks[0].clientConfig.url",
                        "webhooks[0].timeoutSeconds",
                        "webhooks[0].sideEffects",
                        "webhooks[0].admissionReviewVersions");
    }
}
