package io.kubeloop.api.json;

import java.nio.charset.StandardCharsets;

/**
 * The strings of short JSON names (at most 16 ASCII bytes), keyed by their bytes packed in two longs: as no
 * byte of a JSON string is zero, the key is the name itself, and a lookup compares two longs, not bytes.
 * Direct-mapped like {@code StringTable}: a new name takes its slot, so the table never grows. The strings
 * it returns are the same instance for the same name while it keeps them, so their hash codes (a
 * generated reader switches on them) are computed once.
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
        String known = names[i];
        if (known != null && lows[i] == low && highs[i] == high) {
            return known;
        }
        return put(i, low, high, bytes, from, length);
    }

    /** The slot of the packed bytes {@code low} and {@code high}. */
    int slot(long low, long high) {
        long mixed = (low ^ (high * 0x9E3779B97F4A7C15L)) * 0xC2B2AE3D27D4EB4FL;
        return (int) (mixed >>> shift); // the top bits
    }

    /** The name kept in {@code slot} when its packed bytes are {@code low} and {@code high}, else null. */
    String get(int slot, long low, long high) {
        String known = names[slot];
        return known != null && lows[slot] == low && highs[slot] == high ? known : null;
    }

    /** A new string of {@code bytes[from, from + length)}, kept in {@code slot}. */
    String put(int slot, long low, long high, byte[] bytes, int from, int length) {
        String name = new String(bytes, from, length, StandardCharsets.ISO_8859_1);
        lows[slot] = low;
        highs[slot] = high;
        names[slot] = name;
        return name;
    }
}
