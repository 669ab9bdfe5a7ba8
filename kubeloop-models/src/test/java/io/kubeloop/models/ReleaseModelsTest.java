package io.kubeloop.models;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubeloop.api.Kind;
import io.kubeloop.api.KubernetesObject;
import io.kubeloop.api.Scheme;
import io.kubeloop.api.json.KubeJson;
import io.kubeloop.models.apps.v1.Deployment;
import io.kubeloop.models.coordination.v1.Lease;
import io.kubeloop.models.core.v1.Node;
import io.kubeloop.models.core.v1.Pod;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The models cover the release: every object definition of Kubernetes' OpenAPI v3 documents has a record
 * in the package of its group and version (but the five kubeloop models with its own types), every kind
 * the documents serve as a resource has {@code @Kind} with the resource's plural and scope, and every
 * generated class is a record.
 */
class ReleaseModelsTest {

    /** Definitions modelled by kubeloop-api's types or by Java types, not generated. */
    private static final Set<String> NOT_GENERATED = Set.of(
            "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta",
            "io.k8s.apimachinery.pkg.apis.meta.v1.OwnerReference",
            "io.k8s.apimachinery.pkg.apis.meta.v1.ManagedFieldsEntry",
            "io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1",
            "io.k8s.apimachinery.pkg.apis.meta.v1.Patch",
            "io.k8s.apimachinery.pkg.runtime.RawExtension");

    /** The documents of the release the build generates the models from (the root POM's {@code kubernetes.release}). */
    static Path documents() {
        return Path.of("..", "kubernetes-openapi", System.getProperty("kubernetes.release", "v1.35.0"), "v3");
    }

    static Map<String, JsonNode> definitions() throws IOException {
        Map<String, JsonNode> definitions = new TreeMap<>();
        try (Stream<Path> files = Files.list(documents())) {
            for (Path file : files.sorted().toList()) {
                JsonNode doc = KubeJson.mapper().readTree(file.toFile());
                doc.path("components")
                        .path("schemas")
                        .properties()
                        .forEach(e -> definitions.put(e.getKey(), e.getValue()));
            }
        }
        return definitions;
    }

    @Test
    void everyObjectDefinitionHasARecordInItsGroupVersionPackage() throws IOException {
        Set<String> expected = new TreeSet<>();
        for (Map.Entry<String, JsonNode> e : definitions().entrySet()) {
            JsonNode schema = e.getValue();
            boolean object = "object".equals(schema.path("type").asString(""));
            if (object && !NOT_GENERATED.contains(e.getKey())) {
                String[] parts = e.getKey().split("\\.");
                expected.add("io.kubeloop.models." + parts[parts.length - 3].replace('-', '_') + "."
                        + parts[parts.length - 2] + "." + parts[parts.length - 1]);
            }
        }
        Set<String> generated = new TreeSet<>();
        for (Class<?> type : Models.records()) {
            assertThat(type.isRecord()).as("%s is a record", type).isTrue();
            generated.add(type.getName());
        }
        assertThat(expected).hasSizeGreaterThan(700);
        assertThat(generated).containsExactlyInAnyOrderElementsOf(expected);
    }

    @Test
    void everyKindServedAsAResourceHasItsPluralAndScope() throws IOException {
        Map<String, String> gvkToDefinition = new HashMap<>();
        definitions().forEach((name, schema) -> {
            JsonNode gvks = schema.path("x-kubernetes-group-version-kind");
            if (gvks.size() == 1) {
                JsonNode g = gvks.get(0);
                gvkToDefinition.put(
                        g.path("group").asString() + "/" + g.path("version").asString() + "/"
                                + g.path("kind").asString(),
                        name);
            }
        });
        // the collection paths of the documents: .../<plural> answering a kind's list or create
        Map<String, String> plurals = new TreeMap<>();
        Map<String, Boolean> namespaced = new HashMap<>();
        try (Stream<Path> files = Files.list(documents())) {
            for (Path file : files.sorted().toList()) {
                JsonNode doc = KubeJson.mapper().readTree(file.toFile());
                for (Map.Entry<String, JsonNode> path : doc.path("paths").properties()) {
                    String p = path.getKey();
                    if (p.contains("/watch/") || p.endsWith("}") || p.matches(".*\\{name}/.*")) {
                        continue; // watch paths, item paths, subresources
                    }
                    JsonNode post = path.getValue().path("post");
                    JsonNode list = path.getValue().path("get");
                    for (JsonNode op : List.of(post, list)) {
                        JsonNode g = op.path("x-kubernetes-group-version-kind");
                        String definition = gvkToDefinition.get(g.path("group").asString("") + "/"
                                + g.path("version").asString("") + "/"
                                + g.path("kind").asString(""));
                        if (definition != null && g.isObject()) {
                            String gvk = (g.path("group").asString().isEmpty()
                                            ? ""
                                            : g.path("group").asString() + "/")
                                    + g.path("version").asString() + "/"
                                    + g.path("kind").asString();
                            plurals.put(gvk, p.substring(p.lastIndexOf('/') + 1));
                            namespaced.merge(gvk, p.contains("/namespaces/{namespace}/"), Boolean::logicalOr);
                        }
                    }
                }
            }
        }
        Map<String, Class<?>> kinds = Models.kinds();
        assertThat(kinds.keySet()).containsExactlyInAnyOrderElementsOf(plurals.keySet());
        for (Map.Entry<String, String> e : plurals.entrySet()) {
            Kind kind = kinds.get(e.getKey()).getAnnotation(Kind.class);
            assertThat(kind.plural()).as("plural of %s", e.getKey()).isEqualTo(e.getValue());
            assertThat(kind.namespaced()).as("scope of %s", e.getKey()).isEqualTo(namespaced.get(e.getKey()));
            assertThat(KubernetesObject.class.isAssignableFrom(kinds.get(e.getKey())))
                    .as("%s is a KubernetesObject", e.getKey())
                    .isTrue();
        }
        assertThat(kinds)
                .containsEntry("apps/v1/Deployment", Deployment.class)
                .containsEntry("v1/Pod", Pod.class)
                .containsEntry("coordination.k8s.io/v1/Lease", Lease.class);
        assertThat(Node.class.getAnnotation(Kind.class).namespaced()).isFalse();
        assertThat(Deployment.class.getAnnotation(Kind.class).namespaced()).isTrue();
    }

    /** The models register every kind in the default scheme (their ModelSupport), as its type with its resource. */
    @Test
    void theDefaultSchemeMapsEveryKindToItsRecord() {
        Scheme defaults = Scheme.defaults();
        for (Class<?> type : Models.kinds().values()) {
            var gvk = defaults.gvkOf(type).orElseThrow();
            assertThat(defaults.typeOf(gvk)).as("type of %s", gvk).contains(type);
            assertThat(defaults.mappingOf(gvk).orElseThrow().resource())
                    .isEqualTo(type.getAnnotation(Kind.class).plural());
        }
        assertThat(defaults.kinds()).hasSize(Models.kinds().size());
    }
}
