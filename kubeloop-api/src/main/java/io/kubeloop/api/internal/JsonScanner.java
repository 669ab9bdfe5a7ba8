package io.kubeloop.api.internal;

import java.util.Arrays;

/**
 * A byte-level structural scanner for UTF-8 JSON that finds where values end without tokenizing them: strings
 * are skipped to their closing quote (honouring backslash escapes), containers by counting depth (skipping the
 * strings inside), scalars by checking their characters. It is the fast path of kubeloop's compact decoding,
 * which needs only a few members of each object and the object's byte span.
 *
 * <p>Every method returns an offset, or one of two negative codes: {@link #NEED_MORE} when the value runs past
 * {@code limit} (the input is incomplete), {@link #FALLBACK} when the scanner meets something it does not accept
 * (malformed JSON, or a member name with escapes that callers compare byte-wise). The scanner validates structure
 * (quotes, brackets, colons, commas, the literals, the characters of numbers, no raw control characters in
 * strings) but not escape sequences, UTF-8 or number grammar in full: on {@link #FALLBACK}, and for a value it
 * needs exactly, a caller uses Jackson, which rejects what is malformed.
 *
 * <p>Stateless and thread-safe.
 */
public final class JsonScanner {

    /** The value runs past the limit: more input is needed. */
    public static final int NEED_MORE = -1;
    /** Not accepted by the scanner: malformed, or needing Jackson. */
    public static final int FALLBACK = -2;

    private JsonScanner() {}

    /** The first offset from {@code i} that is not JSON whitespace (at most {@code limit}). */
    public static int skipSpace(byte[] b, int i, int limit) {
        while (i < limit) {
            byte c = b[i];
            if (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
                return i;
            }
            i++;
        }
        return i;
    }

    /**
     * The end (exclusive) of the JSON value starting exactly at {@code i}, or a negative code.
     */
    public static int valueEnd(byte[] b, int i, int limit) {
        if (i >= limit) {
            return NEED_MORE;
        }
        return switch (b[i]) {
            case '"' -> stringEnd(b, i, limit);
            case '{', '[' -> containerEnd(b, i, limit);
            case 't' -> literalEnd(b, i, limit, TRUE);
            case 'f' -> literalEnd(b, i, limit, FALSE);
            case 'n' -> literalEnd(b, i, limit, NULL);
            default -> numberEnd(b, i, limit);
        };
    }

    /** The end (exclusive, after the closing quote) of the string whose opening quote is at {@code i}. */
    public static int stringEnd(byte[] b, int i, int limit) {
        i++;
        while (i < limit) {
            byte c = b[i];
            if (SPECIAL_IN_STRING[c & 0xff]) {
                if (c == '"') {
                    return i + 1;
                }
                if (c != '\\') {
                    return FALLBACK;
                }
                i = escapeEnd(b, i, limit);
                if (i < 0) {
                    return i;
                }
            } else {
                i++;
            }
        }
        return NEED_MORE;
    }

    /** Bytes that end a run of plain string content: the quote, the backslash and the control characters. */
    private static final boolean[] SPECIAL_IN_STRING = new boolean[256];

    static {
        for (int c = 0; c < 0x20; c++) {
            SPECIAL_IN_STRING[c] = true;
        }
        SPECIAL_IN_STRING['"'] = true;
        SPECIAL_IN_STRING['\\'] = true;
    }

    /** True when the string {@code [start, end)} (quotes included) holds a backslash. */
    public static boolean hasEscape(byte[] b, int start, int end) {
        for (int i = start + 1; i < end - 1; i++) {
            if (b[i] == '\\') {
                return true;
            }
        }
        return false;
    }

    /**
     * True when the string at {@code [start, end)} (quotes included, as {@link #stringEnd} found it) is exactly
     * {@code name} (ASCII, unescaped).
     */
    public static boolean nameEquals(byte[] b, int start, int end, byte[] name) {
        if (end - start - 2 != name.length) {
            return false;
        }
        for (int k = 0; k < name.length; k++) {
            if (b[start + 1 + k] != name[k]) {
                return false;
            }
        }
        return true;
    }

