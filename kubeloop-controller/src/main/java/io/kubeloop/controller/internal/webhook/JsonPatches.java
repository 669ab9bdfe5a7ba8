package io.kubeloop.controller.internal.webhook;

import io.kubeloop.api.json.KubeJson;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The RFC 6902 JSON patch from one document to another: objects are compared field by field
 * ({@code add}, {@code remove}, {@code replace}); arrays and scalars that differ are replaced whole.
 * Stateless.
 */
public final class JsonPatches {

    private JsonPatches() {}

    /** The operations that turn {@code from} into {@code to}; empty when they are equal. */
    public static ArrayNode diff(JsonNode from, JsonNode to) {
        ArrayNode ops = KubeJson.mapper().createArrayNode();
        diff(from, to, "", ops);
        return ops;
    }

    private static void diff(JsonNode from, JsonNode to, String path, ArrayNode ops) {
        if (from.equals(to)) {
            return;
        }
        if (from.isObject() && to.isObject()) {
            for (Map.Entry<String, JsonNode> e : from.properties()) {
                if (!to.has(e.getKey())) {
                    ops.addObject().put("op", "remove").put("path", path + "/" + escape(e.getKey()));
                }
            }
            for (Map.Entry<String, JsonNode> e : to.properties()) {
                String child = path + "/" + escape(e.getKey());
                JsonNode old = from.get(e.getKey());
                if (old == null) {
                    op(ops, "add", child, e.getValue());
                } else {
                    diff(old, e.getValue(), child, ops);
                }
            }
            return;
        }
        op(ops, "replace", path, to);
    }

    private static void op(ArrayNode ops, String op, String path, JsonNode value) {
        ObjectNode o = ops.addObject().put("op", op).put("path", path);
        o.set("value", value.deepCopy());
    }

    /** RFC 6901: {@code ~} as {@code ~0}, {@code /} as {@code ~1}. */
    private static String escape(String key) {
        return key.replace("~", "~0").replace("/", "~1");
    }
}
