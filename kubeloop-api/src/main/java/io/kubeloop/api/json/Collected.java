package io.kubeloop.api.json;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * The lists and maps a {@link JsonInput} reads, built from the items it collects on a stack: unmodifiable
 * and as small as their contents allow — no list or map of a record is a growable {@code ArrayList} or a
 * {@code LinkedHashMap} of entries — because a cache holds tens of thousands of records, and every object
 * in it costs heap and the garbage collector's time at each collection that copies it. Empty lists and maps
 * are shared, a list of one or two items is one object, a longer list two, and a map of up to {@value
 * #SMALL_MAP} entries two (its keys and values in one array, in the JSON's order; looked up by a scan,
 * which at that size is as fast as hashing). Lists with null items and larger maps are unmodifiable views
 * of an array or a {@code LinkedHashMap} that nothing else holds. Every one is a collection {@link Frozen}
 * knows to be unmodifiable, so a record's constructor keeps it without a copy.
 *
 * <p>Nested reads share the stack: a list or map marks the stack's top before its items and takes them
 * off at its end. Not thread-safe: one per read or stream.
 */
final class Collected {

    /** The largest map kept as one array; a larger one is a {@code LinkedHashMap}. */
    static final int SMALL_MAP = 16;

    private Object[] stack = new Object[32];
    private int top;
    /** The highest top since the last reset: the slots a reset clears (pops leave theirs until then). */
    private int highest;

    /** The stack's top, where the next list or map starts. */
    int mark() {
        return top;
    }

    /** Empties the stack: at the start of a read, after an earlier one that failed midway. */
    void reset() {
        Arrays.fill(stack, 0, Math.max(top, highest), null);
        top = 0;
        highest = 0;
    }

    void push(Object item) {
        if (top == stack.length) {
            stack = Arrays.copyOf(stack, top * 2);
        }
        stack[top++] = item;
    }

    /** The items pushed since {@code mark}, as a list; pops them. */
    @SuppressWarnings("unchecked") // the caller pushed Ts
    <T> List<T> list(int mark) {
        int n = top - mark;
        Object[] s = stack;
        List<?> out;
        if (n == 0) {
            out = List.of();
        } else if (n == 1 && s[mark] != null) {
            out = List.of(s[mark]);
        } else if (n == 2 && s[mark] != null && s[mark + 1] != null) {
            out = List.of(s[mark], s[mark + 1]);
        } else {
            Object[] items = Arrays.copyOfRange(s, mark, top);
            out = Frozen.copyOf(items);
        }
        pop(mark);
        return (List<T>) out;
    }

    /** The names and values pushed in turn since {@code mark}, as a map (the last of a repeated name wins); pops them. */
    @SuppressWarnings("unchecked") // the caller pushed Strings and Vs
    <V> Map<String, V> map(int mark) {
        int n = top - mark;
        Object[] s = stack;
        Map<String, ?> out;
        if (n == 0) {
            out = Map.of();
        } else if (n <= 2 * SMALL_MAP && !hasRepeatedName(s, mark, top)) {
            out = new SmallMap<>(Arrays.copyOfRange(s, mark, top));
        } else {
            LinkedHashMap<String, Object> copy = new LinkedHashMap<>();
            for (int i = mark; i < top; i += 2) {
                copy.put((String) s[i], s[i + 1]);
            }
            out = Frozen.wrap(copy);
        }
        pop(mark);
        return (Map<String, V>) out;
    }

    private void pop(int mark) {
        // the popped slots keep their items until they are overwritten or the next read resets the stack:
        // one clearing per read instead of one per list or map
        highest = Math.max(highest, top);
        top = mark;
    }

    private static boolean hasRepeatedName(Object[] s, int from, int to) {
        for (int i = from + 2; i < to; i += 2) {
            for (int j = from; j < i; j += 2) {
                if (s[i].equals(s[j])) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * An unmodifiable map of a few entries in one array ({@code name0, value0, name1, value1, …}), in
     * the order given; names are distinct and not null, values may be null. Equal to any map of the same
     * entries, as {@link Map} says.
     */
    static final class SmallMap<V> extends AbstractMap<String, V> {

        private final Object[] entries;

        SmallMap(Object[] entries) {
            this.entries = entries;
        }

        private int indexOf(Object name) {
            if (name != null) {
                for (int i = 0; i < entries.length; i += 2) {
                    if (name.equals(entries[i])) {
                        return i;
                    }
                }
            }
            return -1;
        }

        @Override
        public int size() {
            return entries.length / 2;
        }

        @Override
        public boolean containsKey(Object name) {
            return indexOf(name) >= 0;
        }

        @Override
        @SuppressWarnings("unchecked") // values are Vs
        public V get(Object name) {
            int i = indexOf(name);
            return i < 0 ? null : (V) entries[i + 1];
        }

        @Override
        @SuppressWarnings("unchecked") // names are Strings, values Vs
        public void forEach(BiConsumer<? super String, ? super V> action) {
            for (int i = 0; i < entries.length; i += 2) {
                action.accept((String) entries[i], (V) entries[i + 1]);
            }
        }

        @Override
        public Set<Entry<String, V>> entrySet() {
            return new AbstractSet<>() {
                @Override
                public int size() {
                    return entries.length / 2;
                }

                @Override
                public Iterator<Entry<String, V>> iterator() {
                    return new Iterator<>() {
                        private int next;

                        @Override
                        public boolean hasNext() {
                            return next < entries.length;
                        }

                        @Override
                        @SuppressWarnings("unchecked") // names are Strings, values Vs
                        public Entry<String, V> next() {
                            if (next >= entries.length) {
                                throw new NoSuchElementException();
                            }
                            Entry<String, V> e =
                                    new SimpleImmutableEntry<>((String) entries[next], (V) entries[next + 1]);
                            next += 2;
                            return e;
                        }
                    };
                }
            };
        }
    }
}
