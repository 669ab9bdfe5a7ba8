package io.kubeloop.controller.internal.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.kubeloop.api.Kind;
import io.kubeloop.api.ObjectMeta;
import io.kubeloop.api.Scheme;
import io.kubeloop.api.json.KubeJson;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class ApplyBodiesTest {

    @Kind(group = "example.com", version = "v1")
    record Widget(
            String apiVersion,
            String kind,
            ObjectMeta metadata,
            Map<String, Object> spec,
            Map<String, Object> status) {}

    private static JsonNode read(byte[] body) {
        return KubeJson.mapper().readTree(body);
    }

    @Test
    void anObjectAsReadLosesTheServerOwnedFieldsAndTheStatusButKeepsItsResourceVersion() {
        ConfigMap read = new ConfigMapBuilder()
                .withNewMetadata()
                .withNamespace("ns")
                .withName("cm")
                .withUid("u-1")
                .withResourceVersion("42")
                .withGeneration(3L)
                .withCreationTimestamp("2026-01-01T00:00:00Z")
                .withSelfLink("/api/v1/namespaces/ns/configmaps/cm")
                .addNewManagedField()
                .withManager("someone")
                .endManagedField()
                .withLabels(Map.of("app", "web"))
                .endMetadata()
                .withData(Map.of("k", "v"))
                .build();

        JsonNode body = read(ApplyBodies.forObject(read, Scheme.defaults()));

        JsonNode meta = body.path("metadata");
        assertThat(meta.has("uid")).isFalse();
        assertThat(meta.has("managedFields")).isFalse();
        assertThat(meta.has("creationTimestamp")).isFalse();
        assertThat(meta.has("generation")).isFalse();
        assertThat(meta.has("selfLink")).isFalse();
        assertThat(meta.path("resourceVersion").asString()).isEqualTo("42");
        assertThat(meta.path("labels").path("app").asString()).isEqualTo("web");
        assertThat(body.path("data").path("k").asString()).isEqualTo("v");
        assertThat(body.path("kind").asString()).isEqualTo("ConfigMap");
    }

    @Test
    void aRecordGetsItsApiVersionAndKindFromTheSchemeAndLosesNullsAndStatus() {
        Widget w = new Widget(
                null,
                null,
                ObjectMeta.builder()
                        .namespace("ns")
                        .name("w")
                        .creationTimestamp(Instant.EPOCH)
                        .build(),
                new HashMap<>(Map.of("size", 3)),
                Map.of("ready", true));

        JsonNode body = read(ApplyBodies.forObject(w, Scheme.defaults()));

        assertThat(body.path("apiVersion").asString()).isEqualTo("example.com/v1");
        assertThat(body.path("kind").asString()).isEqualTo("Widget");
        assertThat(body.has("status")).isFalse();
        assertThat(body.path("metadata").has("resourceVersion")).isFalse();
        assertThat(body.path("metadata").has("creationTimestamp")).isFalse();
        assertThat(body.toString()).doesNotContain("null");
    }

    @Test
    void aStatusBodyHoldsTheIdentityAndTheStatusOnly() {
        Widget w = new Widget(
                "example.com/v1",
                "Widget",
                ObjectMeta.builder()
                        .namespace("ns")
                        .name("w")
                        .resourceVersion("7")
                        .uid("u")
                        .build(),
                Map.of("size", 3),
                Map.of("ready", true));

        JsonNode body = read(ApplyBodies.forStatus(w, Scheme.defaults()));

        assertThat(body.has("spec")).isFalse();
        assertThat(body.path("status").path("ready").asBoolean()).isTrue();
        assertThat(body.path("metadata").propertyNames())
                .containsExactlyInAnyOrder("name", "namespace", "resourceVersion");
    }
}
