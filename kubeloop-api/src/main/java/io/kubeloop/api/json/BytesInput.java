package io.kubeloop.api.json;

import io.kubeloop.api.IntOrString;
import io.kubeloop.api.Quantity;
import io.kubeloop.api.internal.JsonScanner;
import io.kubeloop.api.internal.StringTable;
import io.kubeloop.api.internal.TimestampDeserializer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import tools.jackson.databind.JsonNode;

/**
 * A {@link JsonInput} straight over UTF-8 bytes, for {@link JsonBytesReader}. It reads what a generated
 * reader reads in the usual case — objects, arrays, strings (escapes and non-ASCII text decoded and
 * checked), integers, numbers, booleans and nulls of the expected JSON types — and throws {@link
 * Fallback} at anything else (a value of another JSON type, which Jackson would coerce or refuse,
 * malformed JSON, numbers out of range), after which the caller reads the object with Jackson, whose
 * result or error is the answer. Values a generated reader leaves to Jackson are read by Jackson from
 * their own bytes.
 *
 * <p>Strings with escapes or non-ASCII text are decoded, and UTF-8 checked, by {@link JsonStrings}.
 *
 * <p>Invariant: {@code pos} is at the first byte of the current value, or just past the value read
 * last. Not thread-safe.
 */
final class BytesInput extends JsonInput {

