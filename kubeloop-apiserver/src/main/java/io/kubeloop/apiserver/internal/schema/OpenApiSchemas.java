package io.kubeloop.apiserver.internal.schema;

import io.kubeloop.api.GroupVersionKind;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Writes {@link StructuralSchema}s as OpenAPI schema objects (3.0 for {@code /openapi/v3},
 * Swagger 2.0 for {@code /openapi/v2}) and collects the named definitions they reference, so a
 * document carries exactly the closure it needs. Named nodes become references
 * ({@code #/components/schemas/<name>} or {@code #/definitions/<name>}); object-valued properties are
 * wrapped as {@code allOf: [{$ref}]} in v3, as the real server writes them. Vendor extensions
 * ({@code x-kubernetes-*}, including the strategic-merge keys kubectl's client-side apply reads) are
 * kept.
 *
 * <p>Not thread-safe: one instance builds one document.
 */
public final class OpenApiSchemas {

    public static final String OBJECT_META = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta";
    public static final String LIST_META = "io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta";
    public static final String STATUS = "io.k8s.apimachinery.pkg.apis.meta.v1.Status";
    public static final String PATCH = "io.k8s.apimachinery.pkg.apis.meta.v1.Patch";
    public static final String DELETE_OPTIONS = "io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions";
    public static final String GVK_EXTENSION = "x-kubernetes-group-version-kind";

    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private final boolean v2;
    private final Map<String, ObjectNode> definitions = new TreeMap<>();
    private final Set<String> inProgress = new HashSet<>();

    public OpenApiSchemas(boolean v2) {
        this.v2 = v2;
    }

    public boolean v2() {
        return v2;
    }

    /** The definitions collected so far, sorted by name. */
    public Map<String, ObjectNode> definitions() {
        return definitions;
    }

    String ref(String name) {
        return (v2 ? "#/definitions/" : "#/components/schemas/") + name;
    }

    public ObjectNode refNode(String name) {
        return F.objectNode().put("$ref", ref(name));
    }

    /** A property pointing at a definition: {@code allOf: [{$ref}]} in v3, a plain {@code $ref} in v2. */
    public ObjectNode propertyRef(String name, String description) {
        ObjectNode n;
        if (v2) {
            n = refNode(name);
        } else {
            n = F.objectNode();
            n.putArray("allOf").add(refNode(name));
        }
        if (!description.isEmpty()) {
            n.put("description", description);
        }
        return n;
    }

    /** Ensures a named definition (and everything it references) is in the document. */
    public void require(StructuralSchema schema) {
        StructuralSchema named = schema.referenced();
        String name = named.definitionName();
        if (name.isEmpty() || definitions.containsKey(name) || inProgress.contains(name)) {
            return;
        }
        inProgress.add(name);
        ObjectNode body = body(named);
        inProgress.remove(name);
        definitions.put(name, body);
    }

    /** Adds a definition with a given body (CRD kinds, the fixed meta types). */
    public void define(String name, ObjectNode body) {
        definitions.put(name, body);
    }

    /** Marks a collected definition as the schema of a kind. */
    public void tagKind(String name, GroupVersionKind gvk) {
        ObjectNode def = definitions.get(name);
        if (def != null) {
            ArrayNode list = def.has(GVK_EXTENSION) ? (ArrayNode) def.get(GVK_EXTENSION) : def.putArray(GVK_EXTENSION);
            list.add(gvkNode(gvk));
        }
    }

    public static ObjectNode gvkNode(GroupVersionKind gvk) {
        return F.objectNode().put("group", gvk.group()).put("kind", gvk.kind()).put("version", gvk.version());
    }

    /** A schema in a child position: a reference when named, else inline. */
    JsonNode child(StructuralSchema s, boolean property) {
        if (!s.definitionName().isEmpty()) {
            StructuralSchema definition = s.referenced();
            require(definition);
            ObjectNode ref = property ? propertyRef(s.definitionName(), "") : refNode(s.definitionName());
            if (s != definition) {
                // the marks of this place, beside the reference
                if (!s.description().isEmpty()) {
                    ref.put("description", s.description());
                }
                if (!s.patchStrategy().equals(definition.patchStrategy())) {
                    ref.put("x-kubernetes-patch-strategy", s.patchStrategy());
                }
                if (!s.mapType().equals(definition.mapType())) {
                    ref.put("x-kubernetes-map-type", s.mapType());
                }
            }
            return ref;
        }
        return body(s);
    }

    /** The full schema object of a node. */
    public ObjectNode body(StructuralSchema s) {
        ObjectNode n = F.objectNode();
        if (!s.type().isEmpty()) {
            n.put("type", s.type());
        }
        if (!s.format().isEmpty()) {
            n.put("format", s.format());
        }
        if (!s.description().isEmpty()) {
            n.put("description", s.description());
        }
        if (s.nullable() && !v2) {
            n.put("nullable", true);
        }
        if (!s.enumValues().isEmpty()) {
            ArrayNode e = n.putArray("enum");
            s.enumValues().forEach(e::add);
        }
        s.defaultValue().ifPresent(d -> n.set("default", d));
        putNumber(n, "minimum", s.minimum());
        putNumber(n, "maximum", s.maximum());
        if (s.exclusiveMinimum()) {
            n.put("exclusiveMinimum", true);
        }
        if (s.exclusiveMaximum()) {
            n.put("exclusiveMaximum", true);
        }
        putNumber(n, "multipleOf", s.multipleOf());
        putLong(n, "minLength", s.minLength());
        putLong(n, "maxLength", s.maxLength());
        putLong(n, "minItems", s.minItems());
        putLong(n, "maxItems", s.maxItems());
        putLong(n, "minProperties", s.minProperties());
        putLong(n, "maxProperties", s.maxProperties());
        if (s.patternSource() != null) {
            n.put("pattern", s.patternSource());
        }
        if (!s.required().isEmpty()) {
            ArrayNode r = n.putArray("required");
            s.required().forEach(r::add);
        }
        if (!s.properties().isEmpty()) {
            ObjectNode props = n.putObject("properties");
            for (Map.Entry<String, StructuralSchema> p : s.properties().entrySet()) {
                props.set(p.getKey(), child(p.getValue(), true));
            }
        }
        s.additionalProperties().ifPresent(ap -> n.set("additionalProperties", child(ap, false)));
        s.items().ifPresent(items -> n.set("items", child(items, false)));
        junctor(n, "allOf", s.allOf());
        if (!v2) {
            junctor(n, "anyOf", s.anyOf());
            junctor(n, "oneOf", s.oneOf());
            if (s.not() != null) {
                n.set("not", body(s.not()));
            }
        }
        extensions(n, s);
        return n;
    }

    private void extensions(ObjectNode n, StructuralSchema s) {
        if (s.intOrString() && s.definitionName().isEmpty()) {
            n.put("x-kubernetes-int-or-string", true);
        }
        if (s.preserveUnknownFields()) {
            n.put("x-kubernetes-preserve-unknown-fields", true);
        }
        if (s.embeddedResource()) {
            n.put("x-kubernetes-embedded-resource", true);
        }
        if (!s.listType().isEmpty()) {
            n.put("x-kubernetes-list-type", s.listType());
        }
        if (!s.listMapKeys().isEmpty()) {
            ArrayNode keys = n.putArray("x-kubernetes-list-map-keys");
            s.listMapKeys().forEach(keys::add);
        }
        if (!s.mapType().isEmpty()) {
            n.put("x-kubernetes-map-type", s.mapType());
        }
        if (!s.patchMergeKey().isEmpty()) {
            n.put("x-kubernetes-patch-merge-key", s.patchMergeKey());
        }
        if (!s.patchStrategy().isEmpty()) {
            n.put("x-kubernetes-patch-strategy", s.patchStrategy());
        }
    }

    private void junctor(ObjectNode n, String name, List<StructuralSchema> list) {
        if (!list.isEmpty()) {
            ArrayNode a = n.putArray(name);
            list.forEach(s -> a.add(body(s)));
        }
    }

    private static void putNumber(ObjectNode n, String key, Double v) {
        if (v != null) {
            if (v == Math.rint(v) && Math.abs(v) < 1e15) {
                n.put(key, v.longValue());
            } else {
                n.put(key, v);
            }
        }
    }

    private static void putLong(ObjectNode n, String key, Long v) {
        if (v != null) {
            n.put(key, v);
        }
    }
}
