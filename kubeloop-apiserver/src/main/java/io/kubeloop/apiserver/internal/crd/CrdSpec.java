package io.kubeloop.apiserver.internal.crd;

import io.kubeloop.api.json.KubeJson;
import io.kubeloop.apiserver.internal.registry.ResourceDefinition;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The parts of a {@code CustomResourceDefinition} (apiextensions.k8s.io/v1) the server acts on, read
 * from its JSON. Parsing is lenient (absent fields become empty values); {@link CrdValidation} is what
 * rejects bad definitions.
 *
 * <p>Immutable and thread-safe.
 *
 * @param name {@code metadata.name} ({@code <plural>.<group>})
 * @param group {@code spec.group}
 * @param names {@code spec.names} (requested names)
 * @param namespaced {@code spec.scope == Namespaced}
 * @param versions {@code spec.versions} in declaration order
 * @param conversion {@code spec.conversion} (an empty object when absent)
 */
record CrdSpec(
        String name, String group, Names names, boolean namespaced, List<Version> versions, JsonNode conversion) {

    public CrdSpec {
        versions = List.copyOf(versions);
    }

    /**
     * {@code spec.names} or {@code status.acceptedNames}.
     *
     * @param plural e.g. {@code foos}
     * @param singular e.g. {@code foo}
     * @param kind e.g. {@code Foo}
     * @param listKind e.g. {@code FooList}
     * @param shortNames e.g. {@code fo}
     * @param categories e.g. {@code all}
     */
    public record Names(
            String plural,
            String singular,
            String kind,
            String listKind,
            List<String> shortNames,
            List<String> categories) {

        public Names {
            shortNames = List.copyOf(shortNames);
            categories = List.copyOf(categories);
        }

        /** Reads a names object ({@code spec.names} or {@code status.acceptedNames}). */
        public static Names of(JsonNode n) {
            return new Names(
                    n.path("plural").asString(""),
                    n.path("singular").asString(""),
                    n.path("kind").asString(""),
                    n.path("listKind").asString(""),
                    strings(n.path("shortNames")),
                    strings(n.path("categories")));
        }

        /** These names as JSON, in the real server's field order. */
        public void writeTo(ObjectNode target) {
            target.removeAll();
            target.put("plural", plural);
            if (!singular.isEmpty()) {
                target.put("singular", singular);
            }
            if (!shortNames.isEmpty()) {
                shortNames.forEach(target.putArray("shortNames")::add);
            }
            target.put("kind", kind);
            if (!listKind.isEmpty()) {
                target.put("listKind", listKind);
            }
            if (!categories.isEmpty()) {
                categories.forEach(target.putArray("categories")::add);
            }
        }
    }

    /**
     * One entry of {@code spec.versions}.
     *
     * @param name e.g. {@code v1alpha1}
     * @param served answered over HTTP
     * @param storage the version objects are stored in
     * @param schema {@code schema.openAPIV3Schema}, or null
     * @param status {@code subresources.status} is declared
     * @param scale {@code subresources.scale} paths, or null
     * @param columns {@code additionalPrinterColumns}
     */
    public record Version(
            String name,
            boolean served,
            boolean storage,
            JsonNode schema,
            boolean status,
            ResourceDefinition.ScalePaths scale,
            List<Column> columns) {

        public Version {
            columns = List.copyOf(columns);
        }
    }

    /**
     * One {@code additionalPrinterColumns} entry.
     *
     * @param name header
     * @param type integer, number, string, boolean or date
     * @param format optional OpenAPI format
     * @param description column description
     * @param priority 0 = always shown, more = {@code -o wide}
     * @param jsonPath the JSONPath evaluated against each object
     */
    public record Column(String name, String type, String format, String description, int priority, String jsonPath) {}

    /** Reads a CRD object. */
    public static CrdSpec of(JsonNode crd) {
        JsonNode spec = crd.path("spec");
        List<Version> versions = new ArrayList<>();
        for (JsonNode v : spec.path("versions")) {
            JsonNode sub = v.path("subresources");
            JsonNode scale = sub.get("scale");
            ResourceDefinition.ScalePaths paths = scale == null || !scale.isObject()
                    ? null
                    : new ResourceDefinition.ScalePaths(
                            scale.path("specReplicasPath").asString(""),
                            scale.path("statusReplicasPath").asString(""),
                            scale.path("labelSelectorPath").asString(""));
            List<Column> columns = new ArrayList<>();
            for (JsonNode c : v.path("additionalPrinterColumns")) {
                columns.add(new Column(
                        c.path("name").asString(""),
                        c.path("type").asString(""),
                        c.path("format").asString(""),
                        c.path("description").asString(""),
                        c.path("priority").asInt(0),
                        c.path("jsonPath").asString("")));
            }
            JsonNode schema = v.path("schema").get("openAPIV3Schema");
            versions.add(new Version(
                    v.path("name").asString(""),
                    v.path("served").asBoolean(false),
                    v.path("storage").asBoolean(false),
                    schema == null || schema.isNull() ? null : schema,
                    sub.get("status") != null && sub.get("status").isObject(),
                    paths,
                    columns));
        }
        return new CrdSpec(
                crd.path("metadata").path("name").asString(""),
                spec.path("group").asString(""),
                Names.of(spec.path("names")),
                "Namespaced".equals(spec.path("scope").asString("")),
                versions,
                spec.path("conversion").isObject()
                        ? spec.path("conversion").deepCopy()
                        : KubeJson.mapper().createObjectNode());
    }

    /** The version marked {@code storage: true}. */
    public Optional<Version> storageVersion() {
        return versions.stream().filter(Version::storage).findFirst();
    }

    static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        if (array != null && array.isArray()) {
            array.forEach(n -> out.add(n.asString()));
        }
        return out;
    }
}
