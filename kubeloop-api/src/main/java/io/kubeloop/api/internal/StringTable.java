package io.kubeloop.api.internal;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A bounded table that makes equal strings one instance: a decoder passes every string it reads
 * through {@link #share}, and the strings that repeat across the objects it decodes (kinds, namespaces,
 * label keys and values, status words, image names) are kept once instead of once per object — in a
 * cache of 50,000 objects, the difference between one {@code "Healthy"} and 50,000.
 *
 * <p>Direct-mapped: a string's hash picks one slot; an equal string there is returned, otherwise the
 * string takes the slot. Strings that never repeat (names, UIDs) pass through and are replaced by the
 * next string hashing to their slot, so the table never grows, needs no clearing and costs one array
 * read and at most one comparison of contents per string (for strings that came as characters or
 * bytes: after their hashes matched, vectorized against the copy the table keeps next to the string). Strings
 * longer than {@link #MAX_LENGTH} pass through unshared: long values (certificates, scripts, JSON in
 * annotations) rarely repeat and are not worth the comparison.
 *
 * <p>Not thread-safe: one table per decoder (a decoder is confined to one thread at a time).
 */
public final class StringTable {

    /** Strings longer than this many chars are returned as given. */
    public static final int MAX_LENGTH = 256;

    private final String[] slots;
    /** The characters of {@code slots[i]} when it came from {@link #share(char[], int, int)}, else null. */
    private final char[][] chars;
    /** The bytes of {@code slots[i]} when it came from {@link #shareAscii}, else null. */
    private final byte[][] ascii;
    /** The hash of {@code slots[i]} ({@link String#hashCode()}). */
    private final int[] hashes;

    private final int mask;

    /**
     * A table of {@code size} slots.
     *
     * @param size a power of two
     * @throws IllegalArgumentException when {@code size} is not a positive power of two
     */
    public StringTable(int size) {
        if (size <= 0 || Integer.bitCount(size) != 1) {
            throw new IllegalArgumentException("size must be a positive power of two: " + size);
        }
        this.slots = new String[size];
        this.chars = new char[size][];
        this.ascii = new byte[size][];
        this.hashes = new int[size];
        this.mask = size - 1;
    }

    /** A table of 4,096 slots. */
    public StringTable() {
        this(4096);
    }

    /**
     * The string of {@code chars[offset, offset + length)}: the equal string this table returned before,
     * without allocating, or a new one (which takes its slot). For decoders that have the characters
     * before any string (Jackson's {@code getStringCharacters()}).
     */
    public String share(char[] chars, int offset, int length) {
        if (length > MAX_LENGTH) {
            return new String(chars, offset, length);
        }
        int h = 0;
        for (int k = offset, end = offset + length; k < end; k++) {
            h = 31 * h + chars[k];
        }
        int i = (h ^ (h >>> 16)) & mask;
        String known = slots[i];
        if (known != null && known.length() == length) {
            char[] knownChars = this.chars[i];
            if (knownChars != null
                    ? hashes[i] == h && Arrays.equals(knownChars, 0, length, chars, offset, offset + length)
                    : sameChars(known, chars, offset)) {
                return known;
            }
        }
        char[] copy = Arrays.copyOfRange(chars, offset, offset + length);
        String s = new String(copy);
        slots[i] = s;
        this.chars[i] = copy;
        ascii[i] = null;
        hashes[i] = h;
        return s;
    }

    /**
     * The string of the ASCII bytes {@code bytes[offset, offset + length)} (every byte below 0x80): the
     * equal string this table returned before, without allocating, or a new one (which takes its slot).
     * For decoders that read JSON text straight from its UTF-8 bytes.
     */
    public String shareAscii(byte[] bytes, int offset, int length) {
        int h = 0;
        for (int k = offset, end = offset + length; k < end; k++) {
            h = 31 * h + bytes[k];
        }
        return shareAscii(bytes, offset, length, h);
    }

    /**
     * As {@link #shareAscii(byte[], int, int)}, for a decoder that computed the string's hash while it
     * read the bytes: {@code hash} is {@link String#hashCode()} of the string (for ASCII, {@code h = 31
     * * h + byte} over the bytes).
     */
    public String shareAscii(byte[] bytes, int offset, int length, int hash) {
        if (length > MAX_LENGTH) {
            return new String(bytes, offset, length, StandardCharsets.ISO_8859_1);
        }
        int h = hash;
        int i = (h ^ (h >>> 16)) & mask;
        if (hashes[i] == h) { // the hash first: it is in this table's own array, the strings are elsewhere
            byte[] knownBytes = ascii[i];
            if (knownBytes != null) {
                if (knownBytes.length == length
                        && Arrays.equals(knownBytes, 0, length, bytes, offset, offset + length)) {
                    return slots[i];
                }
            } else {
                String known = slots[i];
                if (known != null && known.length() == length && sameBytes(known, bytes, offset)) {
                    return known;
                }
            }
        }
        byte[] copy = Arrays.copyOfRange(bytes, offset, offset + length);
        String s = new String(copy, StandardCharsets.ISO_8859_1);
        slots[i] = s;
        chars[i] = null;
        ascii[i] = copy;
        hashes[i] = h;
        return s;
    }

    private static boolean sameBytes(String s, byte[] bytes, int offset) {
        for (int k = 0, n = s.length(); k < n; k++) {
            if (s.charAt(k) != bytes[offset + k]) {
                return false;
            }
        }
        return true;
    }

    private static boolean sameChars(String s, char[] chars, int offset) {
        for (int k = 0, n = s.length(); k < n; k++) {
            if (s.charAt(k) != chars[offset + k]) {
                return false;
            }
        }
        return true;
    }

    /** {@code s}, or the equal string this table returned before; null for null. */
    public String share(String s) {
        if (s == null || s.length() > MAX_LENGTH) {
            return s;
        }
        int h = s.hashCode();
        int i = (h ^ (h >>> 16)) & mask;
        String known = slots[i];
        if (known != null && known.equals(s)) {
            return known;
        }
        slots[i] = s;
        chars[i] = null;
        ascii[i] = null;
        hashes[i] = h;
        return s;
    }
}
