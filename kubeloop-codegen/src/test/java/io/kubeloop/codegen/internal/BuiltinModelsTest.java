package io.kubeloop.codegen.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kubeloop.codegen.CodegenException;
import io.kubeloop.codegen.GeneratedSource;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The generator of the built-in models, on small OpenAPI v3 documents written like Kubernetes'. */
class BuiltinModelsTest {

    @TempDir
    Path dir;

    private static final String WIDGET = """
            "io.k8s.api.example.v1.Widget": {"type": "object",
              "x-kubernetes-group-version-kind": [{"group": "example.io", "version": "v1", "kind": "Widget"}],
              "properties": {
                "apiVersion": {"type": "string"}, "kind": {"type": "string"},
                "metadata": {"allOf": [{"$ref": "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"}]},
                "spec": {"allOf": [{"$ref": "#/components/schemas/io.k8s.api.example.v1.Spec"}]}}},
            "io.k8s.api.example.v1.Spec": {"type": "object", "properties": {
                "condition": {"allOf": [{"$ref": "#/components/schemas/io.k8s.api.other.v1.Condition"}]},
                "other": {"allOf": [{"$ref": "#/components/schemas/io.k8s.api.other.v1.Spec"}]},
                "renewTime": {"allOf": [{"$ref": "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime"}]},
                "default": {"type": "string"},
                "items": {"type": "array", "items": {"type": "string"}}}},
            "io.k8s.api.other.v1.Condition": {"type": "object", "properties": {"type": {"type": "string"}}},
            "io.k8s.api.other.v1.Spec": {"type": "object", "properties": {"size": {"type": "integer", "format": "int32"}}},
            "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta": {"type": "object", "properties": {"name": {"type": "string"}}},
            "io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime": {"type": "string", "format": "date-time"}
            """;

    private void document(String name, String schemas, String paths) throws IOException {
        Files.writeString(
                dir.resolve(name),
                "{\"openapi\": \"3.0.0\", \"paths\": {" + paths + "}, \"components\": {\"schemas\": {" + schemas
                        + "}}}");
    }

    private static String path(String path, String method) {
        return "\"" + path + "\": {\"" + method + "\": {\"x-kubernetes-action\": \"list\","
                + " \"x-kubernetes-group-version-kind\": {\"group\": \"example.io\", \"version\": \"v1\", \"kind\": \"Widget\"}}}";
    }

    private Map<String, String> generate() throws IOException {
        return BuiltinModels.generate(dir, "com.example.models", "v9.9.9", "com.example.models").stream()
                .collect(Collectors.toMap(GeneratedSource::qualifiedName, GeneratedSource::source, (a, b) -> a));
    }

    @Test
    void aKindIsNamespacedWhenAnyOfItsPathsIsEvenIfTheAllNamespacesListComesFirst() throws IOException {
        document(
                "apis__example.io__v1_openapi.json",
                WIDGET,
                path("/apis/example.io/v1/widgets", "get") + ", "
                        + path("/apis/example.io/v1/namespaces/{namespace}/widgets", "get"));
        String widget = generate().get("com.example.models.example.v1.Widget");
        assertThat(widget)
                .contains("@Kind(group = \"example.io\", version = \"v1\", plural = \"widgets\")")
                .contains("implements KubernetesObject")
                .contains("public static Widget of(String namespace, String name)");
    }

    @Test
    void aTypeOfAnotherPackageNamedLikeOneOfTheUnitsPackageIsQualified() throws IOException {
        document("a.json", WIDGET, "");
        Map<String, String> sources = generate();
        String spec = sources.get("com.example.models.example.v1.Spec");
        assertThat(spec)
                .contains("import com.example.models.other.v1.Condition;")
                .contains("        com.example.models.other.v1.Spec other,")
                .contains("        Condition condition,")
                .contains("@JsonProperty(\"default\") String default_")
                .contains("yyyy-MM-dd'T'HH:mm:ss.SSSSSSXXX") // MicroTime keeps its microseconds
                .contains("Instant renewTime")
                .contains("public Builder addItem(String element)");
        assertThat(sources.get("com.example.models.example.v1.Widget")).doesNotContain("@Kind"); // no path serves it
        assertThat(sources).doesNotContainKey("com.example.models.meta.v1.ObjectMeta"); // kubeloop's own
        assertThat(sources.get(".module-info"))
                .contains("exports com.example.models.example.v1;")
                .contains("opens com.example.models.other.v1 to");
    }

    @Test
    void twoDocumentsDefiningOneNameDifferentlyFail() throws IOException {
        document("a.json", WIDGET, "");
        document("b.json", "\"io.k8s.api.other.v1.Spec\": {\"type\": \"object\"}", "");
        assertThatThrownBy(this::generate)
                .isInstanceOf(CodegenException.class)
                .hasMessageContaining("b.json defines io.k8s.api.other.v1.Spec unlike an earlier document");
    }

    @Test
    void everyPackageHasItsReadersAndJavadoc() throws IOException {
        document("a.json", WIDGET, "");
        List<GeneratedSource> sources = BuiltinModels.generate(dir, "com.example.models", "v9.9.9", null);
        Map<String, GeneratedSource> byName =
                sources.stream().collect(Collectors.toMap(GeneratedSource::qualifiedName, Function.identity()));
        assertThat(byName.get("com.example.models.other.v1.JsonReaders").source())
                .contains("public static final JsonReaders<Condition> CONDITION = new JsonReaders<>(0);")
                .contains("public static final JsonReaders<Spec> SPEC = new JsonReaders<>(1);");
        assertThat(byName.get("com.example.models.example.v1.package-info").source())
                .contains("{@code example/v1}")
                .contains("Kubernetes v9.9.9");
        assertThat(byName).doesNotContainKey(".module-info");
    }
}
