package io.kubeloop.api.json;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.function.Function;

/**
 * The small nested records one stream has read, by their exact JSON bytes, so that a nested object whose
 * bytes equal those of one read before is the same record instance instead of another equal copy: what a
 * string table does for strings, for records. Kubernetes objects repeat small
 * sub-objects — within one object (an Argo CD Application's source in its spec, its sync status, its
 * history and its last operation) and across objects (a health status, a retry policy, a toleration) —
 * and a cache of records then holds each once, with fewer objects for the garbage collector to copy and
 * no second parse.
 *
 * <p>Only records that hold nothing that can be changed are shared (the byte input does not remember one
 * in which it read a JSON object or array or kept unknown fields), so sharing is invisible but for
 * identity.
 * Objects are compared byte for byte; the key includes the reader, so equal bytes of two record types are
 * two records. Adaptive: a reader whose objects are not small or seldom repeat (fewer than one in {@value
 * #RARE} of its first {@value #TRIAL} lookups found) is not looked up again by this table. Bounded: {@value
 * #SLOTS} entries of at most {@value #MAX_BYTES} bytes each, a newer entry replacing an older one in its
 * slot.
 *
 * <p>Not thread-safe: one per {@link JsonBytesReader}, like its string tables.
 */
final class SharedRecords {

    private static final VarHandle WORDS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    /** The largest object (in bytes of JSON) looked up. */
    static final int MAX_BYTES = 384;

    static final int SLOTS = 2048;
    static final int TRIAL = 256;
    static final int RARE = 2;

    private byte[][] keys;
    private Object[] values;
    private Function<?, ?>[][] readers;
    private int[] indexes;

    /**
     * The readers tables the statistics are for: a stream of one kind reads a few (the models of the
     * built-in kinds have one per package, and a Deployment's records come from three).
     */
    private final Function<?, ?>[][] statsFor = new Function<?, ?>[STATS][];
    /** Lookups per reader index of each table; -1 once the reader is not looked up any more. */
    private final int[][] lookups = new int[STATS][];

    private final int[][] found = new int[STATS][];
    /** The statistics used last, and the next to replace when all are taken. */
    private int last;

    private int evict;

    /** The number of readers tables with statistics. */
    static final int STATS = 8;

    /** True when objects read by {@code table[index]} are looked up; counts the lookup. */
    boolean worthLooking(Function<?, ?>[] table, int index) {
        int t = stats(table);
        int n = lookups[t][index];
        if (n < 0) {
            return false;
        }
        if (n == TRIAL && found[t][index] * RARE < TRIAL) {
            lookups[t][index] = -1;
            return false;
        }
        lookups[t][index] = n == TRIAL ? n : n + 1;
        return true;
    }

    /** The slot of {@code table}'s statistics, taken (from the one used longest ago) if it has none. */
    private int stats(Function<?, ?>[] table) {
        if (statsFor[last] == table) {
            return last;
        }
        int t = -1;
        for (int i = 0; i < STATS && t < 0; i++) {
            if (statsFor[i] == table) {
                t = i;
            } else if (statsFor[i] == null) {
                t = i;
                start(i, table);
            }
        }
        if (t < 0) {
            t = evict;
            evict = (evict + 1) % STATS;
            start(t, table);
        }
        last = t;
        return t;
    }

    private void start(int slot, Function<?, ?>[] table) {
        statsFor[slot] = table;
        lookups[slot] = new int[table.length];
        found[slot] = new int[table.length];
    }

    /**
     * The record that {@code table[index]} read from bytes equal to {@code json[from, to)} (whose hash is
     * {@code hash}), or null.
     */
    Object find(Function<?, ?>[] table, int index, byte[] json, int from, int to, int hash) {
        if (keys == null) {
            return null;
        }
        int slot = slot(index, hash);
        byte[] key = keys[slot];
        if (key != null
                && indexes[slot] == index
                && readers[slot] == table
                && Arrays.equals(key, 0, key.length, json, from, to)) {
            if (statsFor[last] == table && found[last][index] < TRIAL) {
                found[last][index]++;
            }
            return values[slot];
        }
        return null;
    }

    /** Remembers {@code value}, read by {@code table[index]} from {@code json[from, to)}. */
    void put(Function<?, ?>[] table, int index, byte[] json, int from, int to, int hash, Object value) {
        putKey(table, index, Arrays.copyOfRange(json, from, to), hash, value);
    }

    /**
     * As {@link #put}, for a caller that holds a copy of the bytes already: {@code key} is kept as it is
     * and must never change.
     */
    void putKey(Function<?, ?>[] table, int index, byte[] key, int hash, Object value) {
        if (keys == null) {
            keys = new byte[SLOTS][];
            values = new Object[SLOTS];
            readers = new Function<?, ?>[SLOTS][];
            indexes = new int[SLOTS];
        }
        int slot = slot(index, hash);
        keys[slot] = key;
        values[slot] = value;
        readers[slot] = table;
        indexes[slot] = index;
    }

    /** The hash of {@code json[from, to)} that {@link #find} and {@link #put} take. */
    static int hash(byte[] json, int from, int to) {
        // eight bytes at a time, each word multiplied in; the table compares the bytes on a hit
        long h = to - from;
        int i = from;
        for (; i + Long.BYTES <= to; i += Long.BYTES) {
            h = (h ^ (long) WORDS.get(json, i)) * 0x9E3779B97F4A7C15L;
            h ^= h >>> 29;
        }
        for (; i < to; i++) {
            h = (h ^ json[i]) * 0x9E3779B97F4A7C15L;
        }
        return (int) (h ^ (h >>> 32));
    }

    private static int slot(int index, int hash) {
        int h = (hash + index) * 0x9E3779B9;
        return (h ^ (h >>> 16)) & (SLOTS - 1);
    }
}
