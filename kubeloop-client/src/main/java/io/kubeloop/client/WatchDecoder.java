package io.kubeloop.client;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.errors.Status;
import io.kubeloop.api.internal.DynamicObjectReader;
import io.kubeloop.api.internal.JsonScanner;
import io.kubeloop.api.json.JsonBytesReader;
import io.kubeloop.api.json.ModelDeserializer;
import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.exc.JacksonIOException;
import tools.jackson.core.exc.UnexpectedEndOfInputException;
import tools.jackson.databind.JsonNode;

/**
 * Decodes a watch body into {@link WatchEvent}s. The body (successive top-level JSON objects, whatever
 * whitespace between them) is read through a {@link RecordingInputStream}, which keeps the exact bytes of the
 * event being decoded. A {@code JsonScanner} finds each event's end and its {@code type} and {@code object}
 * members (in any order) without tokenizing the object, and a {@link io.kubeloop.api.DynamicObject} is copied
 * out of those bytes in its compact form by a {@link DynamicObjectReader}. A kind whose records were generated is
 * read by its generated reader ({@link JsonBytesReader}) straight from the buffer, which finds the event's end as it
 * reads; an event that is not yet whole there is framed first (its end found by counting brackets, reading more of
 * the body). Any other {@code T}, bookmarks and errors (and what the generated reader hands back) are mapped by
 * Jackson from the object's span. Events that the scanner does not accept (malformed JSON, escaped member names)
 * are read by a Jackson parser over the event's bytes, which reports what is wrong.
 *
 * <p>Not thread-safe: owned by the watch's consumer thread; {@link #close()} may come from any thread.
 *
 * @param <T> the watched type
 */
final class WatchDecoder<T> implements AutoCloseable {

    private static final byte[][] EVENT_NAMES = {
        "type".getBytes(StandardCharsets.US_ASCII), "object".getBytes(StandardCharsets.US_ASCII)
    };
    private static final int READ_SIZE = 16 * 1024;

    private final ObjectCodec<T> codec;
    private final RecordingInputStream recorder;
    private final DynamicObjectReader reader = new DynamicObjectReader();
    /** The generated reader of T when T's records were generated (read from the bytes), else null. */
    private final ModelDeserializer<T> model;
    /** Reads {@link #model}'s objects from their bytes; null when there is no model. */
    private final JsonBytesReader bytesReader;

    private final byte[] readBuffer = new byte[READ_SIZE];
    private final int[] spans = new int[4];
    /** Stream position after the last byte read. */
    private long available;
    /** Stream position of the next byte to decode. */
    private long cursor;

    private boolean eof;
    /** The size in bytes of the last event {@link #modelEvent} read. */
    private int lastEventSize;

    WatchDecoder(InputStream body, ObjectCodec<T> codec) {
        this(body, codec, RecordingInputStream.INITIAL);
    }

    WatchDecoder(InputStream body, ObjectCodec<T> codec, int initialBuffer) {
        this.codec = codec;
        this.recorder = new RecordingInputStream(body, initialBuffer);
        this.model = codec.model();
        this.bytesReader = model == null ? null : new JsonBytesReader(codec.mapper());
    }

    /**
     * Reads the next event, blocking until it is complete.
     *
     * @return the event, or null when the body ended between events
     * @throws tools.jackson.core.JacksonException when reading fails (an IOException cause) or the JSON is malformed
     * @throws IllegalArgumentException when the JSON is well-formed but not a watch event
     */
    WatchEvent<T> next() {
        while (true) {
            byte[] b = recorder.bytes();
            int off = (int) (cursor - recorder.position());
            int limit = (int) (available - recorder.position());
            int i = JsonScanner.skipSpace(b, off, limit);
            cursor += i - off;
            recorder.keepFrom(cursor);
            if (i < limit) {
                if (b[i] != '{') {
                    throw notAnObject();
                }
                break;
            }
            if (!fill()) {
                return null;
            }
        }
        long start = cursor;
        if (codec.isDynamic()) {
            WatchEvent<T> fast = fastEvent(
                    recorder.bytes(), (int) (start - recorder.position()), (int) (available - recorder.position()));
            if (fast != null) {
                return fast;
            }
        } else if (model == null) {
            // a typed object is read by Jackson, which checks the JSON itself: frame the event, no scan
            long end = frame(start);
            cursor = end;
            return parseEvent(recorder.bytes(), (int) (start - recorder.position()), (int) (end - recorder.position()));
        } else {
            // a generated model reads the object from its bytes and checks it as it goes: no scan. An event
            // that is likely whole in the buffer (judged by the last one's size) is read in place; any other is
            // framed first, reading more of the body until it is whole.
            int from = (int) (start - recorder.position());
            int limit = (int) (available - recorder.position());
            if (limit - from >= lastEventSize + (lastEventSize >> 2)) {
                WatchEvent<T> event = modelEvent(recorder.bytes(), from, limit);
                if (event != null) {
                    return event;
                }
            }
            long end = frame(start);
            WatchEvent<T> event = modelEvent(
                    recorder.bytes(), (int) (start - recorder.position()), (int) (end - recorder.position()));
            if (event != null) {
                return event;
            }
        }
        int scanned = JsonScanner.members(
                recorder.bytes(),
                (int) (start - recorder.position()),
                (int) (available - recorder.position()),
                EVENT_NAMES,
                spans);
        long end;
        if (scanned >= 0) {
            end = recorder.position() + scanned;
        } else {
            end = frame(start);
            scanned = JsonScanner.members(
                    recorder.bytes(),
                    (int) (start - recorder.position()),
                    (int) (end - recorder.position()),
                    EVENT_NAMES,
                    spans);
        }
        cursor = end;
        byte[] b = recorder.bytes();
        int from = (int) (start - recorder.position());
        int to = (int) (end - recorder.position());
        if (scanned != to) {
            return parseEvent(b, from, to);
        }
        if (spans[0] < 0) {
            throw new IllegalArgumentException("event without a type");
        }
        String type = codec.scalarText(b, spans[0], spans[1]);
        if (type == null) {
            throw new IllegalArgumentException("event without a type");
        }
        if (spans[2] < 0) {
            throw new IllegalArgumentException(type + " event without an object");
        }
        return decode(type, b, spans[2], spans[3]);
    }

