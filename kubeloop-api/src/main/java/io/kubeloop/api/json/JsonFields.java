package io.kubeloop.api.json;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The JSON property names of one record, numbered in the order given: what a generated reader passes to
 * {@link JsonInput#firstField} and {@link JsonInput#nextField}, which answer with a property's number
 * instead of its name, so that the reader is a {@code switch} over small integers. A reader over bytes
 * finds the number of a short name (at most 16 ASCII bytes, as almost all are) from its bytes packed in
 * two longs, without making a {@code String}; longer names and the names Jackson's parser gives are
 * looked up as strings.
 *
 * <p>Immutable and thread-safe: a generated record keeps its fields in a static constant.
 */
public final class JsonFields {

    private final Class<?> type;
    private final List<String> names;
    private final Map<String, Integer> byName;
    // open addressing over the packed short names: keys in lows/highs, numbers in indexes (-1: empty)
    private final long[] lows;
    private final long[] highs;
    private final int[] indexes;
    private final int mask;

    private JsonFields(Class<?> type, List<String> names) {
        this.type = type;
        this.names = names;
        this.byName = new HashMap<>();
        int size = Integer.highestOneBit(Math.max(4, names.size() * 4) - 1) << 1; // at most a quarter full
        this.lows = new long[size];
        this.highs = new long[size];
        this.indexes = new int[size];
        this.mask = size - 1;
        Arrays.fill(indexes, -1);
        for (int i = 0; i < names.size(); i++) {
            String name = names.get(i);
            if (byName.putIfAbsent(name, i) != null) {
                throw new IllegalArgumentException("the property " + name + " is named twice");
            }
            byte[] bytes = name.getBytes(StandardCharsets.UTF_8);
            if (isShort(bytes)) {
                long low = pack(bytes, 0);
                long high = pack(bytes, 8);
                int slot = slot(low, high);
                while (indexes[slot] >= 0) {
                    slot = (slot + 1) & mask;
                }
                lows[slot] = low;
                highs[slot] = high;
                indexes[slot] = i;
            }
        }
    }

    /**
     * The properties of {@code type}, numbered from 0 in the order given.
     *
     * @throws IllegalArgumentException when a name is given twice
     */
    public static JsonFields of(Class<?> type, String... names) {
        Objects.requireNonNull(type, "type");
        return new JsonFields(type, List.of(names));
    }

    /** The record type whose properties these are: for Jackson's errors. */
    public Class<?> type() {
        return type;
    }

    /** The number of properties. */
    public int size() {
        return names.size();
    }

    /** The name of property {@code index}. */
    public String name(int index) {
        return names.get(index);
    }

    /** The number of the property called {@code name}, or {@link JsonInput#UNKNOWN}. */
    public int find(String name) {
        Integer index = byName.get(name);
        return index == null ? JsonInput.UNKNOWN : index;
    }

    /**
     * The number of the property whose name is at most 16 ASCII bytes, given packed as {@code BytesInput}
     * packs them (byte {@code k} in bits {@code 8k} of {@code low}, then of {@code high}; zero past the end),
     * or {@link JsonInput#UNKNOWN}.
     */
    int find(long low, long high) {
        int slot = slot(low, high);
        while (true) {
            int index = indexes[slot];
            if (index < 0) {
                return JsonInput.UNKNOWN;
            }
            if (lows[slot] == low && highs[slot] == high) {
                return index;
            }
            slot = (slot + 1) & mask;
        }
    }

    /**
     * True when the name fits the packed form: at most 16 bytes, all ASCII and none that a JSON string
     * writes escaped, so that its bytes in the JSON are the name's own.
     */
    private static boolean isShort(byte[] bytes) {
        if (bytes.length > 16) {
            return false;
        }
        for (byte b : bytes) {
            if (b < 0x20 || b == '"' || b == '\\') { // negative: not ASCII
                return false;
            }
        }
        return true;
    }

    /**
     * Up to 8 bytes of {@code bytes} from {@code from} packed as {@code BytesInput} packs a short name: byte
     * {@code from + k} in bits {@code 8k}, zero past the end.
     */
    static long pack(byte[] bytes, int from) {
        long packed = 0;
        for (int k = from; k < Math.min(bytes.length, from + 8); k++) {
            packed |= (bytes[k] & 0xffL) << ((k - from) << 3);
        }
        return packed;
    }

    private int slot(long low, long high) {
        long mixed = (low ^ (high * 0x9E3779B97F4A7C15L)) * 0xC2B2AE3D27D4EB4FL;
        return (int) (mixed >>> 40) & mask;
    }

    @Override
    public String toString() {
        return type.getSimpleName() + names;
    }
}
