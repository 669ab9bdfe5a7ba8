package io.kubeloop.apiserver.internal.patch;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NavigableSet;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A set of {@link FieldPath}s — what one field manager owns — in structured-merge-diff's shape: at
 * each level the path elements that are members themselves, and the subsets below elements that have
 * members further down. A path can be a member and have members below it (a list item and its
 * fields); FieldsV1 writes that as {@code ".":{}}.
 *
 * <p>Sets are normalized (no empty subsets), so two sets with the same members are {@link #equals}.
 * The algebra is the usual one: {@link #union}, {@link #intersection} and {@link #difference} on
 * members, plus {@link #withoutPrefixes} (structured-merge-diff's {@code RecursiveDifference}).
 *
 * <p>Immutable and thread-safe.
 */
public final class FieldSet {

    /** The empty set. */
    public static final FieldSet EMPTY = new FieldSet(new TreeSet<>(), new TreeMap<>());

    /** Invariant: no child is empty. Both collections are never modified after construction. */
    private final NavigableSet<PathElement> members;

    private final NavigableMap<PathElement, FieldSet> children;

    private FieldSet(NavigableSet<PathElement> members, NavigableMap<PathElement, FieldSet> children) {
        this.members = members;
        this.children = children;
    }

    /** A set of the given paths (the root path is ignored). */
    public static FieldSet of(FieldPath... paths) {
        Builder b = builder();
        for (FieldPath p : paths) {
            b.insert(p);
        }
        return b.build();
    }

    /** A mutable builder. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Reads the FieldsV1 JSON form, e.g. {@code {"f:metadata":{"f:labels":{"f:app":{}}}}}.
     *
     * @throws IllegalArgumentException when it is not a FieldsV1 object
     */
    public static FieldSet fromFieldsV1(JsonNode fieldsV1) {
        if (fieldsV1 == null || fieldsV1.isNull()) {
            return EMPTY;
        }
        if (!fieldsV1.isObject()) {
            throw new IllegalArgumentException("FieldsV1 must be a JSON object");
        }
        Builder b = builder();
        read(fieldsV1, FieldPath.ROOT, b);
        return b.build();
    }

    private static void read(JsonNode node, FieldPath prefix, Builder b) {
        for (Map.Entry<String, JsonNode> e : node.properties()) {
            if (e.getKey().equals(".")) {
                b.insert(prefix);
                continue;
            }
            FieldPath path = prefix.child(PathElement.parseFieldsV1Key(e.getKey()));
            JsonNode value = e.getValue();
            if (!value.isObject()) {
                throw new IllegalArgumentException("FieldsV1 value at " + path + " must be a JSON object");
            }
            if (value.isEmpty()) {
                b.insert(path);
            } else {
                read(value, path, b);
            }
        }
    }

    /** The FieldsV1 JSON form, elements sorted, {@code "."} first where a member has members below. */
    public ObjectNode toFieldsV1() {
        ObjectNode out = Json.object();
        TreeSet<PathElement> all = new TreeSet<>(members);
        all.addAll(children.keySet());
        for (PathElement pe : all) {
            FieldSet child = children.get(pe);
            if (child == null) {
                out.set(pe.fieldsV1Key(), Json.object());
            } else {
                ObjectNode sub = Json.object();
                if (members.contains(pe)) {
                    sub.set(".", Json.object());
                }
                sub.setAll(child.toFieldsV1());
                out.set(pe.fieldsV1Key(), sub);
            }
        }
        return out;
    }

    /** True when the set has no member. */
    public boolean isEmpty() {
        return members.isEmpty() && children.isEmpty();
    }

    /** Whether {@code path} is a member. */
    public boolean has(FieldPath path) {
        List<PathElement> els = path.elements();
        if (els.isEmpty()) {
            return false;
        }
        FieldSet node = this;
        for (int i = 0; i < els.size() - 1; i++) {
            node = node.children.get(els.get(i));
            if (node == null) {
                return false;
            }
        }
        return node.members.contains(els.getLast());
    }

    /** Whether {@code path} or some path below it is a member. */
    public boolean hasAtOrBelow(FieldPath path) {
        FieldSet node = this;
        List<PathElement> els = path.elements();
        for (int i = 0; i < els.size(); i++) {
            if (i == els.size() - 1 && node.members.contains(els.get(i))) {
                return true;
            }
            node = node.children.get(els.get(i));
            if (node == null) {
                return false;
            }
        }
        return !node.isEmpty();
    }

    /** The members, in structured-merge-diff's iteration order (a level's members, then its subsets). */
    public List<FieldPath> paths() {
        List<FieldPath> out = new ArrayList<>();
        forEach(FieldPath.ROOT, out::add);
        return Collections.unmodifiableList(out);
    }

    private void forEach(FieldPath prefix, Consumer<FieldPath> action) {
        members.forEach(pe -> action.accept(prefix.child(pe)));
        children.forEach((pe, child) -> child.forEach(prefix.child(pe), action));
    }

    /** The number of members. */
    public int size() {
        int n = members.size();
        for (FieldSet child : children.values()) {
            n += child.size();
        }
        return n;
    }

    /** Members of either set. */
    public FieldSet union(FieldSet other) {
        if (other.isEmpty()) {
            return this;
        }
        if (isEmpty()) {
            return other;
        }
        TreeSet<PathElement> m = new TreeSet<>(members);
        m.addAll(other.members);
        TreeMap<PathElement, FieldSet> c = new TreeMap<>(children);
        other.children.forEach((pe, child) -> c.merge(pe, child, FieldSet::union));
        return new FieldSet(m, c);
    }

    /** Members of both sets. */
    public FieldSet intersection(FieldSet other) {
        TreeSet<PathElement> m = new TreeSet<>(members);
        m.retainAll(other.members);
        TreeMap<PathElement, FieldSet> c = new TreeMap<>();
        children.forEach((pe, child) -> {
            FieldSet o = other.children.get(pe);
            if (o != null) {
                FieldSet i = child.intersection(o);
                if (!i.isEmpty()) {
                    c.put(pe, i);
                }
            }
        });
        return new FieldSet(m, c);
    }

    /** Members of this set that are not members of {@code other}. */
    public FieldSet difference(FieldSet other) {
        if (other.isEmpty()) {
            return this;
        }
        TreeSet<PathElement> m = new TreeSet<>(members);
        m.removeAll(other.members);
        TreeMap<PathElement, FieldSet> c = new TreeMap<>();
        children.forEach((pe, child) -> {
            FieldSet o = other.children.get(pe);
            FieldSet d = o == null ? child : child.difference(o);
            if (!d.isEmpty()) {
                c.put(pe, d);
            }
        });
        return new FieldSet(m, c);
    }

    /** Members of this set that neither are members of {@code prefixes} nor lie below one of them. */
    public FieldSet withoutPrefixes(FieldSet prefixes) {
        if (prefixes.isEmpty()) {
            return this;
        }
        TreeSet<PathElement> m = new TreeSet<>(members);
        m.removeAll(prefixes.members);
        TreeMap<PathElement, FieldSet> c = new TreeMap<>();
        children.forEach((pe, child) -> {
            if (prefixes.members.contains(pe)) {
                return;
            }
            FieldSet o = prefixes.children.get(pe);
            FieldSet d = o == null ? child : child.withoutPrefixes(o);
            if (!d.isEmpty()) {
                c.put(pe, d);
            }
        });
        return new FieldSet(m, c);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof FieldSet other && members.equals(other.members) && children.equals(other.children);
    }

    @Override
    public int hashCode() {
        return Objects.hash(members, children);
    }

    @Override
    public String toString() {
        return paths().toString();
    }

    /**
     * Collects paths into a {@link FieldSet}. Not thread-safe.
     */
    public static final class Builder {
        private final TreeSet<PathElement> members = new TreeSet<>();
        private final TreeMap<PathElement, Builder> children = new TreeMap<>();

        private Builder() {}

        /** Adds a path; the root path is ignored. */
        public Builder insert(FieldPath path) {
            List<PathElement> els = path.elements();
            if (els.isEmpty()) {
                return this;
            }
            Builder node = this;
            for (int i = 0; i < els.size() - 1; i++) {
                node = node.children.computeIfAbsent(els.get(i), k -> new Builder());
            }
            node.members.add(els.getLast());
            return this;
        }

        /** The immutable set. */
        public FieldSet build() {
            TreeMap<PathElement, FieldSet> c = new TreeMap<>();
            children.forEach((pe, b) -> {
                FieldSet s = b.build();
                if (!s.isEmpty()) {
                    c.put(pe, s);
                }
            });
            if (members.isEmpty() && c.isEmpty()) {
                return EMPTY;
            }
            return new FieldSet(new TreeSet<>(members), c);
        }
    }
}
