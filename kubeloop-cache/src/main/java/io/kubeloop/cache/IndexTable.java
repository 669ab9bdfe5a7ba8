package io.kubeloop.cache;

import io.kubeloop.api.ObjectKey;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * One index: value to the keys indexed under it. A value with a single key holds the key itself
 * instead of a one-element set, which keeps high-cardinality indices (one value per object) small.
 *
 * <p>Invariant: every value maps to an {@link ObjectKey} or to a {@link Set} of at least two keys;
 * values without keys are removed. Not thread-safe: guarded by the owning store's lock.
 */
final class IndexTable {

    /** value -> ObjectKey | HashSet&lt;ObjectKey&gt; (size &gt;= 2). */
    private final Map<String, Object> byValue = new HashMap<>();

    void add(String value, ObjectKey key) {
        Object cur = byValue.get(value);
        if (cur == null) {
            byValue.put(value, key);
        } else if (cur instanceof ObjectKey single) {
            if (!single.equals(key)) {
                Set<ObjectKey> set = new HashSet<>(4);
                set.add(single);
                set.add(key);
                byValue.put(value, set);
            }
        } else {
            @SuppressWarnings("unchecked")
            Set<ObjectKey> set = (Set<ObjectKey>) cur;
            set.add(key);
        }
    }

    void remove(String value, ObjectKey key) {
        Object cur = byValue.get(value);
        if (cur == null) {
            return;
        }
        if (cur instanceof ObjectKey single) {
            if (single.equals(key)) {
                byValue.remove(value);
            }
            return;
        }
        @SuppressWarnings("unchecked")
        Set<ObjectKey> set = (Set<ObjectKey>) cur;
        set.remove(key);
        if (set.size() == 1) {
            byValue.put(value, set.iterator().next());
        }
    }

    /** Calls {@code action} for every key under {@code value}. */
    void forEachKey(String value, Consumer<ObjectKey> action) {
        Object cur = byValue.get(value);
        if (cur == null) {
            return;
        }
        if (cur instanceof ObjectKey single) {
            action.accept(single);
        } else {
            @SuppressWarnings("unchecked")
            Set<ObjectKey> set = (Set<ObjectKey>) cur;
            set.forEach(action);
        }
    }

    /**
     * Appends {@code objects.get(k)} to {@code out} for every key {@code k} under {@code value}, in
     * {@link #forEachKey} order: a plain loop, so that a caller holding the lock that guards
     * {@code objects} reads it in its own frame (no callback).
     */
    <V> void collect(String value, Map<ObjectKey, V> objects, List<? super V> out) {
        Object cur = byValue.get(value);
        if (cur == null) {
            return;
        }
        if (cur instanceof ObjectKey single) {
            out.add(objects.get(single));
        } else {
            @SuppressWarnings("unchecked")
            Set<ObjectKey> set = (Set<ObjectKey>) cur;
            for (ObjectKey k : set) {
                out.add(objects.get(k));
            }
        }
    }

    int count(String value) {
        Object cur = byValue.get(value);
        return cur == null ? 0 : cur instanceof ObjectKey ? 1 : ((Set<?>) cur).size();
    }

    List<String> values() {
        return new ArrayList<>(byValue.keySet());
    }
}
