package io.kubeloop.apiserver.internal.openapi;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubeloop.apiserver.internal.schema.ServedKind;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

class OpenApiV2Test {

    private static final List<ServedKind> KINDS = KubectlOpenApiTest.servedKinds();

    @Test
    void isASwagger20DocumentWithDefinitions() {
        ObjectNode doc = OpenApiV2.document(KINDS);
        assertThat(doc.path("swagger").stringValue()).isEqualTo("2.0");
        assertThat(doc.path("definitions").has("io.k8s.api.apps.v1.Deployment")).isTrue();
        assertThat(doc.path("definitions").has("io.k8s.samplecontroller.v1alpha1.Foo"))
                .isTrue();
    }

    /** A parameter inline, or the document's shared parameter it references (as Kubernetes' document shares most). */
    private static JsonNode resolve(ObjectNode doc, JsonNode parameter) {
        String ref = parameter.path("$ref").asString("");
        return ref.isEmpty() ? parameter : doc.path("parameters").path(ref.substring("#/parameters/".length()));
    }

    @Test
    void patchConsumesTheTypesAndTakesABodyParameter() {
        ObjectNode doc = OpenApiV2.document(KINDS);
        JsonNode patch = doc.path("paths")
                .path("/apis/apps/v1/namespaces/{namespace}/deployments/{name}")
                .path("patch");
        assertThat(patch.path("consumes").valueStream().map(JsonNode::stringValue))
                .contains("application/strategic-merge-patch+json");
        List<JsonNode> parameters =
                patch.path("parameters").valueStream().map(p -> resolve(doc, p)).toList();
        assertThat(parameters.getFirst().path("in").stringValue()).isEqualTo("body");
        assertThat(parameters)
                .anyMatch(p -> "fieldValidation".equals(p.path("name").stringValue()));
    }

    @Test
    void referencesPointAtDefinitions() {
        JsonNode spec = OpenApiV2.document(KINDS).at("/definitions/io.k8s.api.apps.v1.Deployment/properties/spec");
        assertThat(spec.path("$ref").stringValue()).isEqualTo("#/definitions/io.k8s.api.apps.v1.DeploymentSpec");
    }

    @Test
    void bytesAreStable() {
        assertThat(OpenApiV2.bytes(KINDS)).isEqualTo(OpenApiV2.bytes(KINDS));
    }
}
