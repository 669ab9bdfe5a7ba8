package io.kubeloop.apiserver.internal.schema;

import java.util.Iterator;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Schema defaulting and null removal, as apiextensions-apiserver's {@code defaulting.Default} and
 * {@code PruneNonNullableNullsWithoutDefaults}: a default fills an absent field, or a null one that
 * is not nullable; defaults are deep-copied, and defaulting descends into the defaulted value.
 * Stateless.
 */
final class Defaulter {

    private Defaulter() {}

    static void applyDefaults(JsonNode x, StructuralSchema s) {
        if (s == null) {
            return;
        }
        if (x instanceof ObjectNode o) {
            for (Map.Entry<String, StructuralSchema> p : s.properties().entrySet()) {
                JsonNode def = p.getValue().rawDefault();
                if (def == null) {
                    continue;
                }
                JsonNode current = o.get(p.getKey());
                if (current == null || isNonNullableNull(current, p.getValue())) {
                    o.set(p.getKey(), def.deepCopy());
                }
            }
            for (Map.Entry<String, JsonNode> e : o.properties()) {
                StructuralSchema prop = s.properties().get(e.getKey());
                if (prop != null) {
                    applyDefaults(e.getValue(), prop);
                } else if (s.additionalProperties().isPresent()) {
                    StructuralSchema values = s.additionalProperties().get();
                    if (isNonNullableNull(e.getValue(), values) && values.rawDefault() != null) {
                        e.setValue(values.rawDefault().deepCopy());
                    }
                    applyDefaults(e.getValue(), values);
                }
            }
        } else if (x instanceof ArrayNode a) {
            StructuralSchema items = s.items().orElse(null);
            for (int i = 0; i < a.size(); i++) {
                if (items != null && isNonNullableNull(a.get(i), items) && items.rawDefault() != null) {
                    a.set(i, items.rawDefault().deepCopy());
                }
                applyDefaults(a.get(i), items);
            }
        }
    }

    static void dropNonNullableNulls(JsonNode x, StructuralSchema s) {
        if (x instanceof ObjectNode o) {
            Iterator<Map.Entry<String, JsonNode>> it = o.properties().iterator();
            while (it.hasNext()) {
                Map.Entry<String, JsonNode> e = it.next();
                StructuralSchema field = fieldSchema(e.getKey(), s);
                if (field != null && e.getValue().isNull() && !field.nullable() && field.rawDefault() == null) {
                    it.remove();
                } else {
                    dropNonNullableNulls(e.getValue(), field);
                }
            }
        } else if (x instanceof ArrayNode a) {
            StructuralSchema items = s == null ? null : s.items().orElse(null);
            for (JsonNode item : a) {
                dropNonNullableNulls(item, items);
            }
        }
    }

    private static StructuralSchema fieldSchema(String field, StructuralSchema s) {
        if (s == null) {
            return null;
        }
        StructuralSchema p = s.properties().get(field);
        return p != null ? p : s.additionalProperties().orElse(null);
    }

    private static boolean isNonNullableNull(JsonNode v, StructuralSchema s) {
        return v != null && v.isNull() && s != null && !s.nullable();
    }
}
