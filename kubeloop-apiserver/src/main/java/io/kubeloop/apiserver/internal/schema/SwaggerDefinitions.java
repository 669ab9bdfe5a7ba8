package io.kubeloop.apiserver.internal.schema;

import io.kubeloop.api.GroupVersionKind;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import tools.jackson.databind.JsonNode;

/**
 * Reads the {@code definitions} of a Swagger 2.0 document — the form of Kubernetes' published
 * {@code swagger.json} and of the server's {@code /openapi/v2} — into structural schemas, one node per
 * named definition, shared by every place that references it ({@code $ref: #/definitions/<name>}), so
 * that recursive types (JSONSchemaProps) stay finite. Besides the keywords a CRD schema may use, it reads
 * the strategic-merge extensions ({@code x-kubernetes-patch-merge-key}, {@code x-kubernetes-patch-strategy}),
 * a definition of format {@code int-or-string} as an int-or-string, a definition of type object (or of no
 * type) that declares no properties as free-form ({@code x-kubernetes-preserve-unknown-fields}: FieldsV1,
 * RawExtension, JSON hold any JSON), and the kinds a definition is the schema of
 * ({@code x-kubernetes-group-version-kind}).
 *
 * <p>A reference with a description, patch strategy or map type beside it is read as a
 * {@linkplain StructuralSchema#referencedAt place} of the definition carrying those marks.
 *
 * <p>A named definition must be an object, a scalar or free-form (no {@code items} or
 * {@code additionalProperties} of its own), as every definition Kubernetes publishes is; a reference to
 * a name the document does not define fails.
 *
 * <p>Stateless; thread-safe.
 */
final class SwaggerDefinitions {

    private static final String REF_PREFIX = "#/definitions/";
    private static final String GVK = "x-kubernetes-group-version-kind";

    /**
     * The definitions read.
     *
     * @param definitions every definition by name, sorted by name
     * @param kinds the definition of each kind, in definition-name order
     */
    record Read(Map<String, StructuralSchema> definitions, Map<GroupVersionKind, StructuralSchema> kinds) {}

    private SwaggerDefinitions() {}

    /**
     * Reads {@code document}'s definitions.
     *
     * @throws IllegalArgumentException when a reference names no definition, or a definition is an array
     *     or map
     */
    static Read read(JsonNode document) {
        JsonNode defs = document.path("definitions");
        Map<String, StructuralSchema.Builder> builders = new HashMap<>();
        Map<String, StructuralSchema> nodes = new TreeMap<>();
        // first every named node, empty, so that references (recursive ones too) resolve to it ...
        for (Map.Entry<String, JsonNode> e : defs.properties()) {
            JsonNode body = e.getValue();
            if (body.has("items") || body.has("additionalProperties")) {
                throw new IllegalArgumentException("definition " + e.getKey() + " is an array or map");
            }
            StructuralSchema.Builder b = builder(body).definitionName(e.getKey());
            if (!body.has("properties") && (b.type.isEmpty() || b.type.equals("object"))) {
                // FieldsV1, RawExtension, JSON: any JSON at all, as Go decodes them
                b.preserveUnknownFields = true;
            }
            builders.put(e.getKey(), b);
            nodes.put(e.getKey(), b.build());
        }
        // ... then their properties, into the maps the nodes show
        for (Map.Entry<String, JsonNode> e : defs.properties()) {
            StructuralSchema.Builder b = builders.get(e.getKey());
            for (Map.Entry<String, JsonNode> p : e.getValue().path("properties").properties()) {
                b.property(p.getKey(), schema(p.getValue(), nodes));
            }
        }
        Map<GroupVersionKind, StructuralSchema> kinds = new LinkedHashMap<>();
        nodes.forEach((name, node) -> {
            for (JsonNode gvk : defs.path(name).path(GVK)) {
                kinds.put(
                        new GroupVersionKind(
                                gvk.path("group").asString(""),
                                gvk.path("version").asString(""),
                                gvk.path("kind").asString("")),
                        node);
            }
        });
        return new Read(Collections.unmodifiableMap(nodes), Collections.unmodifiableMap(kinds));
    }

    /** An inline schema object (or a reference to a definition). */
    private static StructuralSchema schema(JsonNode n, Map<String, StructuralSchema> nodes) {
        JsonNode ref = n.get("$ref");
        if (ref != null) {
            StructuralSchema d = resolve(ref.asString(""), nodes);
            if (n.size() == 1) {
                return d;
            }
            // a description or extension beside the reference belongs to this place alone
            return d.referencedAt(
                    n.path("description").asString(""),
                    n.path("x-kubernetes-patch-strategy").asString(d.patchStrategy()),
                    n.path("x-kubernetes-map-type").asString(d.mapType()));
        }
        StructuralSchema.Builder b = builder(n);
        for (Map.Entry<String, JsonNode> p : n.path("properties").properties()) {
            b.property(p.getKey(), schema(p.getValue(), nodes));
        }
        JsonNode items = n.get("items");
        if (items != null && items.isObject()) {
            b.items(schema(items, nodes));
        }
        JsonNode values = n.get("additionalProperties");
        if (values != null && values.isObject()) {
            b.additionalProperties(schema(values, nodes));
        }
        return b.build();
    }

    private static StructuralSchema resolve(String ref, Map<String, StructuralSchema> nodes) {
        StructuralSchema s = ref.startsWith(REF_PREFIX) ? nodes.get(ref.substring(REF_PREFIX.length())) : null;
        if (s == null) {
            throw new IllegalArgumentException("reference to no definition: " + ref);
        }
        return s;
    }

    /** The keywords of {@code n} that are not schemas. */
    private static StructuralSchema.Builder builder(JsonNode n) {
        StructuralSchema.Builder b = SchemaParser.attributes(n);
        b.patchMergeKey = n.path("x-kubernetes-patch-merge-key").asString("");
        b.patchStrategy = n.path("x-kubernetes-patch-strategy").asString("");
        if ("int-or-string".equals(b.format)) {
            b.intOrString = true;
        }
        return b;
    }
}
