package io.kubeloop.apiserver.internal.patch;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Strategic merge patch ({@code application/strategic-merge-patch+json}) as kube-apiserver applies
 * it (apimachinery {@code strategicpatch.StrategicMergeMapPatch}, with {@code MergeParallelList} and
 * {@code IgnoreUnmatchedNulls}), driven by a {@link StrategicMergeSchema}:
 * <ul>
 *   <li>objects merge recursively; {@code null} deletes a member; a value of another JSON type replaces;</li>
 *   <li>lists with the merge strategy merge: objects by their merge key (a matching item is merged
 *       recursively, a new one appended), scalars as a set; other lists are replaced;</li>
 *   <li>{@code $patch: replace} on an object replaces it, {@code $patch: delete} empties it; in a merging
 *       list, {@code {"$patch":"delete", key: v}} removes the items with that key and
 *       {@code {"$patch":"replace"}} replaces the list by the patch's other items;</li>
 *   <li>{@code $retainKeys: [...]} drops the original's other members (and rejects patch members not
 *       in it); {@code $deleteFromPrimitiveList/f: [...]} removes those values from the scalar list
 *       {@code f}; {@code $setElementOrder/f: [...]} orders the merged list {@code f} — the order given
 *       first, then the patch's, then the live object's;</li>
 *   <li>a merged list is ordered: patch items in patch order, interleaved with live-only items where the
 *       live order puts those first.</li>
 * </ul>
 * Errors map as the real server maps them: malformed directives 400, lists of lists 422 (generic
 * message), anything else apimachinery does not classify (a merge-list item without its merge key,
 * mixed element types, an unknown {@code $patch}) 500 with an empty reason and Go's error text.
 * {@code null} members left in the result (from objects or lists taken verbatim from the patch) are
 * dropped, as decoding into the typed object does on the real server.
 *
 * <p>Stateless and thread-safe; the arguments are never modified.
 */
public final class StrategicMergePatch {

    private static final String DIRECTIVE = "$patch";
    private static final String RETAIN_KEYS = "$retainKeys";
    private static final String DELETE_FROM_PRIMITIVE_LIST = "$deleteFromPrimitiveList";
    private static final String SET_ELEMENT_ORDER = "$setElementOrder";

    private StrategicMergePatch() {}

    /** Parses a strategic merge patch body and applies it. */
    public static JsonNode apply(JsonNode original, byte[] patch, StrategicMergeSchema schema) {
        return apply(original, Json.parse(patch), schema);
    }

    /** Parses a strategic merge patch body and applies it. */
    public static JsonNode apply(JsonNode original, String patch, StrategicMergeSchema schema) {
        return apply(original, Json.parse(patch), schema);
    }

    /**
     * Applies {@code patch} to a copy of {@code original} and returns the result.
     *
     * @param original the live object (an object; {@code null} counts as {@code {}})
     * @param patch the patch, a JSON object
     * @param schema the object's schema, usually from {@link StrategicMergeSchemas}
     * @throws PatchException as described in the class documentation
     */
    public static JsonNode apply(JsonNode original, JsonNode patch, StrategicMergeSchema schema) {
        if (patch == null || !patch.isObject()) {
            throw PatchException.badRequest(
                    "json: cannot unmarshal " + kindName(patch) + " into Go value of type map[string]interface {}");
        }
        ObjectNode base = original == null || !original.isObject() ? Json.object() : (ObjectNode) original.deepCopy();
        JsonNode result = mergeMap(base, (ObjectNode) patch.deepCopy(), schema);
        dropNulls(result);
        return result;
    }

    private static String kindName(JsonNode node) {
        return switch (Json.category(node)) {
            case ARRAY -> "array";
            case STRING -> "string";
            case INT, FLOAT -> "number";
            case BOOL -> "bool";
            case NULL, OBJECT -> "null";
        };
    }

    // ---- errors, as interpretStrategicMergePatchError classifies them

    static PatchException badArgType(String expected, JsonNode actual) {
        return PatchException.unclassified("expected a " + expected + ", but received a " + Json.goTypeName(actual));
    }

    static PatchException noMergeKey(JsonNode map, String key) {
        return PatchException.unclassified(
                "map: " + Json.goString(map) + " does not contain declared merge key: " + key);
    }

    // ---- maps

