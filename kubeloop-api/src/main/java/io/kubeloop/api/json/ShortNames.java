package io.kubeloop.api.json;

import java.nio.charset.StandardCharsets;

/**
 * The strings of short JSON names (at most 16 ASCII bytes), keyed by their bytes packed in two longs: as no
 * byte of a JSON string is zero, the key is the name itself, and a lookup compares two longs, not bytes.
 * Two-way set-associative: a name may be in either slot of its set (an even slot and the next); a new name
 * takes the set's first slot and moves what was there to the second, so two names of a schema that share a
 * set are both kept, and the table never grows. The strings it returns are the same instance for the same name
 * while it keeps them, so their hash codes (a generated reader switches on them) are computed once.
 *
 * <p>Not thread-safe: one table per reader.
 */
final class ShortNames {

    private final long[] lows;
    private final long[] highs;
    private final String[] names;
    /** 64 minus the number of bits of a slot index. */
    private final int shift;

    /** A table of {@code 2^bits} slots. */
    ShortNames(int bits) {
        this.lows = new long[1 << bits];
        this.highs = new long[1 << bits];
        this.names = new String[1 << bits];
        this.shift = 64 - bits;
    }

    /** The name whose packed bytes are {@code low} and {@code high}: {@code bytes[from, from + length)}. */
    String find(long low, long high, byte[] bytes, int from, int length) {
        int i = slot(low, high);
        String known = get(i, low, high);
        return known != null ? known : put(i, low, high, bytes, from, length);
    }

    /** The set of the packed bytes {@code low} and {@code high}: the index of its first slot. */
    int slot(long low, long high) {
        long mixed = (low ^ (high * 0x9E3779B97F4A7C15L)) * 0xC2B2AE3D27D4EB4FL;
        return (int) (mixed >>> shift) & ~1; // the top bits
    }

    /** The name kept in the set {@code slot} when its packed bytes are {@code low} and {@code high}, else null. */
    String get(int slot, long low, long high) {
        String known = names[slot];
        if (known != null && lows[slot] == low && highs[slot] == high) {
            return known;
        }
        int other = slot + 1;
        known = names[other];
        return known != null && lows[other] == low && highs[other] == high ? known : null;
    }

    /**
     * A new string of {@code bytes[from, from + length)}, kept in the first slot of the set {@code slot}; what
     * that slot kept moves to the second.
     */
    String put(int slot, long low, long high, byte[] bytes, int from, int length) {
        String name = new String(bytes, from, length, StandardCharsets.ISO_8859_1);
        int other = slot + 1;
        lows[other] = lows[slot];
        highs[other] = highs[slot];
        names[other] = names[slot];
        lows[slot] = low;
        highs[slot] = high;
        names[slot] = name;
        return name;
    }
}
