package io.kubeloop.client;

import io.kubeloop.api.DynamicObjectReader;
import io.kubeloop.api.errors.Status;
import io.kubeloop.client.http.ApiResponse;
import io.kubeloop.client.http.TransportException;
import java.io.IOException;
import java.net.URI;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.exc.UnexpectedEndOfInputException;
import tools.jackson.databind.JsonNode;

/**
 * An open watch: a stream of {@link WatchEvent}s decoded as they arrive. The decoder reads the response
 * body into one reusable buffer, cuts it into events (successive top-level JSON objects, see
 * {@link EventFramer}) and runs Jackson's streaming parser over each event's bytes: a
 * {@link io.kubeloop.api.DynamicObject} is copied out as the exact bytes of the event's {@code object}
 * (compact form, no tree; see {@link DynamicObjectReader}), any other {@code T} is mapped by Jackson.
 *
 * <p><b>Ending.</b> {@link #next()} returns empty when the stream is over: the server closed it
 * (its {@code timeoutSeconds} ran out, or after an ERROR event) or {@link #close()} was called.
 * ERROR events are <em>returned</em>, not thrown, as {@link WatchEvent.Error}, whose
 * {@link WatchEvent.Error#exception()} gives the typed exception (GoneException for 410 Expired):
 * a reflector switches over events anyway and must tell "relist" from "broken connection", so a
 * server-sent error is data; only failures of the stream itself throw (a {@link TransportException}
 * when the connection breaks, IllegalStateException for malformed JSON). An HTTP error reply to the
 * watch request (e.g. a plain 410) is thrown by {@link ResourceClient#watch} before a Watch exists.
 *
 * <p><b>Thread safety.</b> One consumer thread reads ({@link #next()}, the iterator, the stream).
 * {@link #close()} may be called from any thread, also while the consumer is blocked in
 * {@code next()}: that read then ends promptly and returns empty. Always close the watch; closing
 * is idempotent.
 *
 * @param <T> the watched type
 */
public final class Watch<T> implements AutoCloseable, Iterable<WatchEvent<T>> {

    private final URI uri;
    private final ApiResponse response;
    private final ObjectCodec<T> codec;
    /** Owned by the consumer thread. */
    private EventFramer framer;
    private final DynamicObjectReader reader = new DynamicObjectReader();
    private volatile boolean closed;
    /** Consumer-thread state: true once the end of the stream was seen. */
    private boolean ended;

    Watch(ApiResponse response, ObjectCodec<T> codec) {
        this.uri = response.request().uri();
        this.response = response;
        this.codec = codec;
    }

    /**
     * Blocks until the next event arrives or the stream ends.
     *
     * @return the event, or empty when the stream is over (then every later call returns empty too)
     * @throws TransportException when the connection breaks mid-stream
     * @throws IllegalStateException when the server sends something that is not a watch event
     */
    public Optional<WatchEvent<T>> next() {
        if (ended || closed) {
            return Optional.empty();
        }
        try {
            if (framer == null) {
                framer = new EventFramer(response.body());
            }
            if (!framer.next()) {
                return end();
            }
            WatchEvent<T> event;
            try {
                event = readFrame();
            } catch (UnexpectedEndOfInputException e) {
                framer.rescan(); // the event goes on past its first line
                event = readFrame();
            }
            return Optional.of(event);
        } catch (IOException e) {
            if (closed) {
                return end();
            }
            close();
            throw new TransportException(uri, "watch " + uri + " broke: " + e.getMessage(), e);
        } catch (JacksonException e) {
            if (closed) {
                return end();
            }
            if (e.getCause() instanceof IOException io) {
                close();
                throw new TransportException(uri, "watch " + uri + " broke: " + io.getMessage(), e);
            }
            close();
            throw malformed(e.getOriginalMessage());
        } catch (IllegalArgumentException e) {
            if (closed) {
                return end();
            }
            close();
            throw malformed(e.getMessage());
        } catch (RuntimeException e) {
            if (closed) {
                return end();
            }
            throw e;
        }
    }

    /** Parses the framer's candidate as one event and tells the framer where it ended. */
    private WatchEvent<T> readFrame() {
        byte[] buf = framer.buffer();
        int offset = framer.offset();
        try (JsonParser parser = codec.mapper().createParser(buf, offset, framer.length())) {
            JsonToken token = parser.nextToken();
            if (token != JsonToken.START_OBJECT) {
                throw malformed("expected '{' but got " + token);
            }
            WatchEvent<T> event = readEvent(parser, buf, offset);
            framer.consumed(offset + (int) parser.currentLocation().getByteOffset());
            return event;
        }
    }

