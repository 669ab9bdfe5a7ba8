package io.kubeloop.api.json;

import java.util.AbstractList;
import java.util.AbstractMap;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.RandomAccess;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Unmodifiable lists and maps for the components of immutable records: what the canonical constructors of
 * generated models call, so that a record holds nothing a caller can change and a cache can hand the same
 * instance to every reader.
 *
 * <p>A list or map that is already unmodifiable — the JDK's {@code List.of}/{@code Map.of} collections and
 * those a {@link JsonInput} reads — is returned as it is (no copy on the read path); anything else is copied,
 * keeping its order and its null items. {@link #deep} also freezes the lists and maps nested in untyped
 * values (free-form JSON, kept unknown fields). Records and scalars are immutable already and are not
 * touched.
 *
 * <p>Stateless and thread-safe.
 */
public final class Frozen {

    /** The collection classes known to be unmodifiable with no way to reach a modifiable backing store. */
    private static final Set<Class<?>> UNMODIFIABLE = Set.copyOf(Arrays.asList( // some are one class
            List.of().getClass(),
            List.of(1).getClass(),
            List.of(1, 2, 3).getClass(),
            Map.of().getClass(),
            Map.of(1, 1).getClass(),
            Map.of(1, 1, 2, 2).getClass(),
            NullableList.class,
            LargeMap.class,
            Collected.SmallMap.class));

    private Frozen() {}

    /**
     * {@code list} unmodifiable: itself when it is already, else an unmodifiable copy (null items kept).
     * Its items are not looked into: use it for lists of immutable values (records, strings, numbers).
     *
     * @return null for null
     */
    public static <T> List<T> list(List<T> list) {
        if (list == null || UNMODIFIABLE.contains(list.getClass())) {
            return list;
        }
        return copyOf(list.toArray());
    }

    /**
     * {@code map} unmodifiable: itself when it is already, else an unmodifiable copy in its iteration order
     * (null values kept). Its values are not looked into: use it for maps of immutable values.
     *
     * @return null for null
     */
    public static <V> Map<String, V> map(Map<String, V> map) {
        if (map == null || UNMODIFIABLE.contains(map.getClass())) {
            return map;
        }
        return copyOf(map);
    }

    /**
     * {@code value} with every list and map in it unmodifiable, however deep: the same instance when nothing
     * in it needed freezing. For untyped values (maps, lists, strings, numbers, booleans, as Jackson reads
     * free-form JSON) and for lists and maps whose items are themselves lists or maps.
     *
     * @return null for null
     */
    @SuppressWarnings("unchecked") // a List stays a List, a Map a Map
    public static <T> T deep(T value) {
        if (value instanceof List<?> list) {
            Object[] items = list.toArray();
            boolean same = UNMODIFIABLE.contains(list.getClass());
            for (int i = 0; i < items.length; i++) {
                Object item = deep(items[i]);
                same &= item == items[i];
                items[i] = item;
            }
            return same ? value : (T) copyOf(items);
        }
        if (value instanceof Map<?, ?> map) {
            boolean same = UNMODIFIABLE.contains(map.getClass());
            Map<String, Object> copy = new LinkedHashMap<>();
            for (Map.Entry<?, ?> e : map.entrySet()) {
                Object item = deep(e.getValue());
                same &= item == e.getValue();
                copy.put((String) e.getKey(), item);
            }
            return same ? value : (T) copyOf(copy);
        }
        return value;
    }

    /**
     * {@code tree} as a JSON tree that cannot be changed: objects whose maps and arrays whose lists are
     * unmodifiable (a change throws {@code UnsupportedOperationException}), every empty object one instance.
     * A tree frozen already is returned as it is; {@code deepCopy()} of a frozen tree is an ordinary, changeable
     * one.
     *
     * @return null for null
     */
    public static JsonNode tree(JsonNode tree) {
        if (tree == null || tree instanceof FrozenObject || tree instanceof FrozenArray || tree.isValueNode()) {
            return tree;
        }
        if (tree.isObject()) {
            if (tree.isEmpty()) {
                return FrozenObject.EMPTY;
            }
            Map<String, JsonNode> children = new LinkedHashMap<>();
            for (Map.Entry<String, JsonNode> e : tree.properties()) {
                children.put(e.getKey(), tree(e.getValue()));
            }
            return new FrozenObject(copyOf(children));
        }
        if (tree.isArray()) {
            Object[] items = new Object[tree.size()];
            for (int i = 0; i < items.length; i++) {
                items[i] = tree(tree.get(i));
            }
            return new FrozenArray(copyOf(items));
        }
        return tree; // a missing node
    }

    /** An object node over an unmodifiable map, as {@link #tree} and the byte reader make them. */
    static final class FrozenObject extends ObjectNode {
        private static final long serialVersionUID = 1L;

        /** The one empty object. */
        static final FrozenObject EMPTY = new FrozenObject(Map.of());

        FrozenObject(Map<String, JsonNode> children) {
            super(JsonNodeFactory.instance, children);
        }
    }

    /** An array node over an unmodifiable list. */
    static final class FrozenArray extends ArrayNode {
        private static final long serialVersionUID = 1L;

        FrozenArray(List<JsonNode> items) {
            super(JsonNodeFactory.instance, items);
        }
    }

    /** An unmodifiable list of {@code items} (which it takes over), null items allowed. */
    @SuppressWarnings("unchecked") // the caller's items are Ts
    static <T> List<T> copyOf(Object[] items) {
        for (Object item : items) {
            if (item == null) {
                return new NullableList<>((T[]) items);
            }
        }
        return (List<T>) List.of(items);
    }

    /** An unmodifiable map of {@code map}'s entries, in its order (a small one in one array). */
    static <V> Map<String, V> copyOf(Map<String, V> map) {
        if (map.isEmpty()) {
            return Map.of();
        }
        if (map.size() <= Collected.SMALL_MAP) {
            Object[] entries = new Object[map.size() * 2];
            int i = 0;
            for (Map.Entry<String, V> e : map.entrySet()) {
                entries[i++] = e.getKey();
                entries[i++] = e.getValue();
            }
            return new Collected.SmallMap<>(entries);
        }
        return new LargeMap<>(new LinkedHashMap<>(map));
    }

    /** {@code map} (which it takes over, no other reference kept) as an unmodifiable map. */
    static <V> Map<String, V> wrap(LinkedHashMap<String, V> map) {
        return new LargeMap<>(map);
    }

    /** An unmodifiable list over an array that nothing else references; null items allowed. */
    private static final class NullableList<T> extends AbstractList<T> implements RandomAccess {
        private final T[] items;

        NullableList(T[] items) {
            this.items = items;
        }

        @Override
        public T get(int index) {
            return items[index];
        }

        @Override
        public int size() {
            return items.length;
        }

        @Override
        public Object[] toArray() {
            return Arrays.copyOf(items, items.length, Object[].class);
        }
    }

    /** An unmodifiable map over a map that nothing else references. */
    private static final class LargeMap<V> extends AbstractMap<String, V> {
        private final Map<String, V> entries;

        LargeMap(LinkedHashMap<String, V> entries) {
            this.entries = Collections.unmodifiableMap(entries);
        }

        @Override
        public V get(Object key) {
            return entries.get(key);
        }

        @Override
        public boolean containsKey(Object key) {
            return entries.containsKey(key);
        }

        @Override
        public int size() {
            return entries.size();
        }

        @Override
        public V remove(Object key) {
            throw new UnsupportedOperationException("unmodifiable");
        }

        @Override
        public Set<Entry<String, V>> entrySet() {
            return entries.entrySet();
        }
    }
}