    /**
     * The event starting at {@code b[from]} and ending within {@code b[from, to)} as the API server writes it —
     * {@code {"type":"ADDED|MODIFIED|DELETED","object":{…}}} — with its object read by the generated model's
     * reader, moving the cursor past it; null for any other shape, an object the reader hands back to Jackson
     * (then decoded the general way) or an event that does not end before {@code to}.
     */
    private WatchEvent<T> modelEvent(byte[] b, int from, int to) {
        int i = JsonScanner.skipSpace(b, from + 1, to);
        int nameEnd = i < to && b[i] == '"' ? JsonScanner.stringEnd(b, i, to) : -1;
        if (nameEnd < 0 || !JsonScanner.nameEquals(b, i, nameEnd, TYPE)) {
            return null;
        }
        i = JsonScanner.skipSpace(b, nameEnd, to);
        int valueStart = i < to && b[i] == ':' ? JsonScanner.skipSpace(b, i + 1, to) : to;
        int valueEnd = valueStart < to && b[valueStart] == '"' ? JsonScanner.stringEnd(b, valueStart, to) : -1;
        if (valueEnd < 0) {
            return null;
        }
        int kind = -1;
        for (int k = 0; k < OBJECT_TYPES.length; k++) {
            if (JsonScanner.nameEquals(b, valueStart, valueEnd, OBJECT_TYPES[k])) {
                kind = k;
            }
        }
        i = JsonScanner.skipSpace(b, valueEnd, to);
        if (kind < 0 || i >= to || b[i] != ',') {
            return null;
        }
        i = JsonScanner.skipSpace(b, i + 1, to);
        nameEnd = i < to && b[i] == '"' ? JsonScanner.stringEnd(b, i, to) : -1;
        if (nameEnd < 0 || !JsonScanner.nameEquals(b, i, nameEnd, OBJECT)) {
            return null;
        }
        i = JsonScanner.skipSpace(b, nameEnd, to);
        if (i >= to || b[i] != ':') {
            return null;
        }
        T object = bytesReader.readFirst(model, b, i + 1, to);
        if (object == null) {
            return null;
        }
        int close = JsonScanner.skipSpace(b, bytesReader.end(), to);
        if (close >= to || b[close] != '}') {
            return null;
        }
        lastEventSize = close + 1 - from;
        cursor = recorder.position() + close + 1;
        return switch (kind) {
            case 0 -> new WatchEvent.Added<>(object);
            case 1 -> new WatchEvent.Modified<>(object);
            default -> new WatchEvent.Deleted<>(object);
        };
    }

