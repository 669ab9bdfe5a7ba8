package io.kubeloop.apiserver.internal.patch;

import io.kubeloop.api.errors.Status;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * JSON merge patch ({@code application/merge-patch+json}, RFC 7386) as kube-apiserver applies it
 * ({@code evanphx/json-patch.v4} {@code MergePatch}): objects merge recursively, {@code null} deletes
 * a member, everything else — arrays included — replaces. Where the patch puts an object over a
 * member that is absent or not an object, the patch's {@code null} members are dropped on the way
 * (also inside objects in arrays); an array put over an object is taken verbatim.
 *
 * <p>A patch that is {@code null}, a string, a number or a boolean is a 400 ("Invalid JSON Patch"). An
 * array patch would replace the whole object, which the real server then fails to decode: a 422.
 *
 * <p>Stateless and thread-safe; the arguments are never modified.
 */
public final class MergePatch {

    private MergePatch() {}

    /** Parses a merge patch body and applies it to {@code document}. */
    public static JsonNode apply(JsonNode document, byte[] patch) {
        return apply(document, parse(patch));
    }

    /** Parses a merge patch body and applies it to {@code document}. */
    public static JsonNode apply(JsonNode document, String patch) {
        return apply(document, parse(patch.getBytes(StandardCharsets.UTF_8)));
    }

    private static JsonNode parse(byte[] patch) {
        try {
            return Json.parse(patch);
        } catch (PatchException e) {
            throw PatchException.badRequest("Invalid JSON Patch");
        }
    }

    /**
     * Applies {@code patch} to a copy of {@code document} and returns the copy.
     *
     * @throws PatchException 400 for a scalar or null patch, 422 for an array patch
     */
    public static JsonNode apply(JsonNode document, JsonNode patch) {
        if (patch == null || !(patch.isObject() || patch.isArray())) {
            throw PatchException.badRequest("Invalid JSON Patch");
        }
        if (patch.isArray()) {
            throw PatchException.invalid(
                    "\"\" is invalid: patch: Invalid value: \"" + Json.canonical(patch)
                            + "\": json: cannot unmarshal array into Go value of type map[string]interface {}",
                    List.of(new Status.Cause(
                            "FieldValueInvalid",
                            "Invalid value: \"" + Json.canonical(patch)
                                    + "\": json: cannot unmarshal array into Go value of type map[string]interface {}",
                            "patch")));
        }
        JsonNode copy = Json.copy(document);
        if (copy == null || !copy.isObject()) {
            return pruneNulls(patch.deepCopy());
        }
        mergeObjects((ObjectNode) copy, (ObjectNode) patch);
        return copy;
    }

    private static void mergeObjects(ObjectNode doc, ObjectNode patch) {
        for (Map.Entry<String, JsonNode> e : patch.properties()) {
            String key = e.getKey();
            JsonNode value = e.getValue();
            JsonNode current = doc.get(key);
            if (value.isNull()) {
                doc.remove(key);
            } else if (current == null || current.isNull()) {
                doc.set(key, pruneNulls(value.deepCopy()));
            } else {
                doc.set(key, merge(current, value));
            }
        }
    }

    private static JsonNode merge(JsonNode current, JsonNode patch) {
        if (!current.isObject()) {
            return pruneNulls(patch.deepCopy());
        }
        if (!patch.isObject()) {
            return patch.deepCopy();
        }
        mergeObjects((ObjectNode) current, (ObjectNode) patch);
        return current;
    }

    /** Removes null members of objects, recursively, also inside arrays (null array items stay). */
    private static JsonNode pruneNulls(JsonNode node) {
        if (node.isObject()) {
            ObjectNode object = (ObjectNode) node;
            for (Map.Entry<String, JsonNode> e : Json.entries(object)) {
                if (e.getValue().isNull()) {
                    object.remove(e.getKey());
                } else {
                    pruneNulls(e.getValue());
                }
            }
        } else if (node.isArray()) {
            for (JsonNode item : (ArrayNode) node) {
                pruneNulls(item);
            }
        }
        return node;
    }

    /**
     * A merge patch that turns {@code original} into {@code modified} when applied with
     * {@link #apply(JsonNode, JsonNode)}: removed members become {@code null}, changed objects recurse,
     * anything else changed is copied. The law {@code apply(a, diff(a, b)) == b} holds for objects
     * {@code b} without {@code null} values (a merge patch cannot set a member to {@code null}).
     */
    public static ObjectNode diff(JsonNode original, JsonNode modified) {
        if (!original.isObject() || !modified.isObject()) {
            throw new IllegalArgumentException("merge patch diff needs two objects");
        }
        ObjectNode patch = Json.object();
        for (Map.Entry<String, JsonNode> e : original.properties()) {
            if (!modified.has(e.getKey())) {
                patch.putNull(e.getKey());
            }
        }
        for (Map.Entry<String, JsonNode> e : modified.properties()) {
            JsonNode before = original.get(e.getKey());
            JsonNode after = e.getValue();
            if (before != null && before.isObject() && after.isObject()) {
                ObjectNode sub = diff(before, after);
                if (!sub.isEmpty()) {
                    patch.set(e.getKey(), sub);
                }
            } else if (before == null || !Json.deepEquals(before, after)) {
                patch.set(e.getKey(), after.deepCopy());
            }
        }
        return patch;
    }
}
