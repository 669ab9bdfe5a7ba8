package io.kubeloop.api.yaml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.KubernetesObject;
import io.kubeloop.api.ObjectMeta;
import io.kubeloop.api.json.KubeJson;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/** Kubernetes YAML streams read as kubectl reads manifests and written as it prints objects. */
public class KubeYamlTest {

    public record Widget(String apiVersion, String kind, ObjectMeta metadata, Spec spec) implements KubernetesObject {}

    public record Spec(int size, List<String> colors) {}

    private static final String MANIFESTS = """
            # a comment before the first document
            apiVersion: v1
            kind: ConfigMap
            metadata:
              name: one
              namespace: default
            data:
              flag: "true"
              count: "3"
            ---
            ---
            # only a comment: an empty document
            ---
            apiVersion: v1
            kind: List
            items:
            - apiVersion: v1
              kind: Secret
              metadata:
                name: two
            - apiVersion: v1
              kind: Service
              metadata:
                name: three
            ---
            apiVersion: apps/v1
            kind: Deployment
            metadata:
              name: four
            spec:
              replicas: 2
            """;

    @Test
    void readsEveryDocumentSkippingEmptyOnesAndExpandingLists() {
        List<DynamicObject> objects = KubeYaml.readAll(MANIFESTS);

        assertThat(objects)
                .extracting(DynamicObject::kind)
                .containsExactly("ConfigMap", "Secret", "Service", "Deployment");
        assertThat(objects).extracting(o -> o.metadata().name()).containsExactly("one", "two", "three", "four");
        assertThat(objects.getFirst().node().path("data").path("flag").isString())
                .as("a quoted scalar stays a string")
                .isTrue();
        assertThat(objects.getLast().node().path("spec").path("replicas").isInt())
                .isTrue();
    }

    @Test
    void readsTypedObjectsWithTheJsonBinding() {
        Widget w = KubeYaml.read("""
                apiVersion: example.com/v1
                kind: Widget
                metadata: {name: w, labels: {app: x}}
                spec:
                  size: 3
                  colors: [red, blue]
                  unknownField: ignored, as in JSON
                """, Widget.class);

        assertThat(w.metadata().name()).isEqualTo("w");
        assertThat(w.metadata().labels()).containsEntry("app", "x");
        assertThat(w.spec()).isEqualTo(new Spec(3, List.of("red", "blue")));
        assertThat(KubeYaml.readAll(MANIFESTS, Deployment.class)
                        .getLast()
                        .getSpec()
                        .getReplicas())
                .isEqualTo(2);
    }

    @Test
    void writesAsKubectlPrintsAndReadsBackToTheSameJson() throws Exception {
        Map<String, String> data = new LinkedHashMap<>();
        for (String tricky : List.of(
                "true",
                "yes",
                "on",
                "no",
                "null",
                "~",
                "123",
                "1.5",
                "1e3",
                "0x1F",
                "",
                " lead",
                "trail ",
                "a: b",
                "#hash",
                "- dash",
                "multi\nline",
                "quote\"s",
                "it's",
                "@at",
                "{x}",
                "[y]",
                "*star",
                "&amp",
                "!bang",
                "%pct",
                "2024-01-02",
                "ünïcødé")) {
            data.put("k" + data.size(), tricky);
        }
        ConfigMap cm = new ConfigMapBuilder()
                .withNewMetadata()
                .withName("cm")
                .withNamespace("default")
                .addToLabels("app", "web")
                .endMetadata()
                .withData(data)
                .build();

        String yaml = KubeYaml.write(cm);

        assertThat(yaml).startsWith("apiVersion: v1\n").doesNotStartWith("---");
        assertThat(yaml).contains("  name: cm\n").contains("  labels:\n    app: web\n");
        assertThat(yaml).contains("k0: \"true\"").contains("k6: \"123\"");
        ConfigMap back = KubeYaml.read(yaml, ConfigMap.class);
        JsonNode expected = KubeJson.mapper().valueToTree(cm);
        JsonNode actual = KubeJson.mapper().valueToTree(back);
        assertThat(actual).isEqualTo(expected);
    }

    @Test
    void writesSeveralObjectsAsDocumentsThatReadBackInOrder() {
        List<DynamicObject> objects = KubeYaml.readAll(MANIFESTS);

        String yaml = KubeYaml.writeAll(objects);

        assertThat(yaml.split("(?m)^---$", -1)).hasSize(4);
        assertThat(KubeYaml.readAll(yaml))
                .extracting(DynamicObject::node)
                .containsExactlyElementsOf(
                        objects.stream().map(DynamicObject::node).toList());
        assertThat(KubeYaml.writeAll(List.of())).isEmpty();
    }

    @Test
    void readsFilesAndReaders(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("m.yaml");
        Files.writeString(file, MANIFESTS);

        assertThat(KubeYaml.readAll(file)).hasSize(4);
        assertThat(KubeYaml.readAll(new StringReader(MANIFESTS))).hasSize(4);
        assertThatThrownBy(() -> KubeYaml.readAll(dir.resolve("missing.yaml")))
                .isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining("missing.yaml");
    }

    @Test
    void malformedYamlNamesTheDocumentAndLine() {
        String yaml = """
                apiVersion: v1
                kind: ConfigMap
                metadata:
                  name: ok
                ---
                apiVersion: v1
                kind: ConfigMap
                metadata:
                  name: [unclosed
                """;

        assertThatThrownBy(() -> KubeYaml.readAll(yaml))
                .isInstanceOfSatisfying(YamlException.class, e -> {
                    assertThat(e.document()).isEqualTo(2);
                    assertThat(e.line()).isGreaterThanOrEqualTo(9);
                })
                .hasMessageStartingWith("YAML document 2, line ");
    }

    @Test
    void aDocumentThatIsNotAMappingIsRefused() {
        assertThatThrownBy(() -> KubeYaml.readAll("apiVersion: v1\nkind: A\n---\n- a\n- b\n"))
                .isInstanceOfSatisfying(
                        YamlException.class, e -> assertThat(e.document()).isEqualTo(2))
                .hasMessageContaining("must be a mapping, found a sequence");
    }

    @Test
    void aDocumentThatDoesNotBindNamesTheDocumentAndType() {
        assertThatThrownBy(() -> KubeYaml.readAll(
                        "apiVersion: v1\nkind: Widget\n---\napiVersion: v1\nkind: Widget\nspec:\n  size: big\n",
                        Widget.class))
                .isInstanceOfSatisfying(
                        YamlException.class, e -> assertThat(e.document()).isEqualTo(2))
                .hasMessageStartingWith("YAML document 2: cannot read as Widget");
    }

    @Test
    void readExpectsExactlyOneObject() {
        assertThatThrownBy(() -> KubeYaml.read(MANIFESTS, DynamicObject.class))
                .isInstanceOf(YamlException.class)
                .hasMessageContaining("expected exactly one object, found 4");
        assertThatThrownBy(() -> KubeYaml.read("# nothing\n", DynamicObject.class))
                .hasMessageContaining("found 0");
    }
}
