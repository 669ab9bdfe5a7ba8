package io.kubeloop.apiserver.internal.registry;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The simple JSONPath subset used by printer columns and scale paths: {@code .a.b}, {@code .a[0].b},
 * {@code .a['x.y']}, optionally wrapped in {@code {}}.
 *
 * <p>Stateless and thread-safe.
 */
public final class JsonPaths {

    private JsonPaths() {}

    /** The node at {@code path}, or null when any step is missing. */
    public static JsonNode get(JsonNode root, String path) {
        String p = path.strip();
        if (p.startsWith("{") && p.endsWith("}")) {
            p = p.substring(1, p.length() - 1);
        }
        if (p.startsWith("$")) {
            p = p.substring(1);
        }
        JsonNode cur = root;
        int i = 0;
        while (cur != null && i < p.length()) {
            char c = p.charAt(i);
            if (c == '.') {
                int j = i + 1;
                while (j < p.length() && p.charAt(j) != '.' && p.charAt(j) != '[') {
                    j++;
                }
                String field = p.substring(i + 1, j);
                cur = field.isEmpty() ? cur : cur.get(field);
                i = j;
            } else if (c == '[') {
                int j = p.indexOf(']', i);
                if (j < 0) {
                    return null;
                }
                String inner = p.substring(i + 1, j).strip();
                if (inner.startsWith("'") || inner.startsWith("\"")) {
                    cur = cur.get(inner.substring(1, inner.length() - 1));
                } else {
                    try {
                        cur = cur.get(Integer.parseInt(inner));
                    } catch (NumberFormatException e) {
                        return null;
                    }
                }
                i = j + 1;
            } else {
                return null;
            }
        }
        return cur == null || cur.isMissingNode() || cur.isNull() ? null : cur;
    }

    /** Sets a dotted path ({@code .spec.replicas}), creating objects on the way. */
    public static void set(ObjectNode root, String path, JsonNode value) {
        String[] parts = path.replaceFirst("^\\.", "").split("\\.");
        ObjectNode cur = root;
        for (int i = 0; i < parts.length - 1; i++) {
            JsonNode next = cur.get(parts[i]);
            cur = next instanceof ObjectNode on ? on : cur.putObject(parts[i]);
        }
        cur.set(parts[parts.length - 1], value);
    }

    /** A scalar as a cell value (String, Long, Double, Boolean), or the JSON text of a structure. */
    public static Object cell(JsonNode n) {
        if (n == null) {
            return null;
        }
        if (n.isIntegralNumber()) {
            return n.asLong();
        }
        if (n.isNumber()) {
            return n.asDouble();
        }
        if (n.isBoolean()) {
            return n.asBoolean();
        }
        if (n.isString()) {
            return n.asString();
        }
        return n.toString();
    }
}
