package io.kubeloop.api.json;

import io.kubeloop.api.internal.JsonScanner;
import io.kubeloop.api.internal.StringTable;
import java.util.Arrays;

/**
 * Reads the JSON strings that {@link BytesInput} does not read in its fast path: those with escapes or
 * non-ASCII text. One whose text and escapes are all ASCII (a field set's {@code k:{\"name\":\"app\"}}, a
 * quoted annotation) is unescaped byte by byte into a scratch buffer that grows to the longest such
 * string; anything else ({@code \\u} beyond ASCII, non-ASCII bytes) is checked as UTF-8 and unescaped as
 * text ({@link JsonStrings}). Either way the string is shared through the caller's string table; control
 * characters, bad escapes and malformed UTF-8 are left to Jackson ({@link BytesInput.Fallback}).
 *
 * <p>Not thread-safe: one per {@link JsonBytesReader}, like its string tables.
 */
final class EscapedStrings {

    private byte[] scratch = new byte[256];
    private int end;

    /**
     * The string whose text starts at {@code b[start]} (after its opening quote); {@link #end()} is then
     * the index after its closing quote.
     *
     * @throws BytesInput.Fallback for what Jackson must read (or refuse)
     */
    String read(byte[] b, int start, int limit, StringTable table) {
        String ascii = ascii(b, start, limit, table);
        if (ascii != null) {
            return ascii;
        }
        int close = JsonScanner.stringEnd(b, start - 1, limit); // checks escapes and control characters
        if (close < 0) {
            throw BytesInput.fallback();
        }
        String raw = JsonStrings.checkUtf8(b, start, close - 1 - start);
        end = close;
        return JsonStrings.unescape(raw, table);
    }

    /** The string when its text and escapes are all ASCII, else null. */
    private String ascii(byte[] b, int start, int limit, StringTable table) {
        byte[] out = scratch;
        int n = 0;
        for (int i = start; i < limit; i++) {
            byte c = b[i];
            if (c == '"') {
                end = i + 1;
                return table.shareAscii(out, 0, n);
            }
            if (c < 0x20) { // a control character or (negative) a non-ASCII byte
                return null;
            }
            if (n == out.length) {
                out = scratch = Arrays.copyOf(out, out.length * 2);
            }
            if (c != '\\') {
                out[n++] = c;
                continue;
            }
            if (++i == limit) {
                return null;
            }
            switch (b[i]) {
                case '"', '\\', '/' -> out[n++] = b[i];
                case 'b' -> out[n++] = '\b';
                case 'f' -> out[n++] = '\f';
                case 'n' -> out[n++] = '\n';
                case 'r' -> out[n++] = '\r';
                case 't' -> out[n++] = '\t';
                case 'u' -> {
                    int code = i + 4 < limit ? hex4(b, i + 1) : -1;
                    if (code < 0 || code >= 0x80) {
                        return null;
                    }
                    out[n++] = (byte) code;
                    i += 4;
                }
                default -> {
                    return null;
                }
            }
        }
        return null;
    }

    /** The index after the closing quote of the string {@link #read} read last. */
    int end() {
        return end;
    }

    /** The value of the four hex digits at {@code b[at, at + 4)}, or -1. */
    private static int hex4(byte[] b, int at) {
        int v = 0;
        for (int k = at; k < at + 4; k++) {
            int d = Character.digit(b[k], 16);
            if (d < 0) {
                return -1;
            }
            v = (v << 4) | d;
        }
        return v;
    }
}
