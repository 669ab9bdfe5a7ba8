package io.kubeloop.api.json;

import io.kubeloop.api.internal.StringTable;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * The slow path of {@link BytesInput}'s strings: decoding a JSON string that has escapes or non-ASCII text,
 * and checking UTF-8 as Jackson checks it. {@code BytesInput} keeps the plain-ASCII reads, which are on the
 * hot path, and comes here only when a string needs more.
 *
 * <p>Invariants: the bytes given have been checked by {@code JsonScanner} (escapes well formed, no control
 * characters); malformed UTF-8 throws {@link BytesInput.Fallback}, as Jackson refuses it. Static methods
 * only, no state: thread-safe.
 */
final class JsonStrings {

    private JsonStrings() {}

    /** {@code raw}, the checked text between a JSON string's quotes, with its escapes decoded, through {@code table}. */
    static String unescape(String raw, StringTable table) {
        if (raw.indexOf('\\') < 0) {
            return table.share(raw);
        }
        StringBuilder out = new StringBuilder(raw.length());
        for (int k = 0; k < raw.length(); k++) {
            char c = raw.charAt(k);
            if (c != '\\') {
                out.append(c);
                continue;
            }
            char e = raw.charAt(++k);
            switch (e) {
                case 'b' -> out.append('\b');
                case 'f' -> out.append('\f');
                case 'n' -> out.append('\n');
                case 'r' -> out.append('\r');
                case 't' -> out.append('\t');
                case 'u' -> {
                    out.append((char) Integer.parseInt(raw, k + 1, k + 5, 16));
                    k += 4;
                }
                default -> out.append(e); // '"', '\\', '/'
            }
        }
        return table.share(out.toString());
    }

    /** The UTF-8 text of {@code b[from, from + length)}; Jackson refuses malformed UTF-8, so it falls back. */
    static String checkUtf8(byte[] b, int from, int length) {
        try {
            CharBuffer chars = StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(b, from, length));
            return chars.toString();
        } catch (CharacterCodingException malformed) {
            throw new BytesInput.Fallback();
        }
    }
}
