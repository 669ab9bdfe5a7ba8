package io.kubeloop.apiserver.internal.schema;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Removes fields a structural schema does not specify, as apiextensions-apiserver's
 * {@code pruning.PruneWithOptions} does with unknown-field tracking on: the root is treated as an
 * embedded resource (apiVersion, kind, metadata kept), nothing under
 * {@code x-kubernetes-preserve-unknown-fields} is removed, and metadata of the root and of embedded
 * resources is checked against ObjectMeta as the real server's metadata coercion does. Stateless.
 */
final class Pruner {

    private final List<String> unknown = new ArrayList<>();

    private Pruner() {}

    static List<String> prune(ObjectNode object, StructuralSchema schema) {
        Pruner p = new Pruner();
        p.object(object, schema, "", true);
        List<String> sorted = new ArrayList<>(p.unknown);
        sorted.sort(null);
        return List.copyOf(sorted);
    }

    private static String child(String parent, String key) {
        return parent.isEmpty() ? key : parent + "." + key;
    }

    private void value(JsonNode v, StructuralSchema s, String path) {
        if (v instanceof ObjectNode o) {
            object(o, s, path, s != null && s.embeddedResource());
        } else if (v != null && v.isArray()) {
            StructuralSchema items = s == null ? null : s.items().orElse(null);
            boolean skip = s != null && s.preserveUnknownFields();
            for (int i = 0; i < v.size(); i++) {
                String p = path + "[" + i + "]";
                if (skip) {
                    skipValue(v.get(i), items, p);
                } else {
                    value(v.get(i), items, p);
                }
            }
        }
    }

    private void object(ObjectNode o, StructuralSchema s, String path, boolean resource) {
        if (s != null && s.preserveUnknownFields()) {
            skipObject(o, s, path, resource);
            return;
        }
        Iterator<Map.Entry<String, JsonNode>> it = o.properties().iterator();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            String k = e.getKey();
            if (resource && SchemaParser.isMetaField(k)) {
                if (k.equals("metadata")) {
                    metadata(e.getValue(), path);
                }
                continue;
            }
            StructuralSchema prop = s == null ? null : s.properties().get(k);
            if (prop != null) {
                value(e.getValue(), prop, child(path, k));
            } else if (s != null && s.additionalProperties().isPresent()) {
                value(e.getValue(), s.additionalProperties().get(), child(path, k));
            } else {
                unknown.add(child(path, k));
                it.remove();
            }
        }
    }

    /** Under preserve-unknown-fields: keep unknown keys, but prune inside specified ones. */
    private void skipObject(ObjectNode o, StructuralSchema s, String path, boolean resource) {
        for (Map.Entry<String, JsonNode> e : o.properties()) {
            String k = e.getKey();
            if (resource && SchemaParser.isMetaField(k)) {
                if (k.equals("metadata")) {
                    metadata(e.getValue(), path);
                }
                continue;
            }
            StructuralSchema prop = s.properties().get(k);
            if (prop != null) {
                value(e.getValue(), prop, child(path, k));
            } else if (s.additionalProperties().isPresent()) {
                value(e.getValue(), s.additionalProperties().get(), child(path, k));
            }
        }
    }

    private void skipValue(JsonNode v, StructuralSchema s, String path) {
        if (s == null) {
            return;
        }
        if (v instanceof ObjectNode o) {
            skipObject(o, s, path, s.embeddedResource());
        } else if (v != null && v.isArray()) {
            StructuralSchema items = s.items().orElse(null);
            for (int i = 0; i < v.size(); i++) {
                skipValue(v.get(i), items, path + "[" + i + "]");
            }
        }
    }

    private void metadata(JsonNode metadata, String parent) {
        if (metadata instanceof ObjectNode m) {
            object(m, BuiltinSchemas.objectMeta(), child(parent, "metadata"), false);
        }
    }
}