    /** Thrown where Jackson must read the object; carries no stack trace. */
    static final class Fallback extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Fallback() {
            super(null, null, false, false);
        }
    }

    final byte[] b;
    final int end;
    final JsonBytesReader owner;
    private final StringTable values;
    private final StringTable names;
    private final ShortNames shortNames;
    private final ShortNames shortValues;
    final Collected collected;
    int pos;
    /** How many values that can be changed (JSON trees, maps of unknown fields) this input has read. */
    private int mutableValues;

    /** Where the name of the property {@link #firstField} or {@link #nextField} moved to last starts. */
    private int fieldStart;

    /** The input of {@code b[from, end)}, with {@code owner}'s string tables (those of its stream). */
    BytesInput(byte[] b, int from, int end, JsonBytesReader owner) {
        this.b = b;
        this.pos = from;
        this.end = end;
        this.owner = owner;
        this.values = owner.values;
        this.names = owner.names;
        this.shortNames = owner.shortNames;
        this.shortValues = owner.shortValues;
        this.collected = owner.collected;
    }

    static Fallback fallback() {
        return new Fallback();
    }

    /** The byte at {@code i}, or 0 past the end (which nothing accepts). */
    byte at(int i) {
        return i < end ? b[i] : 0;
    }

    /** The first index from {@code i} that is not JSON whitespace ({@code end} when none). */
    private int space(int i) {
        // compact JSON (what API servers write) has no whitespace: one comparison in the common case
        return i < end && b[i] > ' ' ? i : JsonScanner.skipSpace(b, i, end);
    }

    private boolean readNull() {
        int p = pos;
        if (p + 4 <= end && b[p] == 'n' && b[p + 1] == 'u' && b[p + 2] == 'l' && b[p + 3] == 'l') {
            pos = p + 4;
            return true;
        }
        return false;
    }

    @Override
    public boolean isNull() {
        return at(pos) == 'n' && readNull();
    }

    @Override
    public String firstName(Class<?> type) {
        if (at(pos) != '{') {
            throw fallback();
        }
        int i = space(pos + 1);
        if (at(i) == '}') {
            pos = i + 1;
            return null;
        }
        return name(i);
    }

    @Override
    public String nextName() {
        int i = space(pos);
        byte c = at(i);
        if (c == ',') {
            return name(space(i + 1));
        }
        if (c == '}') {
            pos = i + 1;
            return null;
        }
        throw fallback();
    }

    @Override
    public <T> T sharedRecord(Function<?, ?>[] readers, int index) {
        int start = pos;
        SharedRecords shared = owner.shared;
        if (at(start) != '{' || !shared.worthLooking(readers, index)) {
            return record(readers, index);
        }
        // the object's end, if it is small and the scanner accepts it (else it is read as usual)
        int objectEnd = JsonScanner.valueEnd(b, start, Math.min(end, start + SharedRecords.MAX_BYTES));
        if (objectEnd < 0) {
            return record(readers, index);
        }
        int hash = SharedRecords.hash(b, start, objectEnd);
        Object known = shared.find(readers, index, b, start, objectEnd, hash);
        if (known != null) {
            pos = objectEnd;
            @SuppressWarnings("unchecked") // read by readers[index] from equal bytes
            T same = (T) known;
            return same;
        }
        int mutableBefore = mutableValues;
        T value = record(readers, index);
        if (value != null && pos == objectEnd && mutableValues == mutableBefore) {
            shared.put(readers, index, b, start, objectEnd, hash, value);
        }
        return value;
    }

    @Override
    public int firstField(JsonFields fields) {
        if (at(pos) != '{') {
            throw fallback();
        }
        int i = space(pos + 1);
        if (at(i) == '}') {
            pos = i + 1;
            return END;
        }
        return field(i, fields);
    }

    @Override
    public int nextField(JsonFields fields) {
        int i = space(pos);
        byte c = at(i);
        if (c == ',') {
            return field(space(i + 1), fields);
        }
        if (c == '}') {
            pos = i + 1;
            return END;
        }
        throw fallback();
    }

    /**
     * The number in {@code fields} of the name whose quote is at {@code i}; moves to its value. A name of at
     * most 16 plain ASCII bytes is found from its packed bytes, with no {@code String}.
     *
     * <p>One method on purpose, with the whitespace around the colon read inline: as for {@link #string()},
     * at this size the JIT calls it rather than inlining a copy into each generated reader (every record's
     * reader moves from property to property through it).
     */
    private int field(int i, JsonFields fields) {
        byte[] b = this.b;
        int end = this.end;
        if (i >= end || b[i] != '"') {
            throw fallback();
        }
        fieldStart = i;
        int start = i + 1;
        long low = 0;
        long high = 0;
        int limit = Math.min(end, start + 17);
        int k = start;
        for (; k < limit; k++) {
            byte c = b[k];
            if (c == '"') {
                break;
            }
            if (c == '\\' || c < 0x20) {
                k = limit; // an escape, a control character or a non-ASCII byte: read as a string
                break;
            }
            int n = k - start;
            if (n < 8) {
                low |= (c & 0xffL) << (n << 3);
            } else {
                high |= (c & 0xffL) << ((n - 8) << 3);
            }
        }
        int index;
        if (k < limit) {
            pos = k + 1;
            index = fields.find(low, high);
        } else {
            pos = i;
            index = fields.find(quoted(names));
        }
        int colon = pos;
        while (colon < end && (b[colon] == ' ' || b[colon] == '\n' || b[colon] == '\r' || b[colon] == '\t')) {
            colon++;
        }
        if (colon >= end || b[colon] != ':') {
            throw fallback();
        }
        int value = colon + 1;
        while (value < end && (b[value] == ' ' || b[value] == '\n' || b[value] == '\r' || b[value] == '\t')) {
            value++;
        }
        if (value >= end) {
            throw fallback();
        }
        pos = value;
        return index;
    }

    @Override
    public String fieldName() {
        int at = pos;
        pos = fieldStart;
        String name = shortString(shortNames);
        if (name == null) {
            name = quoted(names);
        }
        pos = at;
        return name;
    }

    /** The name whose quote is at {@code i}; moves to its value. */
    private String name(int i) {
        if (at(i) != '"') {
            throw fallback();
        }
        pos = i;
        String name = shortString(shortNames);
        if (name == null) {
            name = quoted(names);
        }
        int colon = space(pos);
        if (at(colon) != ':') {
            throw fallback();
        }
        pos = space(colon + 1);
        if (pos >= end) {
            throw fallback();
        }
        return name;
    }

    /**
     * The string whose quote is at {@code pos} when it is at most 16 plain ASCII bytes (most property names,
     * label keys and status words), through {@code table}, moving past it; else null, not moving. Such a string
     * is its own key: its bytes packed in two longs (no byte of a JSON string is zero), so the table finds it
     * with no comparison of bytes.
     */
    private String shortString(ShortNames table) {
        int start = pos + 1;
        long low = 0;
        long high = 0;
        int i = start;
        int limit = Math.min(end, start + 17);
        for (; i < limit; i++) {
            byte c = b[i];
            if (c == '"') {
                break;
            }
            if (c == '\\' || c < 0x20) {
                return null;
            }
            int k = i - start;
            if (k < 8) {
                low |= (c & 0xffL) << (k << 3);
            } else {
                high |= (c & 0xffL) << ((k - 8) << 3);
            }
        }
        if (i == limit) {
            return null; // longer than 16 bytes, or cut off
        }
        String found = table.find(low, high, b, start, i - start);
        pos = i + 1;
        return found;
    }

    @Override
    public void skip(Class<?> type, String name) {
        skipAny();
    }

    @Override
    void skipAny() {
        int e = JsonScanner.valueEnd(b, pos, end);
        if (e < 0) {
            throw fallback();
        }
        for (int k = pos; k < e; k++) {
            if (b[k] < 0) {
                JsonStrings.checkUtf8(b, pos, e - pos); // Jackson checks the text it skips
                break;
            }
        }
        pos = e;
    }

    /**
     * One method on purpose, with the whole read of a plain string in it: every string property of every
     * generated reader calls it, and at this size the JIT calls it rather than inlining a copy into each
     * reader (the copies made the readers' compilation cost more CPU than the reading).
     */
    @Override
    public String string() {
        int p = pos;
        if (p >= end || b[p] != '"') {
            if (p + 4 <= end && b[p] == 'n' && b[p + 1] == 'u' && b[p + 2] == 'l' && b[p + 3] == 'l') {
                pos = p + 4;
                return null;
            }
            throw fallback();
        }
        int start = p + 1;
        long low = 0;
        long high = 0;
        int h = 0;
        for (int i = start; i < end; i++) {
            byte c = b[i];
            if (c == '"') {
                int length = i - start;
                pos = i + 1;
                if (length > 16) {
                    return values.shareAscii(b, start, length, h); // hash and compare
                }
                // up to 16 bytes: the packed bytes are the key
                ShortNames table = shortValues;
                int slot = table.slot(low, high);
                String known = table.get(slot, low, high);
                return known != null ? known : table.put(slot, low, high, b, start, length);
            }
            if (c == '\\' || c < 0x20) { // an escape, a control character or (negative) a non-ASCII byte
                return decoded(values, start);
            }
            int k = i - start;
            if (k < 8) {
                low |= (c & 0xffL) << (k << 3);
            } else if (k < 16) {
                high |= (c & 0xffL) << ((k - 8) << 3);
            }
            h = 31 * h + c;
        }
        throw fallback();
    }

    /** The string whose quote is at {@code pos}, through {@code table}; moves past it. */
    private String quoted(StringTable table) {
        int start = pos + 1;
        int h = 0;
        for (int i = start; i < end; i++) {
            byte c = b[i];
            if (c == '"') {
                pos = i + 1;
                return table.shareAscii(b, start, i - start, h);
            }
            if (c == '\\' || c < 0x20) { // an escape, a control character or (negative) a non-ASCII byte
                return decoded(table, start);
            }
            h = 31 * h + c;
        }
        throw fallback();
    }

    /** The string starting at {@code start} (after its quote) with escapes or non-ASCII text. */
    private String decoded(StringTable table, int start) {
        EscapedStrings strings = owner.escapedStrings;
        String read = strings.read(b, start, end, table);
        pos = strings.end();
        return read;
    }

    /** The integer at {@code pos} in [min, max]; moves past it ({@link BytesIntegers#read}). */
    private long integer(long min, long max) {
        return BytesIntegers.read(this, min, max);
    }

    @Override
    public Quantity quantity() {
        if (at(pos) != '"') {
            return super.quantity(); // a number or null: as Jackson reads it
        }
        String text = string();
        Quantity known = owner.quantities.get(text);
        if (known != null) {
            return known;
        }
        try {
            return owner.quantity(text, Quantity.fromJson(text));
        } catch (IllegalArgumentException notAQuantity) {
            throw BytesInput.fallback(); // Jackson's error
        }
    }

    @Override
    public IntOrString intOrString() {
        byte c = at(pos);
        if (c == '"') {
            return IntOrString.of(string());
        }
        if (c == '-' || (c >= '0' && c <= '9')) {
            return IntOrString.of(int32());
        }
        return super.intOrString();
    }

    @Override
    JsonNode fieldsTree() {
        if (at(pos) != '{') {
            return super.fieldsTree();
        }
        return FieldsTrees.read(this);
    }

    @Override
    public Integer int32() {
        byte c = at(pos);
        if (c == '-' || (c >= '0' && c <= '9')) {
            return (int) integer(Integer.MIN_VALUE, Integer.MAX_VALUE);
        }
        if (c == 'n' && readNull()) {
            return null;
        }
        throw fallback();
    }

    @Override
    public Long int64() {
        byte c = at(pos);
        if (c == '-' || (c >= '0' && c <= '9')) {
            return integer(Long.MIN_VALUE, Long.MAX_VALUE);
        }
        if (c == 'n' && readNull()) {
            return null;
        }
        throw fallback();
    }

    @Override
    public Double float64() {
        byte c = at(pos);
        if (c == '-' || (c >= '0' && c <= '9')) {
            int e = JsonScanner.valueEnd(b, pos, end);
            if (e < 0) {
                throw fallback();
            }
            double d = Double.parseDouble(new String(b, pos, e - pos, StandardCharsets.ISO_8859_1));
            pos = e;
            return d;
        }
        if (c == 'n' && readNull()) {
            return null;
        }
        throw fallback();
    }

    @Override
    public Boolean bool() {
        int p = pos;
        if (at(p) == 't' && p + 4 <= end && b[p + 1] == 'r' && b[p + 2] == 'u' && b[p + 3] == 'e') {
            pos = p + 4;
            return Boolean.TRUE;
        }
        if (at(p) == 'f' && p + 5 <= end && b[p + 1] == 'a' && b[p + 2] == 'l' && b[p + 3] == 's' && b[p + 4] == 'e') {
            pos = p + 5;
            return Boolean.FALSE;
        }
        if (at(p) == 'n' && readNull()) {
            return null;
        }
        throw fallback();
    }

    @Override
    public <T> List<T> list(Class<?> type, Function<JsonInput, T> item) {
        byte c = at(pos);
        if (c == 'n' && readNull()) {
            return null;
        }
        if (c != '[') {
            throw fallback();
        }
        Collected collected = this.collected;
        int mark = collected.mark();
        int i = space(pos + 1);
        if (at(i) == ']') {
            pos = i + 1;
            return collected.list(mark);
        }
        while (true) {
            pos = i;
            collected.push(item.apply(this));
            i = space(pos);
            byte next = at(i);
            if (next == ',') {
                i = space(i + 1);
            } else if (next == ']') {
                pos = i + 1;
                return collected.list(mark);
            } else {
                throw fallback();
            }
        }
    }

    @Override
    public <T> Map<String, T> map(Class<?> type, Function<JsonInput, T> value) {
        if (at(pos) == 'n' && readNull()) {
            return null;
        }
        return entries(collected, value);
    }

    @Override
    public <T> T value(Class<T> type) {
        if (type.isEnum()) {
            if (at(pos) == 'n' && readNull()) {
                return null;
            }
            throw fallback(); // a text no constant has (already read by text()), or no text: Jackson decides
        }
        int e = JsonScanner.valueEnd(b, pos, end);
        if (e < 0) {
            throw fallback();
        }
        T v = owner.readerOf(type).readValue(b, pos, e - pos);
        pos = e;
        if (!(v == null
                || v instanceof String
                || v instanceof Number
                || v instanceof Boolean
                || v instanceof Enum<?>
                || v instanceof Instant
                || v instanceof IntOrString
                || v instanceof Quantity
                || (v instanceof JsonNode node && node.isValueNode()))) {
            mutableValues++;
        }
        return v;
    }

    @Override
    void mutableValueRead() {
        mutableValues++;
    }

    @Override
    public Instant timestamp() {
        if (at(pos) == '"') {
            int e = JsonScanner.stringEnd(b, pos, end);
            if (e > pos + 2 && e - pos <= 32) {
                Instant fast = TimestampDeserializer.parse(b, pos + 1, e - 1);
                if (fast != null) {
                    pos = e;
                    return owner.instant(fast);
                }
            }
        }
        return value(Instant.class);
    }

    @Override
    public String text() {
        return at(pos) == '"' ? string() : null;
    }
}