    private static JsonNode mergeMap(ObjectNode original, ObjectNode patch, StrategicMergeSchema schema) {
        if (patch.has(DIRECTIVE)) {
            JsonNode directive = patch.get(DIRECTIVE);
            if (directive.isString() && directive.asString().equals("replace")) {
                patch.remove(DIRECTIVE);
                return patch;
            }
            if (directive.isString() && directive.asString().equals("delete")) {
                return Json.object();
            }
            throw PatchException.unclassified(
                    "unknown patch type: " + Json.goString(directive) + " in map: " + Json.goString(patch));
        }
        applyRetainKeys(original, patch);
        mergeOrderedLists(original, patch, schema);
        for (Map.Entry<String, JsonNode> e : Json.entries(patch)) {
            String key = e.getKey();
            JsonNode patchValue = e.getValue();
            boolean deleteList = false;
            if (key.startsWith(DELETE_FROM_PRIMITIVE_LIST)) {
                key = extractKey(key, DELETE_FROM_PRIMITIVE_LIST);
                deleteList = true;
            }
            if (patchValue.isNull()) {
                original.remove(key);
                continue;
            }
            JsonNode originalValue = original.get(key);
            if (originalValue == null || Json.category(originalValue) != Json.category(patchValue)) {
                if (!deleteList) {
                    discardNulls(patchValue);
                    putWithoutDirectives(original, key, patchValue);
                }
                continue;
            }
            StrategicMergeSchema sub = schema.field(key);
            switch (Json.category(originalValue)) {
                case OBJECT -> original.set(key, mergeMap((ObjectNode) originalValue, (ObjectNode) patchValue, sub));
                case ARRAY ->
                    original.set(
                            key,
                            mergeListField((ArrayNode) originalValue, (ArrayNode) patchValue, sub, key, deleteList));
                default -> putWithoutDirectives(original, key, patchValue);
            }
        }
        return original;
    }

    private static void putWithoutDirectives(ObjectNode target, String key, JsonNode value) {
        JsonNode cleaned = removeDirectives(value);
        if (cleaned == null) {
            target.remove(key);
        } else {
            target.set(key, cleaned);
        }
    }

    private static String extractKey(String key, String prefix) {
        int slash = key.indexOf('/');
        if (slash < 0 || !key.substring(0, slash).equals(prefix)) {
            throw PatchException.badRequest(
                    prefix.equals(DELETE_FROM_PRIMITIVE_LIST)
                            ? "invalid patch format of primitive list"
                            : "invalid patch format of setElementOrder list");
        }
        return key.substring(slash + 1);
    }

    private static void applyRetainKeys(ObjectNode original, ObjectNode patch) {
        if (!patch.has(RETAIN_KEYS)) {
            return;
        }
        JsonNode retain = patch.remove(RETAIN_KEYS);
        if (!retain.isArray()) {
            throw PatchException.badRequest("invalid patch format of retainKeys");
        }
        Set<String> keep = new HashSet<>();
        for (JsonNode k : retain) {
            if (k.isString()) {
                keep.add(k.asString());
            }
        }
        for (Map.Entry<String, JsonNode> e : patch.properties()) {
            String k = e.getKey();
            if (e.getValue().isNull() || k.startsWith(DELETE_FROM_PRIMITIVE_LIST) || k.startsWith(SET_ELEMENT_ORDER)) {
                continue;
            }
            if (!keep.contains(k)) {
                throw PatchException.badRequest("invalid patch format of retainKeys");
            }
        }
        for (String k : new ArrayList<>(original.propertyNames())) {
            if (!keep.contains(k)) {
                original.remove(k);
            }
        }
    }

