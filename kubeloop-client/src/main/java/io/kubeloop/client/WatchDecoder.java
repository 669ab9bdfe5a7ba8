package io.kubeloop.client;

import io.kubeloop.api.DynamicObjectReader;
import io.kubeloop.api.errors.Status;
import java.io.InputStream;
import java.util.HashMap;
import java.util.Map;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.JsonNode;

/**
 * Decodes a watch body into {@link WatchEvent}s: one Jackson streaming parser reads the body (successive
 * top-level JSON objects, whatever whitespace between them) through a {@link RecordingInputStream}, so the
 * parser's symbol table and buffers live as long as the watch, and the exact bytes of each event stay
 * available while it is decoded. A {@link io.kubeloop.api.DynamicObject} is copied out of those bytes in its
 * compact form by a {@link DynamicObjectReader} (no tree); any other {@code T} is mapped by Jackson from the
 * parser.
 *
 * <p>Not thread-safe: owned by the watch's consumer thread.
 *
 * @param <T> the watched type
 */
final class WatchDecoder<T> implements AutoCloseable {

    private final ObjectCodec<T> codec;
    private final RecordingInputStream recorder;
    private final JsonParser parser;
    private final DynamicObjectReader reader = new DynamicObjectReader();

    WatchDecoder(InputStream body, ObjectCodec<T> codec) {
        this(body, codec, RecordingInputStream.INITIAL);
    }

    WatchDecoder(InputStream body, ObjectCodec<T> codec, int initialBuffer) {
        this.codec = codec;
        this.recorder = new RecordingInputStream(body, initialBuffer);
        this.parser = codec.mapper().createParser(recorder);
    }

    /**
     * Reads the next event, blocking until it is complete.
     *
     * @return the event, or null when the body ended between events
     * @throws tools.jackson.core.JacksonException when reading fails (an IOException cause) or the JSON is malformed
     * @throws IllegalArgumentException when the JSON is well-formed but not a watch event
     */
    WatchEvent<T> next() {
        JsonToken token = parser.nextToken();
        if (token == null) {
            return null;
        }
        if (token != JsonToken.START_OBJECT) {
            throw new IllegalArgumentException("expected '{' but got " + token);
        }
        recorder.keepFrom(parser.currentTokenLocation().getByteOffset());
        return readEvent();
    }

    private WatchEvent<T> readEvent() {
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
                event = decode(type, parser, recorder);
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
            byte[] bytes = recorder.bytes();
            int from = (int) (deferredStart - recorder.position());
            try (JsonParser objectParser = codec.mapper().createParser(bytes, from, (int) (deferredEnd - deferredStart))) {
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
        meta.path("annotations").properties().forEach(e -> annotations.put(e.getKey(), e.getValue().asString()));
        return new WatchEvent.Bookmark<>(rv == null ? "" : rv, annotations);
    }

    /** Closes the parser and the body. */
    @Override
    public void close() {
        parser.close();
    }
}
