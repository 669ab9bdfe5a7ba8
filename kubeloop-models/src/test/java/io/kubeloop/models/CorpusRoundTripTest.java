package io.kubeloop.models;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.Quantity;
import io.kubeloop.api.json.JsonBytesReader;
import io.kubeloop.api.json.KubeJson;
import io.kubeloop.api.json.ModelDeserializer;
import io.kubeloop.api.yaml.KubeYaml;
import java.io.IOException;
import java.lang.reflect.RecordComponent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.databind.node.StringNode;

/**
 * Real manifests of built-in kinds from public projects ({@code corpus/README.md} names them) read into the
 * records — through Jackson and straight from the bytes, which agree — and written back are the manifest
 * again as JSON: the same fields with the same values, numbers compared by value ({@code 1} and {@code 1.0}
 * are one JSON number). Two differences are Kubernetes' own and are allowed: an explicit {@code null} is not
 * kept (Go's encoding drops it as well), and a quantity written as a YAML number comes back as a string
 * (Kubernetes always writes quantities as strings).
 */
class CorpusRoundTripTest {

    /** Kinds of the corpus that Kubernetes v1.35 no longer serves: there is no model to read them into. */
    private static final Set<String> NOT_IN_THE_RELEASE = Set.of("policy/v1beta1/PodDisruptionBudget");

    private static final Map<String, Class<?>> KINDS = Models.kinds();

    record Manifest(String file, int index, JsonNode object) {
        @Override
        public String toString() {
            return file + "#" + index + " " + object.path("kind").asString();
        }
    }

    static Stream<Manifest> manifests() throws IOException {
        Path root = Path.of("src/test/resources/corpus");
        List<Manifest> out = new ArrayList<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path file :
                    files.filter(p -> p.toString().endsWith(".yaml")).sorted().toList()) {
                List<DynamicObject> objects = KubeYaml.readAll(file);
                for (int i = 0; i < objects.size(); i++) {
                    out.add(new Manifest(
                            root.relativize(file).toString(), i, objects.get(i).node()));
                }
            }
        }
        return out.stream();
    }

    @Test
    void theCorpusIsLargeAndVaried() throws IOException {
        List<Manifest> all = manifests().toList();
        assertThat(all).hasSizeGreaterThanOrEqualTo(100);
        assertThat(all.stream()
                        .map(m -> m.file().substring(0, m.file().indexOf('/')))
                        .distinct())
                .hasSizeGreaterThanOrEqualTo(3);
        assertThat(all.stream().map(m -> m.object().path("kind").asString()).distinct())
                .hasSizeGreaterThanOrEqualTo(30);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("manifests")
    void readsAndWritesBackTheManifest(Manifest manifest) throws Exception {
        String apiVersion = manifest.object().path("apiVersion").asString();
        String kind = manifest.object().path("kind").asString();
        if (NOT_IN_THE_RELEASE.contains(apiVersion + "/" + kind)) {
            assertThat(KINDS).doesNotContainKey(apiVersion + "/" + kind);
            return;
        }
        Class<?> type = typeOf(apiVersion, kind);
        byte[] json = KubeJson.mapper().writeValueAsBytes(manifest.object());

        Object viaJackson = KubeJson.mapper().readValue(json, type);
        Object viaBytes = readFromBytes(type, json);
        assertThat(viaBytes).as("read straight from the bytes").isEqualTo(viaJackson);

        JsonNode written = KubeJson.mapper().valueToTree(viaJackson);
        List<String> differences = new ArrayList<>();
        diff(expected(manifest.object(), viaJackson), written, "", differences);
        assertThat(differences)
                .as("where the written object differs from the manifest")
                .isEmpty();
    }

    private static <T> T readFromBytes(Class<T> type, byte[] json) {
        ModelDeserializer<T> model = JsonBytesReader.modelOf(type).orElseThrow();
        T read = new JsonBytesReader(KubeJson.mapper()).read(model, json, 0, json.length);
        assertThat(read)
                .as("the byte reader reads it without falling back to Jackson")
                .isNotNull();
        return read;
    }

    /** The record of a kind, or of its list ({@code RoleList}: the package of {@code Role}). */
    private static Class<?> typeOf(String apiVersion, String kind) throws ClassNotFoundException {
        Class<?> type = KINDS.get(apiVersion + "/" + kind);
        if (type == null && kind.endsWith("List")) {
            Class<?> item = KINDS.get(apiVersion + "/" + kind.substring(0, kind.length() - 4));
            type = Class.forName(item.getPackageName() + "." + kind);
        }
        assertThat(type).as("a model of %s %s", apiVersion, kind).isNotNull();
        return type;
    }

    /**
     * The manifest as the records write it: explicit nulls dropped, and numbers read as quantities as
     * their text.
     */
    private static JsonNode expected(JsonNode original, Object model) {
        if (model instanceof Quantity && original.isNumber()) {
            return StringNode.valueOf(original.asString());
        }
        if (original.isObject()) {
            ObjectNode out = KubeJson.mapper().createObjectNode();
            for (Map.Entry<String, JsonNode> e : original.properties()) {
                if (!e.getValue().isNull()) {
                    out.set(e.getKey(), expected(e.getValue(), field(model, e.getKey())));
                }
            }
            return out;
        }
        if (original.isArray()) {
            ArrayNode out = KubeJson.mapper().createArrayNode();
            List<?> items = model instanceof List<?> l ? l : List.of();
            for (int i = 0; i < original.size(); i++) {
                out.add(expected(original.get(i), i < items.size() ? items.get(i) : null));
            }
            return out;
        }
        return original;
    }

    /** Adds the paths where {@code actual} differs from {@code expected}, with both values. */
    private static void diff(JsonNode expected, JsonNode actual, String path, List<String> out) {
        if (expected.isObject() && actual.isObject()) {
            Set<String> names = new TreeSet<>(expected.propertyNames());
            names.addAll(actual.propertyNames());
            for (String name : names) {
                diff(expected.path(name), actual.path(name), path + "." + name, out);
            }
        } else if (expected.isArray() && actual.isArray() && expected.size() == actual.size()) {
            for (int i = 0; i < expected.size(); i++) {
                diff(expected.get(i), actual.get(i), path + "[" + i + "]", out);
            }
        } else if (expected.isNumber() && actual.isNumber()) {
            if (expected.decimalValue().compareTo(actual.decimalValue()) != 0) {
                out.add(path + ": " + expected + " -> " + actual);
            }
        } else if (!expected.equals(actual)) {
            out.add(path + ": " + expected + " -> " + actual);
        }
    }

    /** The value of the JSON field {@code name} of a record or map, or null. */
    private static Object field(Object model, String name) {
        if (model instanceof Map<?, ?> map) {
            return map.get(name);
        }
        if (model == null || !model.getClass().isRecord()) {
            return null;
        }
        try {
            for (RecordComponent c : model.getClass().getRecordComponents()) {
                JsonProperty p = c.getAnnotation(JsonProperty.class);
                if ((p != null ? p.value() : c.getName()).equals(name)) {
                    return c.getAccessor().invoke(model);
                }
            }
            Map<?, ?> unknown =
                    (Map<?, ?>) model.getClass().getMethod("unknownFields").invoke(model);
            return unknown == null ? null : unknown.get(name);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }
}