    /**
     * Walks the members of the object whose '{' is at {@code start}: for each member whose name is one of
     * {@code names}, records the value's span in {@code spans} ({@code spans[2k]} start, {@code spans[2k+1]}
     * end; the last occurrence wins; {@code -1} when absent).
     *
     * @return the object's end (exclusive), or a negative code; {@link #FALLBACK} also when a member name
     *     holds an escape (it might spell one of {@code names})
     */
    public static int members(byte[] b, int start, int limit, byte[][] names, int[] spans) {
        return members(b, start, limit, names, spans, -1, null, null);
    }

    /**
     * As {@link #members(byte[], int, int, byte[][], int[])}, and walks the members of {@code names[nested]} in the
     * same pass when its value is an object, recording the spans of {@code nestedNames} in {@code nestedSpans}
     * (all {@code -1} when that member is absent or not an object).
     */
    public static int members(
            byte[] b,
            int start,
            int limit,
            byte[][] names,
            int[] spans,
            int nested,
            byte[][] nestedNames,
            int[] nestedSpans) {
        Arrays.fill(spans, 0, names.length * 2, -1);
        if (nested >= 0) {
            Arrays.fill(nestedSpans, 0, nestedNames.length * 2, -1);
        }
        if (start >= limit) {
            return NEED_MORE;
        }
        if (b[start] != '{') {
            return FALLBACK;
        }
        int i = skipSpace(b, start + 1, limit);
        if (i >= limit) {
            return NEED_MORE;
        }
        if (b[i] == '}') {
            return i + 1;
        }
        while (true) {
            if (i >= limit) {
                return NEED_MORE;
            }
            if (b[i] != '"') {
                return FALLBACK;
            }
            int keyEnd = stringEnd(b, i, limit);
            if (keyEnd < 0) {
                return keyEnd;
            }
            int matched = -1;
            for (int k = 0; k < names.length; k++) {
                if (nameEquals(b, i, keyEnd, names[k])) {
                    matched = k;
                    break;
                }
            }
            if (matched < 0 && hasEscape(b, i, keyEnd)) {
                return FALLBACK;
            }
            i = skipSpace(b, keyEnd, limit);
            if (i >= limit) {
                return NEED_MORE;
            }
            if (b[i] != ':') {
                return FALLBACK;
            }
            int valueStart = skipSpace(b, i + 1, limit);
            int valueEnd;
            if (matched == nested && matched >= 0) {
                Arrays.fill(nestedSpans, 0, nestedNames.length * 2, -1);
                valueEnd = valueStart < limit && b[valueStart] == '{'
                        ? members(b, valueStart, limit, nestedNames, nestedSpans, -1, null, null)
                        : valueEnd(b, valueStart, limit);
            } else {
                valueEnd = valueEnd(b, valueStart, limit);
            }
            if (valueEnd < 0) {
                return valueEnd;
            }
            if (matched >= 0) {
                spans[2 * matched] = valueStart;
                spans[2 * matched + 1] = valueEnd;
            }
            i = skipSpace(b, valueEnd, limit);
            if (i >= limit) {
                return NEED_MORE;
            }
            if (b[i] == '}') {
                return i + 1;
            }
            if (b[i] != ',') {
                return FALLBACK;
            }
            i = skipSpace(b, i + 1, limit);
        }
    }

