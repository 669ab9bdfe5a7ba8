package io.kubeloop.apiserver.internal.patch;

import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * JSON patch ({@code application/json-patch+json}, RFC 6902) with the semantics kube-apiserver has,
 * which are those of {@code gopkg.in/evanphx/json-patch.v4} (v4.12), quirks included:
 * <ul>
 *   <li>{@code add}, {@code remove}, {@code replace}, {@code move}, {@code copy}, {@code test}; pointer
 *       tokens unescape {@code ~1} to {@code /} and then {@code ~0} to {@code ~}; {@code -} appends;</li>
 *   <li>negative array indices count from the end ({@code -1} is the last item; for {@code add}, the
 *       end of the list);</li>
 *   <li>{@code remove} of a missing key or index is an error; {@code replace} of a missing object key
 *       <em>adds</em> it (only a missing array index is an error); {@code replace} of the whole document
 *       ({@code ""}) with an object or array replaces it, with anything else does nothing;</li>
 *   <li>{@code test} of a missing key passes when the expected value is {@code null}; {@code test}
 *       of {@code ""} compares the whole document;</li>
 *   <li>{@code copy} from a missing object key copies {@code null}; {@code move} removes the source
 *       before resolving the destination;</li>
 *   <li>intermediate path tokens must name an existing object or array (a {@code null} member does not
 *       count); a path that does not begin with {@code /} has its first token ignored.</li>
 * </ul>
 * A body that is not a JSON array of objects is a 400, more than {@value #MAX_OPERATIONS} operations a
 * 413, and an operation that does not apply a 422 with the real server's generic message (what failed
 * is in {@link PatchException#detail()}).
 *
 * <p>Stateless and thread-safe; the document passed in is never modified.
 */
public final class JsonPatch {

    /** apiserver's {@code maxJSONPatchOperations}. */
    public static final int MAX_OPERATIONS = 10_000;

    private JsonPatch() {}

    /** Parses a JSON patch body and applies it to {@code document}. */
    public static JsonNode apply(JsonNode document, byte[] patch) {
        return apply(document, Json.parse(patch));
    }

    /** Parses a JSON patch body and applies it to {@code document}. */
    public static JsonNode apply(JsonNode document, String patch) {
        return apply(document, Json.parse(patch));
    }

    /**
     * Applies a parsed JSON patch to a copy of {@code document} and returns the copy.
     *
     * @throws PatchException 400 when {@code patch} is not an array of objects, 413 past 10,000
     *         operations, 422 when an operation does not apply
     */
    public static JsonNode apply(JsonNode document, JsonNode patch) {
        List<ObjectNode> ops = decode(patch);
        JsonNode[] root = {Json.copy(document)};
        for (ObjectNode op : ops) {
            applyOne(root, op);
        }
        return root[0];
    }

    private static List<ObjectNode> decode(JsonNode patch) {
        if (patch == null || !patch.isArray()) {
            throw PatchException.badRequest(
                    "json: cannot unmarshal " + goKind(patch) + " into Go value of type jsonpatch.Patch");
        }
        List<ObjectNode> ops = new ArrayList<>(patch.size());
        for (JsonNode op : patch) {
            if (op.isNull()) {
                ops.add(Json.object());
            } else if (!op.isObject()) {
                throw PatchException.badRequest(
                        "json: cannot unmarshal " + goKind(op) + " into Go value of type jsonpatch.Operation");
            } else {
                ops.add((ObjectNode) op);
            }
        }
        if (ops.size() > MAX_OPERATIONS) {
            throw PatchException.tooLarge(
                    "The allowed maximum operations in a JSON patch is " + MAX_OPERATIONS + ", got " + ops.size());
        }
        return ops;
    }

    private static String goKind(JsonNode node) {
        return switch (Json.category(node)) {
            case OBJECT -> "object";
            case ARRAY -> "array";
            case STRING -> "string";
            case INT, FLOAT -> "number";
            case BOOL -> "bool";
            case NULL -> "null";
        };
    }

    private static void applyOne(JsonNode[] root, ObjectNode op) {
        JsonNode kind = op.get("op");
        String name = kind != null && kind.isString() ? kind.asString() : "unknown";
        switch (name) {
            case "add" -> add(root[0], op);
            case "remove" -> remove(root[0], op);
            case "replace" -> replace(root, op);
            case "move" -> move(root[0], op);
            case "test" -> test(root[0], op);
            case "copy" -> copy(root[0], op);
            default -> throw fail("Unexpected kind: " + name);
        }
    }

    private static PatchException fail(String detail) {
        return PatchException.genericInvalid(detail);
    }

    private static String stringField(ObjectNode op, String field, String what) {
        JsonNode v = op.get(field);
        if (v == null || v.isNull() || !v.isString()) {
            throw fail(what);
        }
        return v.asString();
    }

    private static JsonNode value(ObjectNode op) {
        JsonNode v = op.get("value");
        return v == null ? Json.NODES.nullNode() : v.deepCopy();
    }

    /** The container holding the last token of a path, and that token unescaped. */
    private record Target(JsonNode container, String key) {}

    private static Target find(JsonNode root, String path) {
        String[] split = path.split("/", -1);
        if (split.length < 2 || !(root.isObject() || root.isArray())) {
            return null;
        }
        JsonNode doc = root;
        for (int i = 1; i < split.length - 1; i++) {
            JsonNode next = get(doc, unescape(split[i]));
            if (next == null || !(next.isObject() || next.isArray())) {
                return null;
            }
            doc = next;
        }
        return new Target(doc, unescape(split[split.length - 1]));
    }

    static String unescape(String token) {
        StringBuilder sb = new StringBuilder(token.length());
        for (int i = 0; i < token.length(); i++) {
            char c = token.charAt(i);
            if (c == '~' && i + 1 < token.length() && token.charAt(i + 1) == '1') {
                sb.append('/');
                i++;
            } else if (c == '~' && i + 1 < token.length() && token.charAt(i + 1) == '0') {
                sb.append('~');
                i++;
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }

    /** A member or element, or null when absent, JSON null, or not addressable. */
    private static JsonNode get(JsonNode container, String key) {
        if (container.isObject()) {
            JsonNode v = container.get(key);
            return v == null || v.isNull() ? null : v;
        }
        Integer idx = arrayIndex(container, key, container.size());
        return idx == null ? null : container.get(idx);
    }

    /** An index into an array of {@code size} items (negative from the end), or null when invalid. */
    private static Integer arrayIndex(JsonNode array, String key, int size) {
        int idx;
        try {
            idx = Integer.parseInt(key);
        } catch (NumberFormatException e) {
            return null;
        }
        if (idx < 0) {
            if (idx < -size) {
                return null;
            }
            idx += size;
        }
        return idx >= size ? null : idx;
    }

    private static void add(JsonNode root, ObjectNode op) {
        String path = stringField(op, "path", "add operation failed to decode path");
        Target t = find(root, path);
        if (t == null) {
            throw fail("add operation does not apply: doc is missing path: \"" + path + "\"");
        }
        addTo(t, value(op), "error in add for path: '" + path + "'");
    }

    private static void addTo(Target t, JsonNode value, String context) {
        if (t.container().isObject()) {
            ((ObjectNode) t.container()).set(t.key(), value);
            return;
        }
        ArrayNode array = (ArrayNode) t.container();
        if (t.key().equals("-")) {
            array.add(value);
            return;
        }
        int idx;
        try {
            idx = Integer.parseInt(t.key());
        } catch (NumberFormatException e) {
            throw fail(context + ": value was not a proper array index: '" + t.key() + "'");
        }
        int size = array.size() + 1;
        if (idx >= size || idx < -size) {
            throw fail(context + ": Unable to access invalid index: " + idx + ": invalid index referenced");
        }
        array.insert(idx < 0 ? idx + size : idx, value);
    }

    private static void remove(JsonNode root, ObjectNode op) {
        String path = stringField(op, "path", "remove operation failed to decode path");
        Target t = find(root, path);
        if (t == null) {
            throw fail("remove operation does not apply: doc is missing path: \"" + path + "\"");
        }
        removeFrom(t, "error in remove for path: '" + path + "'");
    }

    private static void removeFrom(Target t, String context) {
        if (t.container().isObject()) {
            if (!t.container().has(t.key())) {
                throw fail(context + ": Unable to remove nonexistent key: " + t.key() + ": missing value");
            }
            ((ObjectNode) t.container()).remove(t.key());
            return;
        }
        ArrayNode array = (ArrayNode) t.container();
        Integer idx = arrayIndex(array, t.key(), array.size());
        if (idx == null) {
            throw fail(context + ": Unable to access invalid index: " + t.key() + ": invalid index referenced");
        }
        array.remove((int) idx);
    }

    private static void replace(JsonNode[] root, ObjectNode op) {
        String path = stringField(op, "path", "replace operation failed to decode path");
        JsonNode value = value(op);
        if (path.isEmpty()) {
            if (value.isObject() || value.isArray()) {
                root[0] = value;
            }
            return;
        }
        Target t = find(root[0], path);
        if (t == null) {
            throw fail("replace operation does not apply: doc is missing path: " + path);
        }
        if (t.container().isObject()) {
            ((ObjectNode) t.container()).set(t.key(), value);
            return;
        }
        ArrayNode array = (ArrayNode) t.container();
        Integer idx = arrayIndex(array, t.key(), array.size());
        if (idx == null) {
            throw fail("replace operation does not apply: doc is missing key: " + path + ": missing value");
        }
        array.set((int) idx, value);
    }

    private static void move(JsonNode root, ObjectNode op) {
        String from = stringField(op, "from", "move operation failed to decode from");
        Target source = find(root, from);
        if (source == null) {
            throw fail("move operation does not apply: doc is missing from path: " + from + ": missing value");
        }
        JsonNode value = valueAt(source, "error in move for path: '" + source.key() + "'");
        removeFrom(source, "error in move for path: '" + source.key() + "'");
        String path = stringField(op, "path", "move operation failed to decode path");
        Target dest = find(root, path);
        if (dest == null) {
            throw fail("move operation does not apply: doc is missing destination path: " + path + ": missing value");
        }
        addTo(dest, value, "error in move for path: '" + path + "'");
    }

    private static void copy(JsonNode root, ObjectNode op) {
        String from = stringField(op, "from", "copy operation failed to decode from");
        Target source = find(root, from);
        if (source == null) {
            throw fail("copy operation does not apply: doc is missing from path: " + from + ": missing value");
        }
        JsonNode value = valueAt(source, "error in copy for from: '" + from + "'");
        String path = stringField(op, "path", "copy operation failed to decode path");
        Target dest = find(root, path);
        if (dest == null) {
            throw fail("copy operation does not apply: doc is missing destination path: " + path + ": missing value");
        }
        addTo(dest, value.deepCopy(), "error while adding value during copy");
    }

    /** The value at a target: JSON null for a missing object key, an error for a bad array index. */
    private static JsonNode valueAt(Target t, String context) {
        if (t.container().isObject()) {
            JsonNode v = t.container().get(t.key());
            return v == null ? Json.NODES.nullNode() : v;
        }
        Integer idx = arrayIndex(t.container(), t.key(), t.container().size());
        if (idx == null) {
            throw fail(context + ": Unable to access invalid index: " + t.key() + ": invalid index referenced");
        }
        return t.container().get(idx);
    }

    private static void test(JsonNode root, ObjectNode op) {
        String path = stringField(op, "path", "test operation failed to decode path");
        JsonNode expected = value(op);
        if (path.isEmpty()) {
            if (!Json.deepEquals(root, expected)) {
                throw fail("testing value " + path + " failed: test failed");
            }
            return;
        }
        Target t = find(root, path);
        if (t == null) {
            throw fail("test operation does not apply: is missing path: " + path + ": missing value");
        }
        JsonNode actual = valueAt(t, "error in test for path: '" + path + "'");
        if (actual.isNull()) {
            if (!expected.isNull()) {
                throw fail("testing value " + path + " failed: test failed");
            }
            return;
        }
        if (!Json.deepEquals(actual, expected)) {
            throw fail("testing value " + path + " failed: test failed");
        }
    }
}
