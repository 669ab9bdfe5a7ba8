package io.kubeloop.client;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.internal.DynamicObjectReader;
import io.kubeloop.api.internal.JsonScanner;
import io.kubeloop.api.json.JsonBytesReader;
import io.kubeloop.api.json.ModelDeserializer;
import io.kubeloop.client.http.ApiResponse;
import io.kubeloop.client.http.TransportException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import tools.jackson.core.JsonParser;
import tools.jackson.databind.JsonNode;

/**
 * A {@link ListStream} of {@link DynamicObject}s or of generated model records decoded from a list reply as it
 * is read (or from a whole reply in memory, {@link #decode}): {@link #open} reads
 * the reply's members up to the opening bracket of {@code items} (kind, apiVersion, metadata), so the page's
 * resourceVersion and continue token are known before any item has arrived; {@link #read()} then decodes the
 * items one by one — a DynamicObject with a {@link DynamicObjectReader} (one scanner pass per item, whose exact
 * bytes it copies out), a generated record with its generated reader over the item's bytes in place
 * ({@link JsonBytesReader}) — filling in kind/apiVersion of bare items from the list's as
 * {@link ObjectCodec#readList} does, and reads the members after the items.
 *
 * <p>Bytes are read straight into one buffer that holds the unread rest of the current item or member: 128 KB,
 * grown only for a larger item. What the scanner does not accept is left to Jackson over the exact span: an
 * item through {@link DynamicObjectReader#read(byte[], int, int, String, String)} or Jackson's binding of the
 * model; a reply whose members it does not accept (escaped member names, malformed JSON before the items) is
 * read whole and decoded by {@link ObjectCodec#parseList}, which reports what is wrong. A reply whose items come
 * before its metadata is decoded whole by {@link #open}, and so is a list of generated records whose kind or
 * apiVersion comes after its items.
 *
 * <p><b>Thread safety.</b> Not thread-safe: one reading thread; {@link #close()} may come from any thread (it
 * closes the response, which ends a blocked read).
 */
final class ListDecoder<T> implements ListStream<T> {