    /**
     * The JSON object {@code b} (all of it one object) without the member {@code inner} of its member
     * {@code outer} (e.g. {@code metadata.managedFields}): the member and one comma cut out, every
     * other byte as it was.
     *
     * @return {@code b} itself when there is no such member, a new array without it, or null when the
     *     bytes cannot be walked here (an escaped member name, malformed JSON)
     */
    public static byte[] withoutNestedMember(byte[] b, byte[] outer, byte[] inner) {
        byte[][] outerNames = {outer};
        byte[][] innerNames = {inner};
        int[] spans = new int[2];
        int[] nested = new int[2];
        int start = skipSpace(b, 0, b.length);
        int end = members(b, start, b.length, outerNames, spans, 0, innerNames, nested);
        if (end < 0) {
            return null;
        }
        if (nested[0] < 0) {
            return b;
        }
        // back from the value over ':' and the quoted name, which holds no escape (it matched)
        int keyStart = nested[0] - 1;
        while (b[keyStart] != ':') {
            keyStart--;
        }
        keyStart--;
        while (b[keyStart] != '"') {
            keyStart--;
        }
        keyStart -= inner.length + 1;
        int before = keyStart - 1;
        while (isSpace(b[before])) {
            before--;
        }
        int cutFrom;
        int cutTo;
        if (b[before] == ',') { // not the first member: cut from the comma before it
            cutFrom = before;
            cutTo = nested[1];
        } else { // the first member: cut through the comma after it, if any
            cutFrom = keyStart;
            int after = skipSpace(b, nested[1], b.length);
            cutTo = b[after] == ',' ? skipSpace(b, after + 1, b.length) : nested[1];
        }
        byte[] out = new byte[b.length - (cutTo - cutFrom)];
        System.arraycopy(b, 0, out, 0, cutFrom);
        System.arraycopy(b, cutTo, out, cutFrom, b.length - cutTo);
        return out;
    }

    private static boolean isSpace(byte c) {
        return c == ' ' || c == '\n' || c == '\r' || c == '\t';
    }

    private static final byte[] TRUE = {'t', 'r', 'u', 'e'};
    private static final byte[] FALSE = {'f', 'a', 'l', 's', 'e'};
    private static final byte[] NULL = {'n', 'u', 'l', 'l'};

    private static int literalEnd(byte[] b, int i, int limit, byte[] literal) {
        for (int k = 0; k < literal.length; k++) {
            if (i + k >= limit) {
                return NEED_MORE;
            }
            if (b[i + k] != literal[k]) {
                return FALLBACK;
            }
        }
        return scalarFollows(b, i + literal.length, limit);
    }

    /** After the escape sequence whose backslash is at {@code i}. */
    private static int escapeEnd(byte[] b, int i, int limit) {
        if (i + 1 >= limit) {
            return NEED_MORE;
        }
        switch (b[i + 1]) {
            case '"', '\\', '/', 'b', 'f', 'n', 'r', 't' -> {
                return i + 2;
            }
            case 'u' -> {
                for (int k = i + 2; k < i + 6; k++) {
                    if (k >= limit) {
                        return NEED_MORE;
                    }
                    byte h = b[k];
                    if (!((h >= '0' && h <= '9') || (h >= 'a' && h <= 'f') || (h >= 'A' && h <= 'F'))) {
                        return FALLBACK;
                    }
                }
                return i + 6;
            }
            default -> {
                return FALLBACK;
            }
        }
    }

    /** A number as JSON spells it: {@code -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?}. */
    private static int numberEnd(byte[] b, int i, int limit) {
        int j = i;
        if (b[j] == '-') {
            j++;
        }
        if (j >= limit) {
            return NEED_MORE;
        }
        if (b[j] == '0') {
            j++;
        } else if (b[j] >= '1' && b[j] <= '9') {
            j = digits(b, j, limit);
        } else {
            return FALLBACK;
        }
        if (j < limit && b[j] == '.') {
            int k = digits(b, j + 1, limit);
            if (k == j + 1) {
                return k >= limit ? NEED_MORE : FALLBACK;
            }
            j = k;
        }
        if (j < limit && (b[j] == 'e' || b[j] == 'E')) {
            j++;
            if (j < limit && (b[j] == '+' || b[j] == '-')) {
                j++;
            }
            int k = digits(b, j, limit);
            if (k == j) {
                return k >= limit ? NEED_MORE : FALLBACK;
            }
            j = k;
        }
        return scalarFollows(b, j, limit);
    }

