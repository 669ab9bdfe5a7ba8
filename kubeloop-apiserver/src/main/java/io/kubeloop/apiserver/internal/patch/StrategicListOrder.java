package io.kubeloop.apiserver.internal.patch;

import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;

/**
 * The list half of {@link StrategicMergePatch}: finding items by merge key, the shared element type
 * of lists, and apimachinery's {@code normalizeElementOrder} — a merged list is patch items in patch
 * order, interleaved with live-only items where the live order puts those first.
 *
 * <p>Stateless and thread-safe; the arguments are never modified.
 */
final class StrategicListOrder {

    private StrategicListOrder() {}

    static List<JsonNode> list(ArrayNode array) {
        List<JsonNode> out = new ArrayList<>(array.size());
        array.forEach(out::add);
        return out;
    }

    static int findByKey(List<JsonNode> items, String key, JsonNode value) {
        for (int i = 0; i < items.size(); i++) {
            JsonNode item = items.get(i);
            if (!item.isObject()) {
                throw PatchException.unclassified("value for key " + i + " is not a map");
            }
            if (item.has(key) && Json.goEquals(item.get(key), value)) {
                return i;
            }
        }
        return -1;
    }

    /** The element type shared by all items of the lists (apimachinery's {@code sliceElementType}). */
    static Json.Category elementCategory(ArrayNode... lists) {
        Json.Category seen = null;
        for (ArrayNode l : lists) {
            for (JsonNode v : l) {
                Json.Category c = Json.category(v);
                if (seen == null) {
                    if (c == Json.Category.ARRAY) {
                        throw PatchException.genericInvalid("lists of lists are not supported");
                    }
                    seen = c;
                } else if (seen != c) {
                    StringBuilder sb = new StringBuilder("[");
                    for (int i = 0; i < lists.length; i++) {
                        sb.append(i == 0 ? "" : " ").append(Json.goString(lists[i]));
                    }
                    throw PatchException.unclassified("list element types are not identical: " + sb + "]");
                }
            }
        }
        if (seen == null) {
            throw PatchException.unclassified("no elements in any of the given slices");
        }
        return seen;
    }

    static void partition(
            ArrayNode merged, ArrayNode by, String mergeKey, List<JsonNode> present, List<JsonNode> absent) {
        for (JsonNode v : merged) {
            boolean found;
            if (mergeKey.isEmpty()) {
                found = false;
                for (JsonNode b : by) {
                    found |= Json.goEquals(b, v);
                }
            } else {
                if (!v.isObject()) {
                    throw StrategicMergePatch.badArgType("map[string]interface {}", v);
                }
                if (!v.has(mergeKey)) {
                    throw StrategicMergePatch.noMergeKey(v, mergeKey);
                }
                found = findByKey(list(by), mergeKey, v.get(mergeKey)) >= 0;
            }
            (found ? present : absent).add(v);
        }
    }

    static ArrayNode normalizeOrder(
            List<JsonNode> patchItems,
            List<JsonNode> serverOnly,
            List<JsonNode> patchOrder,
            List<JsonNode> serverOrder,
            String mergeKey,
            Json.Category kind) {
        List<JsonNode> right = sortBy(patchItems, patchOrder, mergeKey, kind);
        List<JsonNode> left = sortBy(serverOnly, serverOrder, mergeKey, kind);
        ArrayNode out = Json.array();
        int i = 0;
        int j = 0;
        while (i < left.size() || j < right.size()) {
            if (i >= left.size()) {
                out.add(right.get(j++));
            } else if (j >= right.size()) {
                out.add(left.get(i++));
            } else {
                int li = index(serverOrder, left.get(i), mergeKey, kind);
                int ri = index(serverOrder, right.get(j), mergeKey, kind);
                if (li >= 0 && ri >= 0 && li < ri) {
                    out.add(left.get(i++));
                } else {
                    out.add(right.get(j++));
                }
            }
        }
        return out;
    }

    private static List<JsonNode> sortBy(
            List<JsonNode> toSort, List<JsonNode> order, String mergeKey, Json.Category kind) {
        List<JsonNode> items = new ArrayList<>();
        List<JsonNode> deletes = new ArrayList<>();
        if (kind == Json.Category.OBJECT) {
            for (List<JsonNode> l : List.of(toSort, order)) {
                for (JsonNode item : l) {
                    if (!item.isObject()) {
                        throw StrategicMergePatch.badArgType("map[string]interface {}", item);
                    }
                    if (!item.has(mergeKey)) {
                        throw StrategicMergePatch.noMergeKey(item, mergeKey);
                    }
                }
            }
            for (JsonNode item : toSort) {
                (StrategicMergePatch.isDirective(item, "delete") ? deletes : items).add(item);
            }
        } else {
            items.addAll(toSort);
        }
        items.sort((a, b) -> Integer.compare(rank(order, a, mergeKey, kind), rank(order, b, mergeKey, kind)));
        items.addAll(deletes);
        return items;
    }

    private static int rank(List<JsonNode> order, JsonNode item, String mergeKey, Json.Category kind) {
        int idx = index(order, item, mergeKey, kind);
        return idx < 0 ? Integer.MAX_VALUE : idx;
    }

    private static int index(List<JsonNode> list, JsonNode item, String mergeKey, Json.Category kind) {
        for (int i = 0; i < list.size(); i++) {
            if (kind == Json.Category.OBJECT) {
                if (Json.goEquals(keyOf(item, mergeKey), keyOf(list.get(i), mergeKey))) {
                    return i;
                }
            } else if (Json.goEquals(item, list.get(i))) {
                return i;
            }
        }
        return -1;
    }

    private static JsonNode keyOf(JsonNode item, String mergeKey) {
        return item.isObject() ? item.get(mergeKey) : null;
    }
}