    /** Handles every {@code $setElementOrder/<field>} of the patch together with its list. */
    private static void mergeOrderedLists(ObjectNode original, ObjectNode patch, StrategicMergeSchema schema) {
        for (String key : new ArrayList<>(patch.propertyNames())) {
            if (!key.startsWith(SET_ELEMENT_ORDER)) {
                continue;
            }
            JsonNode order = patch.remove(key);
            if (!order.isArray()) {
                throw badArgType("[]interface {}", order);
            }
            String field = extractKey(key, SET_ELEMENT_ORDER);
            boolean foundOriginal = original.has(field);
            boolean foundPatch = patch.has(field);
            ArrayNode originalList = foundOriginal ? asList(original.get(field)) : Json.array();
            ArrayNode patchList = foundPatch ? asList(patch.get(field)) : Json.array();
            StrategicMergeSchema sub = schema.field(field);
            String mergeKey = sub.patchMergeKey();
            validateAgainstOrder(patchList, (ArrayNode) order, mergeKey);
            ArrayNode merged;
            if (foundOriginal && !foundPatch) {
                merged = originalList;
            } else if (!foundOriginal && foundPatch) {
                merged = (ArrayNode) removeDirectives(patchList);
            } else if (foundOriginal) {
                merged = mergeListField(originalList.deepCopy(), patchList, sub, field, false);
            } else {
                continue;
            }
            List<JsonNode> patchItems = new ArrayList<>();
            List<JsonNode> serverOnly = new ArrayList<>();
            StrategicListOrder.partition(merged, (ArrayNode) order, mergeKey, patchItems, serverOnly);
            Json.Category kind = StrategicListOrder.elementCategory(originalList, patchList);
            original.set(
                    field,
                    StrategicListOrder.normalizeOrder(
                            patchItems,
                            serverOnly,
                            StrategicListOrder.list((ArrayNode) order),
                            StrategicListOrder.list(originalList),
                            mergeKey,
                            kind));
            patch.remove(field);
        }
    }

    private static ArrayNode asList(JsonNode node) {
        if (!node.isArray()) {
            throw badArgType("[]interface {}", node);
        }
        return (ArrayNode) node;
    }

    private static void validateAgainstOrder(ArrayNode patchList, ArrayNode order, String mergeKey) {
        if (patchList.isEmpty() || order.isEmpty()) {
            return;
        }
        List<JsonNode> nonDelete = new ArrayList<>();
        for (JsonNode item : patchList) {
            if (!mergeKey.isEmpty()) {
                if (!item.isObject()) {
                    throw badArgType("map[string]interface {}", item);
                }
                if (isDirective(item, "delete")) {
                    continue;
                }
            }
            nonDelete.add(item);
        }
        int p = 0;
        int s = 0;
        while (p < nonDelete.size() && s < order.size()) {
            if (nonDelete.get(p).isObject() && nonDelete.get(p).has(DIRECTIVE)) {
                p++;
                continue;
            }
            if (mergeKeyValueEqual(nonDelete.get(p), order.get(s), mergeKey)) {
                p++;
            }
            s++;
        }
        if (p < nonDelete.size()) {
            throw PatchException.unclassified("The order in patch list:\n" + Json.goString(patchList)
                    + "\n doesn't match " + SET_ELEMENT_ORDER + " list:\n" + Json.goString(order) + "\n");
        }
    }

    private static boolean mergeKeyValueEqual(JsonNode left, JsonNode right, String mergeKey) {
        if (mergeKey.isEmpty()) {
            return Json.goEquals(left, right);
        }
        if (!left.isObject()) {
            throw badArgType("map[string]interface {}", left);
        }
        if (!right.isObject()) {
            throw badArgType("map[string]interface {}", right);
        }
        if (!left.has(mergeKey)) {
            throw noMergeKey(left, mergeKey);
        }
        if (!right.has(mergeKey)) {
            throw noMergeKey(right, mergeKey);
        }
        return Json.goEquals(left.get(mergeKey), right.get(mergeKey));
    }

    static boolean isDirective(JsonNode item, String directive) {
        JsonNode d = item.get(DIRECTIVE);
        return d != null && d.isString() && d.asString().equals(directive);
    }

    // ---- lists

    private static ArrayNode mergeListField(
            ArrayNode original, ArrayNode patch, StrategicMergeSchema schema, String name, boolean deleteList) {
        if (schema.mergeList() || deleteList) {
            return mergeSlice(original, patch, schema, name, schema.patchMergeKey(), deleteList);
        }
        return patch;
    }