    private static int digits(byte[] b, int j, int limit) {
        while (j < limit && b[j] >= '0' && b[j] <= '9') {
            j++;
        }
        return j;
    }

    /** A scalar ends at {@code j} only when a delimiter (or whitespace) follows; at the limit more is needed. */
    private static int scalarFollows(byte[] b, int j, int limit) {
        if (j >= limit) {
            return NEED_MORE;
        }
        byte c = b[j];
        return c == ',' || c == '}' || c == ']' || c == ' ' || c == '\n' || c == '\r' || c == '\t' ? j : FALLBACK;
    }

    /**
     * The end of the object or array at {@code i}, checking its structure: matching brackets, names followed by
     * colons, values separated by commas, closed strings, literals and numbers. One loop per element (not per
     * token): a name, its colon and a scalar value are read in one iteration.
     */
    private static int containerEnd(byte[] b, int i, int limit) {
        // nesting kept as a bit stack: 1 = object, 0 = array; deeper than 64 levels goes to Jackson
        long stack = 0;
        int depth = 0;
        int j = i;
        open:
        while (true) {
            // b[j] opens a container
            boolean obj = b[j] == '{';
            if (depth == 64) {
                return FALLBACK;
            }
            stack = (stack << 1) | (obj ? 1 : 0);
            depth++;
            j = skipSpace(b, j + 1, limit);
            if (j >= limit) {
                return NEED_MORE;
            }
            boolean element = b[j] != (obj ? '}' : ']');
            if (!element) {
                j++;
            }
            while (true) {
                if (element) {
                    if (obj) {
                        if (b[j] != '"') {
                            return FALLBACK;
                        }
                        j = stringEnd(b, j, limit);
                        if (j < 0) {
                            return j;
                        }
                        j = skipSpace(b, j, limit);
                        if (j >= limit) {
                            return NEED_MORE;
                        }
                        if (b[j] != ':') {
                            return FALLBACK;
                        }
                        j = skipSpace(b, j + 1, limit);
                        if (j >= limit) {
                            return NEED_MORE;
                        }
                    }
                    byte c = b[j];
                    if (c == '{' || c == '[') {
                        continue open;
                    }
                    j = c == '"' ? stringEnd(b, j, limit) : scalarEnd(b, j, limit);
                    if (j < 0) {
                        return j;
                    }
                    j = skipSpace(b, j, limit);
                    if (j >= limit) {
                        return NEED_MORE;
                    }
                    c = b[j];
                    if (c == ',') {
                        j = skipSpace(b, j + 1, limit);
                        if (j >= limit) {
                            return NEED_MORE;
                        }
                        continue;
                    }
                    if (c != (obj ? '}' : ']')) {
                        return FALLBACK;
                    }
                    j++;
                }
                // the container whose closing bracket is at j - 1 is done
                stack >>>= 1;
                depth--;
                if (depth == 0) {
                    return j;
                }
                obj = (stack & 1) == 1;
                j = skipSpace(b, j, limit);
                if (j >= limit) {
                    return NEED_MORE;
                }
                byte c = b[j];
                if (c == ',') {
                    j = skipSpace(b, j + 1, limit);
                    if (j >= limit) {
                        return NEED_MORE;
                    }
                    element = true;
                } else if (c == (obj ? '}' : ']')) {
                    j++;
                    element = false;
                } else {
                    return FALLBACK;
                }
            }
        }
    }

    private static int scalarEnd(byte[] b, int j, int limit) {
        return switch (b[j]) {
            case 't' -> literalEnd(b, j, limit, TRUE);
            case 'f' -> literalEnd(b, j, limit, FALSE);
            case 'n' -> literalEnd(b, j, limit, NULL);
            default -> numberEnd(b, j, limit);
        };
    }
}
