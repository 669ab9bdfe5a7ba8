package io.kubeloop.apiserver.internal.patch;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * structured-merge-diff's operations on objects, driven by a {@link StrategicMergeSchema}: the field
 * set of an object ({@code ToFieldSet}), the comparison of two objects ({@code Compare}), the apply
 * merge ({@code Merge}) and removal of owned fields ({@code RemoveItems}).
 */
final class ObjectFields {

    /** Added, removed and modified paths between two objects. */
    record Comparison(FieldSet added, FieldSet removed, FieldSet modified) {
        FieldSet changed() {
            return added.union(modified);
        }
    }

    private ObjectFields() {}

    /**
     * The field set of {@code object}. With {@code strict}, an associative-list item without its key
     * fields, or two items with the same key, is an error (the real server's "failed to create typed
     * patch object"); otherwise such items are tracked by position.
     */
    static FieldSet of(JsonNode object, StrategicMergeSchema schema, boolean strict) {
        FieldSet.Builder b = FieldSet.builder();
        if (object != null && object.isObject()) {
            walkObjectMembers(object, schema, FieldPath.ROOT, b, strict);
        }
        return b.build();
    }

    private static void walk(
            JsonNode value, StrategicMergeSchema schema, FieldPath path, FieldSet.Builder b, boolean strict) {
        if (value.isObject()) {
            if (schema.atomic()) {
                b.insert(path);
            } else {
                walkObjectMembers(value, schema, path, b, strict);
            }
        } else if (value.isArray()) {
            if (schema.listType() == StrategicMergeSchema.ListType.ATOMIC) {
                b.insert(path);
                return;
            }
            List<PathElement> pes = itemElements((ArrayNode) value, schema, path, strict);
            for (int i = 0; i < value.size(); i++) {
                FieldPath itemPath = path.child(pes.get(i));
                walk(value.get(i), schema, itemPath, b, strict);
                b.insert(itemPath);
            }
        } else {
            b.insert(path);
        }
    }

    private static void walkObjectMembers(
            JsonNode value, StrategicMergeSchema schema, FieldPath path, FieldSet.Builder b, boolean strict) {
        for (Map.Entry<String, JsonNode> e : value.properties()) {
            FieldPath child = path.child(new PathElement.Field(e.getKey()));
            JsonNode v = e.getValue();
            walk(v, schema.field(e.getKey()), child, b, strict);
            if (v.isNull() || (v.isObject() && v.isEmpty()) || (schema.isMap() && !schema.declares(e.getKey()))) {
                b.insert(child);
            }
        }
    }

    /** The path elements of a non-atomic list's items. */
    static List<PathElement> itemElements(ArrayNode list, StrategicMergeSchema schema, FieldPath path, boolean strict) {
        List<PathElement> out = new ArrayList<>(list.size());
        Set<PathElement> seen = new HashSet<>();
        for (int i = 0; i < list.size(); i++) {
            PathElement pe = itemElement(list.get(i), schema, path, i, strict);
            if (!seen.add(pe) && strict) {
                throw PatchException.unclassified(
                        "failed to create typed patch object: " + path + ": duplicate entries for key " + pe);
            }
            out.add(pe);
        }
        return out;
    }

    private static PathElement itemElement(
            JsonNode item, StrategicMergeSchema schema, FieldPath path, int index, boolean strict) {
        if (schema.listType() == StrategicMergeSchema.ListType.SET) {
            return PathElement.value(item);
        }
        if (!item.isObject()) {
            if (strict) {
                throw PatchException.unclassified("failed to create typed patch object: " + path + ": element " + index
                        + ": associative list with keys may only contain objects");
            }
            return new PathElement.Index(index);
        }
        Map<String, JsonNode> key = new LinkedHashMap<>();
        for (String k : schema.listMapKeys()) {
            JsonNode v = item.get(k);
            if (v == null || v.isNull()) {
                v = schema.keyDefault(k).orElse(null);
            }
            if (v == null) {
                if (strict) {
                    throw PatchException.unclassified("failed to create typed patch object: " + path
                            + ": element " + index
                            + ": associative list with keys has an element that omits key field \""
                            + k + "\" (and doesn't have default value)");
                }
                return new PathElement.Index(index);
            }
            key.put(k, v);
        }
        return PathElement.key(key);
    }

    // ---- compare

