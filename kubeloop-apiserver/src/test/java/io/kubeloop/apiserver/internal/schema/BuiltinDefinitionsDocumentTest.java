package io.kubeloop.apiserver.internal.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kubeloop.api.json.KubeJson;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The document the built-in schemas are read from is exactly what fabric8's model classes describe, and
 * reading it loses nothing. When the model classes change, regenerate it with {@code mvn -pl
 * kubeloop-apiserver test -Dtest=BuiltinDefinitionsDocumentTest -Dkubeloop.schemas.update=true} and commit
 * the changed {@code builtin-definitions.json}.
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
    void committedDocumentIsWhatTheModelClassesDescribe() throws IOException {
        String derived = Fabric8Definitions.document();
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

    @Test
    void readingTheDocumentAndWritingItAgainGivesTheSameDocument() throws IOException {
        SwaggerDefinitions.Read read = SwaggerDefinitions.read(BuiltinSchemas.document());
        assertThat(read.definitions()).hasSizeGreaterThan(400);
        assertThat(Fabric8Definitions.write(read.definitions().values(), read.kinds()))
                .isEqualTo(committed());
    }

    @Test
    void everyReferenceToADefinitionIsTheSameNodeSoRecursiveTypesStayFinite() {
        BuiltinSchemas schemas = BuiltinSchemas.standard();
        StructuralSchema props =
                schemas.definitions().get("io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps");
        assertThat(props.properties().get("properties").additionalProperties().orElseThrow())
                .isSameAs(props);
        StructuralSchema deploymentMeta = schemas.definitions()
                .get("io.k8s.api.apps.v1.Deployment")
                .properties()
                .get("metadata");
        assertThat(deploymentMeta).isSameAs(BuiltinSchemas.objectMeta());
    }

    @Test
    void namedIntOrStringAndPatchKeysAreReadBack() {
        BuiltinSchemas schemas = BuiltinSchemas.standard();
        assertThat(schemas.definitions()
                        .get("io.k8s.apimachinery.pkg.util.intstr.IntOrString")
                        .intOrString())
                .isTrue();
        StructuralSchema containers = schemas.definitions()
                .get("io.k8s.api.core.v1.PodSpec")
                .properties()
                .get("containers");
        assertThat(containers.patchMergeKey()).isEqualTo("name");
        assertThat(containers.patchStrategy()).isEqualTo("merge");
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