    private static ArrayNode mergeSlice(
            ArrayNode originalList,
            ArrayNode patchList,
            StrategicMergeSchema schema,
            String name,
            String mergeKey,
            boolean deleteList) {
        if (originalList.isEmpty() && patchList.isEmpty()) {
            return originalList;
        }
        Json.Category kind = StrategicListOrder.elementCategory(originalList, patchList);
        List<JsonNode> original = StrategicListOrder.list(originalList);
        List<JsonNode> patch = StrategicListOrder.list(patchList);
        List<JsonNode> merged;
        if (kind != Json.Category.OBJECT) {
            if (deleteList) {
                ArrayNode out = Json.array();
                for (JsonNode v : original) {
                    if (patch.stream().noneMatch(d -> Json.goEquals(d, v))) {
                        out.add(v);
                    }
                }
                return out;
            }
            merged = new ArrayList<>();
            for (JsonNode v : concat(original, patch)) {
                if (merged.stream().noneMatch(m -> Json.goEquals(m, v))) {
                    merged.add(v);
                }
            }
        } else {
            if (mergeKey.isEmpty()) {
                throw PatchException.unclassified("cannot merge lists without merge key for " + name);
            }
            List<JsonNode> withoutSpecial = new ArrayList<>();
            boolean replace = false;
            for (JsonNode v : patch) {
                JsonNode directive = v.get(DIRECTIVE);
                if (directive == null) {
                    withoutSpecial.add(v);
                } else if (isDirective(v, "delete")) {
                    if (!v.has(mergeKey)) {
                        throw noMergeKey(v, mergeKey);
                    }
                    JsonNode value = v.get(mergeKey);
                    List<JsonNode> kept = new ArrayList<>();
                    for (JsonNode o : original) {
                        if (!o.isObject()) {
                            throw PatchException.unclassified("value for key " + kept.size() + " is not a map");
                        }
                        if (!(o.has(mergeKey) && Json.goEquals(o.get(mergeKey), value))) {
                            kept.add(o);
                        }
                    }
                    original = kept;
                } else if (isDirective(v, "replace")) {
                    replace = true;
                } else if (isDirective(v, "merge")) {
                    throw PatchException.unclassified("merging lists cannot yet be specified in the patch");
                } else {
                    throw PatchException.unclassified(
                            "unknown patch type: " + Json.goString(directive) + " in map: " + Json.goString(v));
                }
            }
            if (replace) {
                original = withoutSpecial;
                patch = List.of();
            } else {
                patch = withoutSpecial;
            }
            merged = new ArrayList<>(original);
            for (JsonNode v : patch) {
                if (!v.has(mergeKey)) {
                    throw noMergeKey(v, mergeKey);
                }
                int idx = StrategicListOrder.findByKey(merged, mergeKey, v.get(mergeKey));
                if (idx >= 0) {
                    merged.set(idx, mergeMap((ObjectNode) merged.get(idx), (ObjectNode) v, schema));
                } else {
                    merged.add(v);
                }
            }
            original = new ArrayList<>(original);
        }
        List<JsonNode> patchItems = new ArrayList<>();
        List<JsonNode> serverOnly = new ArrayList<>();
        ArrayNode patchArray = Json.array();
        patch.forEach(patchArray::add);
        ArrayNode mergedArray = Json.array();
        merged.forEach(mergedArray::add);
        StrategicListOrder.partition(mergedArray, patchArray, mergeKey, patchItems, serverOnly);
        return StrategicListOrder.normalizeOrder(patchItems, serverOnly, patch, original, mergeKey, kind);
    }

    private static List<JsonNode> concat(List<JsonNode> a, List<JsonNode> b) {
        List<JsonNode> out = new ArrayList<>(a);
        out.addAll(b);
        return out;
    }

    // ---- cleanup

    /** apimachinery's {@code removeDirectives}: null when the value itself is a directive. */
    private static JsonNode removeDirectives(JsonNode value) {
        if (value.isObject()) {
            if (value.has(DIRECTIVE)) {
                return null;
            }
            ObjectNode object = (ObjectNode) value;
            for (Map.Entry<String, JsonNode> e : Json.entries(object)) {
                putWithoutDirectives(object, e.getKey(), e.getValue());
            }
            return object;
        }
        if (value.isArray()) {
            ArrayNode out = Json.array();
            for (JsonNode item : value) {
                JsonNode cleaned = removeDirectives(item);
                if (cleaned != null) {
                    out.add(cleaned);
                }
            }
            return out;
        }
        return value;
    }

    private static void discardNulls(JsonNode value) {
        if (value.isObject()) {
            ObjectNode object = (ObjectNode) value;
            for (Map.Entry<String, JsonNode> e : Json.entries(object)) {
                if (e.getValue().isNull()) {
                    object.remove(e.getKey());
                } else {
                    discardNulls(e.getValue());
                }
            }
        } else if (value.isArray()) {
            value.forEach(StrategicMergePatch::discardNulls);
        }
    }

    private static void dropNulls(JsonNode value) {
        discardNulls(value);
    }
}
