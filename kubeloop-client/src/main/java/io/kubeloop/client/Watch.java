package io.kubeloop.client;

import io.kubeloop.api.errors.Status;
import io.kubeloop.client.http.ApiResponse;
import io.kubeloop.client.http.TransportException;
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
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * An open watch: a stream of {@link WatchEvent}s decoded as they arrive. The decoder runs Jackson's
 * streaming parser straight on the response body — successive root-level JSON objects, no line
 * splitting or String copies — and maps each {@code object} into {@code T} from the parser.
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
    private JsonParser parser;
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
            if (parser == null) {
                parser = codec.mapper().createParser(response.body());
            }
            JsonToken token = parser.nextToken();
            if (token == null) {
                return end();
            }
            if (token != JsonToken.START_OBJECT) {
                throw malformed("expected '{' but got " + token);
            }
            return Optional.of(readEvent());
        } catch (JacksonException e) {
            if (closed) {
                return end();
            }
            if (e.getCause() instanceof java.io.IOException io) {
                close();
                throw new TransportException(uri, "watch " + uri + " broke: " + io.getMessage(), e);
            }
            close();
            throw malformed(e.getOriginalMessage());
        } catch (RuntimeException e) {
            if (closed) {
                return end();
            }
            throw e;
        }
    }

    private WatchEvent<T> readEvent() {
        String type = null;
        WatchEvent<T> event = null;
        JsonNode deferred = null;
        String field;
        while ((field = parser.nextName()) != null) {
            parser.nextToken();
            if (field.equals("type")) {
                type = parser.getValueAsString();
            } else if (field.equals("object") && type != null) {
                event = decode(type, null);
            } else if (field.equals("object")) {
                deferred = codec.mapper().readTree(parser);   // "object" before "type": rare, kept as a tree
            } else {
                parser.skipChildren();
            }
        }
        if (type == null) {
            throw malformed("event without a type");
        }
        if (event == null) {
            if (deferred == null) {
                throw malformed(type + " event without an object");
            }
            event = decode(type, deferred);
        }
        return event;
    }

    /** Decodes the object at the parser (tree == null) or from a tree read earlier. */
    private WatchEvent<T> decode(String type, JsonNode tree) {
        return switch (type) {
            case "ADDED" -> new WatchEvent.Added<>(object(tree));
            case "MODIFIED" -> new WatchEvent.Modified<>(object(tree));
            case "DELETED" -> new WatchEvent.Deleted<>(object(tree));
            case "BOOKMARK" -> bookmark(tree != null ? tree : codec.mapper().readTree(parser));
            case "ERROR" -> new WatchEvent.Error<>(tree != null
                    ? codec.mapper().treeToValue(tree, Status.class)
                    : codec.mapper().readValue(parser, Status.class));
            default -> throw malformed("unknown event type " + type);
        };
    }

    private T object(JsonNode tree) {
        if (tree == null) {
            return codec.read(parser);
        }
        if (tree instanceof ObjectNode o) {
            return codec.fromTree(o);
        }
        throw malformed("event object is not a JSON object");
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