    static Comparison compare(JsonNode lhs, JsonNode rhs, StrategicMergeSchema schema) {
        FieldSet.Builder added = FieldSet.builder();
        FieldSet.Builder removed = FieldSet.builder();
        FieldSet.Builder modified = FieldSet.builder();
        cmp(present(lhs), present(rhs), schema, FieldPath.ROOT, false, added, removed, modified);
        return new Comparison(added.build(), removed.build(), modified.build());
    }

    private static JsonNode present(JsonNode v) {
        return v == null || v.isMissingNode() ? null : v;
    }

    private static boolean isLeaf(JsonNode v, StrategicMergeSchema schema) {
        return v.isObject()
                ? schema.atomic()
                : !v.isArray() || schema.listType() == StrategicMergeSchema.ListType.ATOMIC;
    }

    private static void cmp(
            JsonNode l,
            JsonNode r,
            StrategicMergeSchema schema,
            FieldPath path,
            boolean item,
            FieldSet.Builder added,
            FieldSet.Builder removed,
            FieldSet.Builder modified) {
        if (l == r) { // the same node (or both absent): nothing below it changed
            return;
        }
        if (schema.alwaysPresent() && !item) {
            if (l == null && r != null && (r.isObject() || r.isArray())) {
                l = r.isObject() ? Json.object() : Json.array();
            } else if (r == null && l != null && (l.isObject() || l.isArray())) {
                r = l.isObject() ? Json.object() : Json.array();
            }
        }
        if (l == null && r == null) {
            return;
        }
        JsonNode any = l != null ? l : r;
        boolean sameShape = l == null || r == null || (l.isObject() == r.isObject() && l.isArray() == r.isArray());
        if (!sameShape || isLeaf(any, schema)) {
            if (l == null) {
                added.insert(path);
            } else if (r == null) {
                removed.insert(path);
            } else if (!Json.deepEquals(l, r)) {
                modified.insert(path);
            }
            return;
        }
        if (l != null && r != null && path.elements().size() == 1 && Json.deepEquals(l, r)) {
            // equal values have equal members and list keys: nothing below changed (a cheap check for the
            // top-level members, such as an unchanged spec under a status write)
            return;
        }
        if (any.isObject()) {
            Set<String> keys = new LinkedHashSet<>();
            if (l != null) {
                keys.addAll(l.propertyNames());
            }
            if (r != null) {
                keys.addAll(r.propertyNames());
            }
            for (String k : keys) {
                cmp(
                        l == null ? null : l.get(k),
                        r == null ? null : r.get(k),
                        schema.field(k),
                        path.child(new PathElement.Field(k)),
                        false,
                        added,
                        removed,
                        modified);
            }
        } else {
            Map<PathElement, JsonNode> li = index(l, schema, path);
            Map<PathElement, JsonNode> ri = index(r, schema, path);
            Set<PathElement> pes = new LinkedHashSet<>(li.keySet());
            pes.addAll(ri.keySet());
            for (PathElement pe : pes) {
                cmp(li.get(pe), ri.get(pe), schema, path.child(pe), true, added, removed, modified);
            }
        }
        if (!path.elements().isEmpty()) {
            if (l == null) {
                added.insert(path);
            } else if (r == null) {
                removed.insert(path);
            }
        }
    }

    private static Map<PathElement, JsonNode> index(JsonNode list, StrategicMergeSchema schema, FieldPath path) {
        Map<PathElement, JsonNode> out = new LinkedHashMap<>();
        if (list == null) {
            return out;
        }
        List<PathElement> pes = itemElements((ArrayNode) list, schema, path, false);
        for (int i = 0; i < pes.size(); i++) {
            out.putIfAbsent(pes.get(i), list.get(i));
        }
        return out;
    }

    // ---- merge (apply)

    /** The applied configuration merged over the live object; {@code null} members of the config delete. */
    static JsonNode merge(JsonNode live, JsonNode config, StrategicMergeSchema schema, FieldPath path) {
        if (config == null) {
            return Json.copy(live);
        }
        if (live == null || live.isNull()) {
            return config.deepCopy();
        }
        if (live.isObject() && config.isObject() && !schema.atomic()) {
            ObjectNode out = (ObjectNode) live.deepCopy();
            for (Map.Entry<String, JsonNode> e : config.properties()) {
                if (e.getValue().isNull()) {
                    out.remove(e.getKey());
                } else {
                    out.set(
                            e.getKey(),
                            merge(
                                    live.get(e.getKey()),
                                    e.getValue(),
                                    schema.field(e.getKey()),
                                    path.child(new PathElement.Field(e.getKey()))));
                }
            }
            return out;
        }
        if (live.isArray() && config.isArray() && schema.listType() != StrategicMergeSchema.ListType.ATOMIC) {
            return mergeList((ArrayNode) live, (ArrayNode) config, schema, path);
        }
        return config.deepCopy();
    }