    private static final int INITIAL = 128 * 1024;
    private static final byte[] KIND = "kind".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] API_VERSION = "apiVersion".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] METADATA = "metadata".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] ITEMS = "items".getBytes(StandardCharsets.US_ASCII);

    /** Where the reply's bytes come from, and the errors that name it. */
    private final ListReplySource source;

    private final ObjectCodec<T> codec;
    private final DynamicObjectReader reader = new DynamicObjectReader();
    /** T's generated reader, or null for DynamicObject. */
    private final ModelDeserializer<T> model;
    /** Reads the items of a generated model; null for DynamicObject. */
    private final JsonBytesReader bytesReader;
    /** The size of the item read last from its bytes in place (0 before the first). */
    private int lastItemSize;

    private byte[] buf;
    /** The next byte to decode; bytes before it may be dropped (unless {@link #keepAll}). */
    private int pos;
    /** buf[0, limit) holds what was read. */
    private int limit;

    private boolean eof;
    /** While the head is read: keep every byte from the reply's start, for {@link #decodeWhole()}. */
    private boolean keepAll = true;

    private String kind;
    private String apiVersion;
    private boolean metadataSeen;
    private String resourceVersion;
    private String continueToken;
    private Long remainingItemCount;
    /** Where decoding stands: 0 in the head, 1 in the items, 2 after the items, 3 complete. */
    private int state;

    private List<T> items = new ArrayList<>();
    /** The item kind and apiVersion that were filled in, for a list whose kind/apiVersion came after its items. */
    private String itemKindUsed;

    private String apiVersionUsed;
    private ObjectList<T> whole;
    private boolean consumed;

    private ListDecoder(ApiResponse response, ObjectCodec<T> codec) {
        this.source = new ListReplySource(response);
        this.codec = codec;
        this.model = codec.model();
        this.bytesReader = model == null ? null : new JsonBytesReader(codec.mapper());
        this.buf = new byte[INITIAL];
    }

    /** Over a whole reply in memory: the array is read, never written. */
    private ListDecoder(byte[] json, ObjectCodec<T> codec) {
        this.source = new ListReplySource(null);
        this.codec = codec;
        this.model = codec.model();
        this.bytesReader = model == null ? null : new JsonBytesReader(codec.mapper());
        this.buf = json;
        this.limit = json.length;
        this.eof = true; // so fill() never moves bytes
    }

    /** True when this decodes lists of {@code codec}'s type: DynamicObject, or a model with a generated reader. */
    static boolean decodes(ObjectCodec<?> codec) {
        return codec.isDynamic() || codec.model() != null;
    }

    /**
     * Decodes a whole list reply held in memory (what {@link ObjectCodec#readList} does for the types this
     * {@link #decodes}).
     *
     * @throws tools.jackson.core.JacksonException when the reply is malformed
     * @throws IllegalArgumentException when it is not a JSON object
     */
    static <T> ObjectList<T> decode(byte[] json, ObjectCodec<T> codec) {
        ListDecoder<T> d = new ListDecoder<>(json, codec);
        d.readHead();
        return d.read();
    }

    /**
     * Reads the reply up to its items; the response is closed when this fails.
     *
     * @throws TransportException when the connection breaks
     * @throws tools.jackson.core.JacksonException when the reply is malformed
     * @throws IllegalArgumentException when it is not a JSON object
     */
    static <T> ListDecoder<T> open(ApiResponse response, ObjectCodec<T> codec) {
        ListDecoder<T> d = new ListDecoder<>(response, codec);
        try {
            d.readHead();
            return d;
        } catch (RuntimeException | Error e) {
            d.close();
            throw e;
        }
    }

    @Override
    public String resourceVersion() {
        return resourceVersion;
    }

    @Override
    public String continueToken() {
        return continueToken;
    }

    @Override
    public Long remainingItemCount() {
        return remainingItemCount;
    }

    @Override
    public ObjectList<T> read() {
        if (consumed) {
            throw new IllegalStateException("the page was read already");
        }
        consumed = true;
        try {
            if (whole == null) {
                if (state == 1) {
                    readItems();
                    readMembers();
                }
                whole = page();
            }
            drain();
            return whole;
        } finally {
            close();
        }
    }

    @Override
    public void close() {
        source.close();
    }

    // ---- head and members ---------------------------------------------------------------------

    private void readHead() {
        int i = skipSpace();
        if (i < 0) {
            throw new IllegalArgumentException("a list reply must be a JSON object, got an empty body");
        }
        if (buf[i] != '{') {
            decodeWhole(); // Jackson says what it is
            throw new IllegalArgumentException("a list reply must be a JSON object");
        }
        pos = i + 1;
        readMembers();
        if (state == 1 && !metadataSeen) {
            // items before metadata (or no metadata at all): read on, to know the metadata when opened
            readItems();
            readMembers();
            whole = page();
        }
    }

    /**
     * Reads members from {@link #pos} (after '{' in state 0, after the items' ']' in state 2): up to the '[' of
     * {@code items} (state 1) or the object's end (state 3). In the head, what the scanner does not accept goes
     * to {@link #decodeWhole()}.
     */
    private void readMembers() {
        boolean expectMember = state == 0;
        boolean afterComma = false;
        while (true) {
            int i = skipSpace();
            if (i < 0) {
                throw source.truncated();
            }
            if (buf[i] == '}' && !afterComma) {
                pos = i + 1;
                state = 3;
                return;
            }
            if (!expectMember) {
                if (buf[i] != ',') {
                    if (state == 0) {
                        decodeWhole();
                        return;
                    }
                    throw ListReplySource.malformed(buf[i], "',' or '}' after the items");
                }
                pos = i + 1;
                expectMember = true;
                afterComma = true;
                continue;
            }
            int member = member(i);
            if (member == JsonScanner.NEED_MORE) {
                pos = i;
                fillOrFail();
                continue;
            }
            if (member == JsonScanner.FALLBACK) {
                if (state == 0) {
                    decodeWhole();
                    return;
                }
                throw ListReplySource.malformed(buf[i], "a member after the items");
            }
            if (state == 1) {
                return; // at the first item
            }
            expectMember = false;
            afterComma = false;
        }
    }

    /**
     * Reads the member whose name starts at {@code i}; on success moves {@link #pos} after it (after the '[' of
     * an items array, setting state 1) and returns 0; otherwise returns a {@code JsonScanner} code and leaves
     * {@link #pos} where it was.
     */
    private int member(int i) {
        if (buf[i] != '"') {
            return JsonScanner.FALLBACK;
        }
        int keyEnd = JsonScanner.stringEnd(buf, i, limit);
        if (keyEnd < 0) {
            return keyEnd;
        }
        if (JsonScanner.hasEscape(buf, i, keyEnd)) {
            if (state == 0) {
                return JsonScanner.FALLBACK; // it might spell one of the names this reads: Jackson decides
            }
            return skipValue(keyEnd); // after the items only the list's kind and apiVersion matter
        }
        int colon = JsonScanner.skipSpace(buf, keyEnd, limit);
        if (colon >= limit) {
            return JsonScanner.NEED_MORE;
        }
        if (buf[colon] != ':') {
            return JsonScanner.FALLBACK;
        }
        int valueStart = JsonScanner.skipSpace(buf, colon + 1, limit);
        if (valueStart >= limit) {
            return JsonScanner.NEED_MORE;
        }
        if (JsonScanner.nameEquals(buf, i, keyEnd, ITEMS) && buf[valueStart] == '[' && state == 0) {
            if (model != null && (kind == null || apiVersion == null)) {
                return JsonScanner.FALLBACK; // records cannot take a kind filled in later: Jackson reads it whole
            }
            pos = valueStart + 1;
            state = 1;
            keepAll = false;
            return 0;
        }
        int valueEnd = JsonScanner.valueEnd(buf, valueStart, limit);
        if (valueEnd < 0) {
            return valueEnd;
        }
        if (JsonScanner.nameEquals(buf, i, keyEnd, KIND)) {
            kind = codec.scalarText(buf, valueStart, valueEnd);
        } else if (JsonScanner.nameEquals(buf, i, keyEnd, API_VERSION)) {
            apiVersion = codec.scalarText(buf, valueStart, valueEnd);
        } else if (JsonScanner.nameEquals(buf, i, keyEnd, METADATA)) {
            metadataSeen = true;
            metadata(valueStart, valueEnd);
        } else if (JsonScanner.nameEquals(buf, i, keyEnd, ITEMS)) {
            return JsonScanner.FALLBACK; // items twice, or not an array: Jackson's rules
        }
        pos = valueEnd;
        return 0;
    }

    /** Skips the value of the member whose name ends at {@code keyEnd}, as {@link #member} does. */
    private int skipValue(int keyEnd) {
        int colon = JsonScanner.skipSpace(buf, keyEnd, limit);
        if (colon >= limit) {
            return JsonScanner.NEED_MORE;
        }
        if (buf[colon] != ':') {
            return JsonScanner.FALLBACK;
        }
        int valueEnd = JsonScanner.valueEnd(buf, JsonScanner.skipSpace(buf, colon + 1, limit), limit);
        if (valueEnd < 0) {
            return valueEnd;
        }
        pos = valueEnd;
        return 0;
    }

    private void metadata(int start, int end) {
        if (buf[start] != '{') {
            return;
        }
        JsonNode meta;
        try (JsonParser p = codec.mapper().createParser(buf, start, end - start)) {
            meta = codec.mapper().readTree(p);
        }
        resourceVersion = ObjectCodec.text(meta, "resourceVersion");
        continueToken = ObjectCodec.text(meta, "continue");
        if (continueToken != null && continueToken.isEmpty()) {
            continueToken = null;
        }
        JsonNode r = meta.path("remainingItemCount");
        remainingItemCount = r.isNumber() ? r.asLong() : null;
    }

    // ---- items --------------------------------------------------------------------------------

    /** Decodes the items from {@link #pos} (after '[') through the closing ']' (state 2). */
    private void readItems() {
        String itemKind = ObjectCodec.itemKind(kind);
        itemKindUsed = itemKind;
        apiVersionUsed = apiVersion;
        boolean expectItem = true;
        boolean afterComma = false;
        while (true) {
            int i = skipSpace();
            if (i < 0) {
                throw source.truncated();
            }
            if (buf[i] == ']' && !afterComma) {
                pos = i + 1;
                state = 2;
                return;
            }
            if (!expectItem) {
                if (buf[i] != ',') {
                    throw ListReplySource.malformed(buf[i], "',' or ']' after a list item");
                }
                pos = i + 1;
                expectItem = true;
                afterComma = true;
                continue;
            }
            if (buf[i] != '{') {
                throw ListReplySource.malformed(buf[i], "a JSON object as list item");
            }
            pos = i;
            int end = model == null ? dynamicItem(i, itemKind) : modelItem(i, itemKind);
            if (end == JsonScanner.NEED_MORE) {
                fillOrFail();
                continue;
            }
            pos = end;
            expectItem = false;
            afterComma = false;
        }
    }

    /**
     * Decodes the DynamicObject starting at {@code buf[i]} and returns its end, or {@link JsonScanner#NEED_MORE}
     * when it is not whole in the buffer yet.
     */
    private int dynamicItem(int i, String itemKind) {
        var scanned = reader.scan(buf, i, limit, apiVersion, itemKind);
        if (scanned.isPresent()) {
            items.add(codec.cast(scanned.get().object()));
            return scanned.get().end();
        }
        int end = itemEnd();
        if (end != JsonScanner.NEED_MORE) {
            // from pos, where framing may have moved the item; Jackson reports what is malformed
            items.add(codec.cast(reader.read(buf, pos, end, apiVersion, itemKind)));
        }
        return end;
    }

    /**
     * Decodes the generated record starting at {@code buf[i]} and returns its end, or
     * {@link JsonScanner#NEED_MORE} when it is not whole in the buffer yet. The generated reader reads it in
     * place unless it is probably cut off (less than 1.25 times the last item's size left before the end of
     * what has arrived), when its end is found first.
     */
    private int modelItem(int i, String itemKind) {
        if (eof || limit - i >= lastItemSize + (lastItemSize >> 2)) {
            T item = bytesReader.readFirst(model, buf, i, limit);
            if (item != null) {
                int end = bytesReader.end();
                lastItemSize = end - i;
                items.add(codec.withListType(item, buf, i, end, apiVersion, itemKind, reader));
                return end;
            }
        }
        int end = itemEnd();
        if (end != JsonScanner.NEED_MORE) {
            lastItemSize = end - pos; // from pos, where framing may have moved the item
            items.add(codec.readItem(buf, pos, end, apiVersion, itemKind, bytesReader, reader));
        }
        return end;
    }

    /**
     * The end of the item at {@link #pos}: found by the scanner in what has arrived, or
     * {@link JsonScanner#NEED_MORE}; for what the scanner does not accept, framed ({@link #frame}, which
     * reads on and may move the item to the front of the buffer).
     */
    private int itemEnd() {
        int end = JsonScanner.valueEnd(buf, pos, limit);
        return end >= 0 || end == JsonScanner.NEED_MORE ? end : frame();
    }

    /**
     * Reads until the object starting at {@link #pos} is complete and returns its end: counts brackets outside
     * strings, checking nothing else (Jackson does).
     */
    private int frame() {
        int depth = 0;
        boolean inString = false;
        int scanned = 0;
        while (true) {
            int i = pos + scanned;
            for (; i < limit; i++) {
                byte c = buf[i];
                if (inString) {
                    if (c == '\\') {
                        i++;
                    } else if (c == '"') {
                        inString = false;
                    }
                } else if (c == '"') {
                    inString = true;
                } else if (c == '{' || c == '[') {
                    depth++;
                } else if ((c == '}' || c == ']') && --depth == 0) {
                    return i + 1;
                }
            }
            scanned = i - pos; // may be one past limit after a backslash at the end
            if (!fill()) {
                // malformed or cut off: Jackson over what there is says which
                reader.read(buf, pos, limit, apiVersion, null);
                throw source.truncated();
            }
        }
    }

    private ObjectList<T> page() {
        List<T> out = items;
        String itemKind = ObjectCodec.itemKind(kind);
        boolean kindLate = itemKind != null && itemKindUsed == null;
        boolean apiVersionLate = apiVersion != null && apiVersionUsed == null;
        if (model == null && (kindLate || apiVersionLate)) {
            // kind and apiVersion normally precede items; when they came after, fill them in now (rare)
            out = new ArrayList<>(items.size());
            for (T d : items) {
                out.add(codec.cast(ObjectCodec.withTypeDefaults((DynamicObject) d, apiVersion, itemKind)));
            }
        }
        items = null;
        return new ObjectList<>(out, resourceVersion, continueToken, remainingItemCount);
    }

    /** Reads the whole reply from its start and decodes it with Jackson ({@link ObjectCodec#parseList}; state 3). */
    private void decodeWhole() {
        keepAll = true;
        while (fill()) {
            // read to the end
        }
        whole = codec.parseList(limit == buf.length ? buf : Arrays.copyOf(buf, limit));
        resourceVersion = whole.resourceVersion();
        continueToken = whole.continueToken();
        remainingItemCount = whole.remainingItemCount();
        pos = limit;
        state = 3;
    }

    /** Reads what follows the reply's object (whitespace) to the end, so the connection ends cleanly. */
    private void drain() {
        pos = limit;
        while (fill()) {
            pos = limit;
        }
    }

    // ---- the buffer ---------------------------------------------------------------------------

    /** The first non-space byte from {@link #pos}, reading more as needed; -1 at the end of the reply. */
    private int skipSpace() {
        while (true) {
            int i = JsonScanner.skipSpace(buf, pos, limit);
            if (i < limit) {
                return i;
            }
            pos = i;
            if (!fill()) {
                return -1;
            }
        }
    }

    private void fillOrFail() {
        if (!fill()) {
            throw source.truncated();
        }
    }

    /**
     * Reads more of the reply, keeping the bytes from {@link #pos} on (from 0 while {@link #keepAll}); they may
     * move to the front of the buffer, so positions are re-read from {@link #pos}. False at the reply's end.
     */
    private boolean fill() {
        if (eof) {
            return false;
        }
        if (!keepAll && pos > 0) {
            System.arraycopy(buf, pos, buf, 0, limit - pos);
            limit -= pos;
            pos = 0;
        }
        if (limit == buf.length) {
            buf = Arrays.copyOf(buf, buf.length * 2);
        }
        int n = source.read(buf, limit, buf.length - limit);
        if (n < 0) {
            eof = true;
            return false;
        }
        limit += n;
        return true;
    }
}
