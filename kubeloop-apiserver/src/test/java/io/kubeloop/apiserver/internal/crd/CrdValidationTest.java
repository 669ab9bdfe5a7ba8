package io.kubeloop.apiserver.internal.crd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kubeloop.api.errors.InvalidException;
import io.kubeloop.api.json.KubeJson;
import io.kubeloop.apiserver.internal.registry.ResourceDefinition;
import io.kubeloop.apiserver.internal.registry.ResourceRegistry;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

class CrdValidationTest {

    private static final ResourceDefinition CRDS = new ResourceRegistry()
            .find("apiextensions.k8s.io", "v1", "customresourcedefinitions")
            .orElseThrow();

    private static ObjectNode crd(String versions) {
        return (ObjectNode) KubeJson.mapper().readTree("""
                {"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
                 "metadata":{"name":"foos.example.com"},
                 "spec":{"group":"example.com","scope":"Namespaced","names":{"kind":"Foo","plural":"foos"},
                   "versions":%s}}
                """.formatted(versions));
    }

    private static final String V1 = "{\"name\":\"v1\",\"served\":true,\"storage\":true,"
            + "\"schema\":{\"openAPIV3Schema\":{\"type\":\"object\"}}}";

    private static List<String> causeFields(Runnable r) {
        try {
            r.run();
        } catch (InvalidException e) {
            return e.status().details().causes().stream().map(c -> c.field()).toList();
        }
        throw new AssertionError("expected 422");
    }

    @Test
    void createDefaultsNamesAndConversionAndRecordsTheStoredVersion() {
        ObjectNode c = crd("[" + V1 + "]");
        CrdValidation.admit(CRDS, c, null);
        assertThat(c.path("spec").path("names").path("singular").asString()).isEqualTo("foo");
        assertThat(c.path("spec").path("names").path("listKind").asString()).isEqualTo("FooList");
        assertThat(c.path("spec").path("conversion").path("strategy").asString())
                .isEqualTo("None");
        assertThat(c.path("status").path("storedVersions").get(0).asString()).isEqualTo("v1");
        assertThat(c.path("status").path("acceptedNames").path("plural").asString())
                .isEmpty();
    }

    @Test
    void updateAppendsANewStorageVersionToStoredVersions() {
        ObjectNode old = crd("[" + V1 + "]");
        CrdValidation.admit(CRDS, old, null);
        ObjectNode next =
                crd("[" + V1.replace("\"storage\":true", "\"storage\":false") + "," + V1.replace("v1", "v2") + "]");
        next.set("status", old.get("status").deepCopy());
        CrdValidation.admit(CRDS, next, old);
        assertThat(next.path("status").path("storedVersions").toString()).isEqualTo("[\"v1\",\"v2\"]");
    }

    @Test
    void twoStorageVersionsOrNoneAre422() {
        assertThat(causeFields(
                        () -> CrdValidation.admit(CRDS, crd("[" + V1 + "," + V1.replace("v1", "v2") + "]"), null)))
                .containsExactly("spec.versions");
        assertThat(causeFields(() -> CrdValidation.admit(CRDS, crd("[]"), null)))
                .containsExactly("spec.versions");
    }

    @Test
    void missingSchemaAndBadScalePathsAndColumnsAreNamed() {
        String v = "{\"name\":\"v1\",\"served\":true,\"storage\":true,"
                + "\"subresources\":{\"scale\":{\"specReplicasPath\":\".status.x\",\"statusReplicasPath\":\".status.r\"}},"
                + "\"additionalPrinterColumns\":[{\"name\":\"X\",\"type\":\"float\",\"jsonPath\":\"spec.x\"}]}";
        assertThat(causeFields(() -> CrdValidation.admit(CRDS, crd("[" + v + "]"), null)))
                .containsExactly(
                        "spec.versions[0].schema.openAPIV3Schema",
                        "spec.versions[0].subresources.scale.specReplicasPath",
                        "spec.versions[0].additionalPrinterColumns[0].type",
                        "spec.versions[0].additionalPrinterColumns[0].jsonPath");
    }

    @Test
    void groupIsImmutable() {
        ObjectNode old = crd("[" + V1 + "]");
        CrdValidation.admit(CRDS, old, null);
        ObjectNode next = old.deepCopy();
        ((ObjectNode) next.get("spec")).put("group", "other.com");
        assertThatThrownBy(() -> CrdValidation.admit(CRDS, next, old))
                .isInstanceOf(InvalidException.class)
                .hasMessageContaining("spec.group: Invalid value: \"other.com\": field is immutable");
    }

    @Test
    void uppercasePluralIsRejected() {
        ObjectNode c = crd("[" + V1 + "]");
        ((ObjectNode) c.path("spec").path("names")).put("plural", "Foos");
        assertThat(causeFields(() -> CrdValidation.admit(CRDS, c, null)))
                .contains("metadata.name", "spec.names.plural");
    }
}