    /** Reads one event; the parser reads {@code buf} from {@code offset} and is at the event's '{'. */
    private WatchEvent<T> readEvent(JsonParser parser, byte[] buf, int offset) {
        String type = null;
        WatchEvent<T> event = null;
        int deferredStart = -1;
        int deferredEnd = -1;
        String field;
        while ((field = parser.nextName()) != null) {
            parser.nextToken();
            if (field.equals("type")) {
                type = parser.getValueAsString();
            } else if (field.equals("object") && type != null) {
                event = decode(type, parser, buf, offset);
            } else if (field.equals("object")) {
                // "object" before "type": rare; remember its span and decode it once the type is known
                deferredStart = offset + (int) parser.currentTokenLocation().getByteOffset();
                parser.skipChildren();
                deferredEnd = offset + (int) parser.currentLocation().getByteOffset();
            } else {
                parser.skipChildren();
            }
        }
        if (type == null) {
            throw malformed("event without a type");
        }
        if (event == null) {
            if (deferredStart < 0) {
                throw malformed(type + " event without an object");
            }
            try (JsonParser objectParser = codec.mapper().createParser(buf, deferredStart, deferredEnd - deferredStart)) {
                objectParser.nextToken();
                event = decode(type, objectParser, buf, deferredStart);
            }
        }
        return event;
    }

    /** Decodes the event's object at the parser, which reads {@code buf} from {@code offset}. */
    private WatchEvent<T> decode(String type, JsonParser parser, byte[] buf, int offset) {
        return switch (type) {
            case "ADDED" -> new WatchEvent.Added<>(object(parser, buf, offset));
            case "MODIFIED" -> new WatchEvent.Modified<>(object(parser, buf, offset));
            case "DELETED" -> new WatchEvent.Deleted<>(object(parser, buf, offset));
            case "BOOKMARK" -> bookmark(codec.mapper().readTree(parser));
            case "ERROR" -> new WatchEvent.Error<>(codec.mapper().readValue(parser, Status.class));
            default -> throw malformed("unknown event type " + type);
        };
    }

    private T object(JsonParser parser, byte[] buf, int offset) {
        if (parser.currentToken() != JsonToken.START_OBJECT) {
            throw malformed("event object is not a JSON object");
        }
        return codec.read(parser, buf, offset, reader);
    }

    private static <T> WatchEvent<T> bookmark(JsonNode object) {
        JsonNode meta = object.path("metadata");
        String rv = ObjectCodec.text(meta, "resourceVersion");
        Map<String, String> annotations = new HashMap<>();
        meta.path("annotations").properties().forEach(e -> annotations.put(e.getKey(), e.getValue().asString()));
        return new WatchEvent.Bookmark<>(rv == null ? "" : rv, annotations);
    }

    private Optional<WatchEvent<T>> end() {
        ended = true;
        close();
        return Optional.empty();
    }

    private IllegalStateException malformed(String what) {
        return new IllegalStateException("malformed watch stream from " + uri + ": " + what);
    }

    /** A single-use iterator over the remaining events; {@code hasNext()} blocks. */
    @Override
    public Iterator<WatchEvent<T>> iterator() {
        return new Iterator<>() {
            private Optional<WatchEvent<T>> pending;

            @Override
            public boolean hasNext() {
                if (pending == null) {
                    pending = Watch.this.next();
                }
                return pending.isPresent();
            }

            @Override
            public WatchEvent<T> next() {
                if (!hasNext()) {
                    throw new NoSuchElementException("the watch has ended");
                }
                WatchEvent<T> e = pending.get();
                pending = null;
                return e;
            }
        };
    }

    /** The remaining events as a sequential stream; closing the stream closes the watch. */
    public Stream<WatchEvent<T>> stream() {
        return StreamSupport.stream(Spliterators.spliteratorUnknownSize(iterator(), Spliterator.ORDERED | Spliterator.NONNULL),
                false).onClose(this::close);
    }

    /** True once closed (by the consumer, another thread, or the end of the stream). */
    public boolean isClosed() {
        return closed;
    }

    /** Ends the watch and releases its connection; unblocks a blocked {@link #next()}. Idempotent. */
    @Override
    public void close() {
        closed = true;
        response.close();
    }
}