    private static final byte[] TYPE = "type".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] OBJECT = "object".getBytes(StandardCharsets.US_ASCII);
    private static final byte[][] OBJECT_TYPES = {
        "ADDED".getBytes(StandardCharsets.US_ASCII),
        "MODIFIED".getBytes(StandardCharsets.US_ASCII),
        "DELETED".getBytes(StandardCharsets.US_ASCII)
    };

    /**
     * The common event, decoded in one pass over its bytes: {@code type} (ADDED, MODIFIED or DELETED) before a
     * DynamicObject {@code object}, the whole event within {@code b[start, limit)}, everything accepted by the
     * scanner. Null for anything else, which {@link #next()} then frames and decodes in full; on success the
     * cursor moves past the event.
     */
    private WatchEvent<T> fastEvent(byte[] b, int start, int limit) {
        int type = -1;
        DynamicObject object = null;
        int i = JsonScanner.skipSpace(b, start + 1, limit);
        while (true) {
            if (i >= limit || b[i] != '"') {
                return null;
            }
            int keyEnd = JsonScanner.stringEnd(b, i, limit);
            if (keyEnd < 0) {
                return null;
            }
            boolean isType = JsonScanner.nameEquals(b, i, keyEnd, TYPE);
            boolean isObject = !isType && JsonScanner.nameEquals(b, i, keyEnd, OBJECT);
            if (!isType && !isObject && JsonScanner.hasEscape(b, i, keyEnd)) {
                return null;
            }
            i = JsonScanner.skipSpace(b, keyEnd, limit);
            if (i >= limit || b[i] != ':') {
                return null;
            }
            int valueStart = JsonScanner.skipSpace(b, i + 1, limit);
            int valueEnd;
            if (isObject) {
                if (type < 0 || object != null || valueStart >= limit || b[valueStart] != '{') {
                    return null;
                }
                var scanned = reader.scan(b, valueStart, limit);
                if (scanned.isEmpty()) {
                    return null;
                }
                object = scanned.get().object();
                valueEnd = scanned.get().end();
            } else {
                valueEnd = JsonScanner.valueEnd(b, valueStart, limit);
                if (valueEnd < 0) {
                    return null;
                }
                if (isType) {
                    if (object != null) {
                        return null;
                    }
                    type = -1;
                    for (int k = 0; k < OBJECT_TYPES.length; k++) {
                        if (JsonScanner.nameEquals(b, valueStart, valueEnd, OBJECT_TYPES[k]) && b[valueStart] == '"') {
                            type = k;
                        }
                    }
                    if (type < 0) {
                        return null;
                    }
                }
            }
            i = JsonScanner.skipSpace(b, valueEnd, limit);
            if (i >= limit) {
                return null;
            }
            if (b[i] == '}') {
                break;
            }
            if (b[i] != ',') {
                return null;
            }
            i = JsonScanner.skipSpace(b, i + 1, limit);
        }
        if (object == null) {
            return null;
        }
        cursor = recorder.position() + i + 1;
        T t = codec.cast(object);
        return switch (type) {
            case 0 -> new WatchEvent.Added<>(t);
            case 1 -> new WatchEvent.Modified<>(t);
            default -> new WatchEvent.Deleted<>(t);
        };
    }

    /** Reads more of the body; false at its end. */
    private boolean fill() {
        if (eof) {
            return false;
        }
        try {
            int n = recorder.read(readBuffer, 0, readBuffer.length);
            if (n < 0) {
                eof = true;
                return false;
            }
            available += n;
            return true;
        } catch (IOException e) {
            throw JacksonIOException.construct(e);
        }
    }

    /**
     * Reads until the top-level object starting at stream position {@code start} is complete and returns its
     * end: counts brackets outside strings, without checking anything else (the scanner or Jackson does).
     */
    private long frame(long start) {
        int depth = 0;
        boolean inString = false;
        long pos = start;
        while (true) {
            byte[] b = recorder.bytes();
            int i = (int) (pos - recorder.position());
            int limit = (int) (available - recorder.position());
            for (; i < limit; i++) {
                byte c = b[i];
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
                    return recorder.position() + i + 1;
                }
            }
            // i may be limit + 1 after a backslash at the end: resume after the escaped byte
            pos = recorder.position() + i;
            if (!fill()) {
                // the body ended inside the event: malformed if Jackson finds something wrong before
                // the end, otherwise the stream was cut off (client-go's io.ErrUnexpectedEOF: a broken
                // stream, not bad data)
                byte[] bytes = recorder.bytes();
                int from = (int) (start - recorder.position());
                try {
                    parseEvent(bytes, from, (int) (available - recorder.position()));
                } catch (UnexpectedEndOfInputException cutOff) {
                    // as expected of a prefix of a valid event
                }
                throw JacksonIOException.construct(new EOFException("the watch body ended inside an event"));
            }
        }
    }

    /** The error for a top-level value that is not an object, as Jackson reads it. */
    private RuntimeException notAnObject() {
        byte[] b = recorder.bytes();
        int from = (int) (cursor - recorder.position());
        InputStream rest =
                new SequenceInputStream(new ByteArrayInputStream(b, from, (int) (available - cursor)), recorder);
        try (JsonParser p = codec.mapper().createParser(rest)) {
            return new IllegalArgumentException("expected '{' but got " + p.nextToken());
        }
    }

    /** Decodes the event's object at {@code b[from, to)}. */
    private WatchEvent<T> decode(String type, byte[] b, int from, int to) {
        return switch (type) {
            case "ADDED" -> new WatchEvent.Added<>(object(b, from, to));
            case "MODIFIED" -> new WatchEvent.Modified<>(object(b, from, to));
            case "DELETED" -> new WatchEvent.Deleted<>(object(b, from, to));
            case "BOOKMARK", "ERROR" -> {
                try (JsonParser p = codec.mapper().createParser(b, from, to - from)) {
                    p.nextToken();
                    yield decode(type, p, source(b, from));
                }
            }
            default -> throw new IllegalArgumentException("unknown event type " + type);
        };
    }

    private T object(byte[] b, int from, int to) {
        if (b[from] != '{') {
            throw new IllegalArgumentException("event object is not a JSON object");
        }
        if (codec.isDynamic()) {
            return codec.cast(reader.read(b, from, to, null, null));
        }
        if (model != null) {
            T read = bytesReader.read(model, b, from, to);
            if (read != null) {
                return read;
            }
        }
        try (JsonParser p = codec.mapper().createParser(b, from, to - from)) {
            p.nextToken();
            return codec.read(p, source(b, from), reader);
        }
    }

    private static DynamicObjectReader.Source source(byte[] bytes, int from) {
        return new DynamicObjectReader.Source() {
            @Override
            public byte[] bytes() {
                return bytes;
            }

            @Override
            public long position() {
                return -from;
            }
        };
    }

    /** The event at {@code b[from, to)} read by a Jackson parser: for what the scanner does not accept. */
    private WatchEvent<T> parseEvent(byte[] b, int from, int to) {
        try (JsonParser parser = codec.mapper().createParser(b, from, to - from)) {
            parser.nextToken();
            return readEvent(parser, b, from);
        }
    }

    private WatchEvent<T> readEvent(JsonParser parser, byte[] bytes, int base) {
        String type = null;
        WatchEvent<T> event = null;
        long deferredStart = -1;
        long deferredEnd = -1;
        String field;
        while ((field = parser.nextName()) != null) {
            parser.nextToken();
            if (field.equals("type")) {
                type = parser.getValueAsString();
            } else if (field.equals("object") && type != null) {
                event = decode(type, parser, source(bytes, base));
            } else if (field.equals("object")) {
                // "object" before "type": rare; remember where it is and decode it once the type is known
                deferredStart = parser.currentTokenLocation().getByteOffset();
                parser.skipChildren();
                deferredEnd = parser.currentLocation().getByteOffset();
            } else {
                parser.skipChildren();
            }
        }
        if (type == null) {
            throw new IllegalArgumentException("event without a type");
        }
        if (event == null) {
            if (deferredStart < 0) {
                throw new IllegalArgumentException(type + " event without an object");
            }
            int from = (int) (deferredStart + base);
            try (JsonParser objectParser =
                    codec.mapper().createParser(bytes, from, (int) (deferredEnd - deferredStart))) {
                objectParser.nextToken();
                event = decode(type, objectParser, new DynamicObjectReader.Source() {
                    @Override
                    public byte[] bytes() {
                        return bytes;
                    }

                    @Override
                    public long position() {
                        return -from;
                    }
                });
            }
        }
        return event;
    }

    /** Decodes the event's object at {@code p}, which reads the bytes {@code input} keeps. */
    private WatchEvent<T> decode(String type, JsonParser p, DynamicObjectReader.Source input) {
        return switch (type) {
            case "ADDED" -> new WatchEvent.Added<>(object(p, input));
            case "MODIFIED" -> new WatchEvent.Modified<>(object(p, input));
            case "DELETED" -> new WatchEvent.Deleted<>(object(p, input));
            case "BOOKMARK" -> bookmark(codec.mapper().readTree(p));
            case "ERROR" -> new WatchEvent.Error<>(codec.mapper().readValue(p, Status.class));
            default -> throw new IllegalArgumentException("unknown event type " + type);
        };
    }

    private T object(JsonParser p, DynamicObjectReader.Source input) {
        if (p.currentToken() != JsonToken.START_OBJECT) {
            throw new IllegalArgumentException("event object is not a JSON object");
        }
        return codec.read(p, input, reader);
    }

    private static <T> WatchEvent<T> bookmark(JsonNode object) {
        JsonNode meta = object.path("metadata");
        String rv = ObjectCodec.text(meta, "resourceVersion");
        Map<String, String> annotations = new HashMap<>();
        meta.path("annotations")
                .properties()
                .forEach(e -> annotations.put(e.getKey(), e.getValue().asString()));
        return new WatchEvent.Bookmark<>(rv == null ? "" : rv, annotations);
    }

    /** Closes the body. */
    @Override
    public void close() {
        try {
            recorder.close();
        } catch (IOException e) {
            // closing is best effort: the watch is over either way
        }
    }
}