    /** structured-merge-diff's list merge: shared items in the config's order, live-only items kept in place. */
    private static ArrayNode mergeList(ArrayNode live, ArrayNode config, StrategicMergeSchema schema, FieldPath path) {
        List<PathElement> lPes = itemElements(live, schema, path, false);
        List<PathElement> rPes = itemElements(config, schema, path, true);
        Map<PathElement, JsonNode> lItems = index(live, schema, path);
        Map<PathElement, JsonNode> rItems = index(config, schema, path);
        List<PathElement> shared = new ArrayList<>();
        for (PathElement pe : rPes) {
            if (lItems.containsKey(pe)) {
                shared.add(pe);
            }
        }
        int sharedNext = 0;
        Set<PathElement> merged = new HashSet<>();
        ArrayNode out = Json.array();
        int li = 0;
        int ri = 0;
        while (li < lPes.size() || ri < rPes.size()) {
            PathElement nextShared = sharedNext < shared.size() ? shared.get(sharedNext) : null;
            if (li < lPes.size() && ri < rPes.size()) {
                PathElement pe = lPes.get(li);
                if (pe.equals(rPes.get(ri))) {
                    merged.add(pe);
                    out.add(merge(lItems.get(pe), rItems.get(pe), schema, path.child(pe)));
                    li++;
                    ri++;
                    if (pe.equals(nextShared)) {
                        sharedNext++;
                    }
                    continue;
                }
                if (rItems.containsKey(pe) && nextShared != null && !nextShared.equals(pe)) {
                    li++;
                    continue;
                }
            }
            if (li < lPes.size()) {
                PathElement pe = lPes.get(li);
                if (!rItems.containsKey(pe)) {
                    out.add(live.get(li).deepCopy());
                    li++;
                    continue;
                } else if (merged.contains(pe)) {
                    li++;
                    continue;
                }
            }
            if (ri < rPes.size()) {
                PathElement pe = rPes.get(ri);
                merged.add(pe);
                out.add(merge(lItems.get(pe), rItems.get(pe), schema, path.child(pe)));
                ri++;
                if (pe.equals(nextShared)) {
                    sharedNext++;
                }
            }
        }
        return out;
    }

    // ---- removal (apply's pruning)

    /**
     * Removes each member of {@code toRemove} from {@code object} (in place), except nodes below which
     * {@code keep} still has members; objects emptied by a removal go too, unless kept or always present.
     */
    static void remove(JsonNode object, FieldSet toRemove, FieldSet keep, StrategicMergeSchema schema) {
        List<FieldPath> paths = new ArrayList<>(toRemove.paths());
        paths.sort((a, b) -> Integer.compare(b.elements().size(), a.elements().size()));
        for (FieldPath p : paths) {
            if (keep.hasAtOrBelow(p)) {
                continue;
            }
            removePath(object, p.elements(), 0, schema, keep, FieldPath.ROOT);
        }
    }

    /** Returns true when the node at {@code parent} became an empty object and may go too. */
    private static boolean removePath(
            JsonNode node, List<PathElement> els, int at, StrategicMergeSchema schema, FieldSet keep, FieldPath here) {
        PathElement pe = els.get(at);
        FieldPath childPath = here.child(pe);
        boolean last = at == els.size() - 1;
        if (pe instanceof PathElement.Field f && node.isObject()) {
            JsonNode child = node.get(f.name());
            if (child == null) {
                return false;
            }
            StrategicMergeSchema sub = schema.field(f.name());
            if (last || removePath(child, els, at + 1, sub, keep, childPath)) {
                if (last || (!sub.alwaysPresent() && !keep.hasAtOrBelow(childPath))) {
                    ((ObjectNode) node).remove(f.name());
                }
            }
            return node.isEmpty();
        }
        if (node.isArray() && schema.listType() != StrategicMergeSchema.ListType.ATOMIC) {
            List<PathElement> pes = itemElements((ArrayNode) node, schema, here, false);
            for (int i = 0; i < pes.size(); i++) {
                if (pes.get(i).equals(pe)) {
                    if (last || removePath(node.get(i), els, at + 1, schema, keep, childPath)) {
                        if (last) {
                            ((ArrayNode) node).remove(i);
                        }
                    }
                    break;
                }
            }
        }
        return false;
    }
}
