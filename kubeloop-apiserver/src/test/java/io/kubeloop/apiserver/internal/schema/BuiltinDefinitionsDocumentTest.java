package io.kubeloop.apiserver.internal.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kubeloop.api.json.KubeJson;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The document the built-in schemas are read from is exactly the part of Kubernetes' published
 * {@code swagger.json} that the served kinds reach, and reading it loses nothing the server uses. When
 * the release changes, regenerate it with {@code mvn -pl kubeloop-apiserver test
 * -Dtest=BuiltinDefinitionsDocumentTest -Dkubeloop.schemas.update=true} and commit the changed
 * {@code builtin-definitions.json}.
 */
class BuiltinDefinitionsDocumentTest {

    private static final boolean UPDATE = Boolean.getBoolean("kubeloop.schemas.update");

    private static String committed() throws IOException {
        try (InputStream in = BuiltinSchemas.class.getResourceAsStream(BuiltinSchemas.DOCUMENT)) {
            assertThat(in).as("resource " + BuiltinSchemas.DOCUMENT).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void committedDocumentIsThePartOfTheReleasesSwaggerTheServedKindsReach() throws IOException {
        String derived = UpstreamDefinitions.document();
        if (UPDATE) {
            Path file = Path.of(System.getProperty("basedir", ""))
                    .toAbsolutePath()
                    .resolve("src/main/resources/io/kubeloop/apiserver/internal/schema")
                    .resolve(BuiltinSchemas.DOCUMENT);
            Files.writeString(file, derived);
            return;
        }
        assertThat(committed())
                .as("%s is stale: regenerate it as this test's Javadoc says", BuiltinSchemas.DOCUMENT)
                .isEqualTo(derived);
    }

    /**
     * Every definition read and written again as the server publishes it is the one in the document, but
     * for two marks: definitions that declare no properties (FieldsV1, RawExtension, JSON) are read as
     * free-form and so carry {@code x-kubernetes-preserve-unknown-fields}, and {@code x-kubernetes-unions}
     * (which the server does not use) is not kept.
     */
    @Test
    void readingTheDocumentAndWritingItAgainGivesTheSameDefinitions() throws IOException {
        JsonNode document = BuiltinSchemas.document();
        SwaggerDefinitions.Read read = SwaggerDefinitions.read(document);
        OpenApiSchemas schemas = new OpenApiSchemas(true);
        read.definitions().values().forEach(schemas::require);
        read.kinds().forEach((gvk, schema) -> schemas.tagKind(schema.definitionName(), gvk));
        Map<String, ObjectNode> written = schemas.definitions();
        assertThat(written.keySet())
                .containsExactlyElementsOf(read.definitions().keySet());
        assertThat(written).hasSizeGreaterThan(300);
        for (Map.Entry<String, ObjectNode> e : written.entrySet()) {
            ObjectNode expected =
                    (ObjectNode) document.path("definitions").path(e.getKey()).deepCopy();
            expected.remove("x-kubernetes-unions");
            ObjectNode actual = e.getValue().deepCopy();
            if (!expected.has("properties") && !expected.has("x-kubernetes-preserve-unknown-fields")) {
                actual.remove("x-kubernetes-preserve-unknown-fields");
            }
            assertThat(firstDifference(actual, expected, e.getKey())).isNull();
        }
    }

    /** The path of the first difference between two JSON trees (a description of it), or null. */
    private static String firstDifference(JsonNode actual, JsonNode expected, String path) {
        if (actual.isObject() && expected.isObject()) {
            Set<String> names = new TreeSet<>(actual.propertyNames());
            names.addAll(expected.propertyNames());
            for (String name : names) {
                if (!actual.has(name) || !expected.has(name)) {
                    return path + "." + name + (actual.has(name) ? " is extra: " + actual.get(name) : " is missing");
                }
                String d = firstDifference(actual.get(name), expected.get(name), path + "." + name);
                if (d != null) {
                    return d;
                }
            }
            return null;
        }
        return actual.equals(expected) ? null : path + ": " + actual + " instead of " + expected;
    }

    @Test
    void everyReferenceToADefinitionSharesItsNodeSoRecursiveTypesStayFinite() {
        BuiltinSchemas schemas = BuiltinSchemas.standard();
        StructuralSchema props =
                schemas.definitions().get("io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps");
        assertThat(props.properties().get("properties").additionalProperties().orElseThrow())
                .isSameAs(props);
        StructuralSchema deploymentMeta = schemas.definitions()
                .get("io.k8s.api.apps.v1.Deployment")
                .properties()
                .get("metadata");
        // a reference with its own description is a place of the one definition, sharing its fields
        assertThat(deploymentMeta.description()).startsWith("Standard object's metadata.");
        assertThat(deploymentMeta.referenced()).isSameAs(BuiltinSchemas.objectMeta());
        assertThat(deploymentMeta.properties())
                .isSameAs(BuiltinSchemas.objectMeta().properties());
        StructuralSchema strategy = schemas.definitions()
                .get("io.k8s.api.apps.v1.DeploymentSpec")
                .properties()
                .get("strategy");
        assertThat(strategy.patchStrategy()).isEqualTo("retainKeys");
        assertThat(strategy.referenced().patchStrategy()).isEmpty();
    }

    @Test
    void intOrStringPatchKeysAndFreeFormDefinitionsAreReadAsTheServerNeedsThem() {
        Map<String, StructuralSchema> defs = BuiltinSchemas.standard().definitions();
        assertThat(defs.get("io.k8s.apimachinery.pkg.util.intstr.IntOrString").intOrString())
                .isTrue();
        StructuralSchema containers =
                defs.get("io.k8s.api.core.v1.PodSpec").properties().get("containers");
        assertThat(containers.patchMergeKey()).isEqualTo("name");
        assertThat(containers.patchStrategy()).isEqualTo("merge");
        assertThat(containers.listType()).isEqualTo("map");
        assertThat(defs.get("io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1").preserveUnknownFields())
                .isTrue();
        assertThat(defs.get("io.k8s.apimachinery.pkg.runtime.RawExtension").preserveUnknownFields())
                .isTrue();
        assertThat(defs.get("io.k8s.api.core.v1.Container").description()).startsWith("A single application container");
    }

    @Test
    void referenceToAnUndefinedNameFails() {
        assertThatThrownBy(
                        () -> SwaggerDefinitions.read(
                                KubeJson.mapper()
                                        .readTree(
                                                "{\"definitions\":{\"a.A\":{\"type\":\"object\",\"properties\":{\"b\":{\"$ref\":\"#/definitions/a.B\"}}}}}")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("#/definitions/a.B");
    }
}
