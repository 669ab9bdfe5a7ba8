package io.kubeloop.client;

import io.kubeloop.client.http.ApiResponse;
import io.kubeloop.client.http.TransportException;
import java.net.URI;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import tools.jackson.core.JacksonException;

/**
 * An open watch: a stream of {@link WatchEvent}s decoded as they arrive ({@link WatchDecoder}). The response
 * body (successive root-level JSON objects, no line splitting, no String copies) is read into a buffer that
 * keeps the bytes of the event being decoded, and kubeloop's byte-level
 * {@link io.kubeloop.api.json.JsonScanner} finds where each event ends and its {@code type} and
 * {@code object} members without tokenizing the object: a {@link io.kubeloop.api.DynamicObject} is the exact
 * bytes of the event's {@code object} (compact form, no tree); any other {@code T}, bookmarks and errors are
 * mapped by Jackson from the object's bytes, and an event the scanner does not accept is read by a Jackson
 * parser, which says what is wrong with it.
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
    private WatchDecoder<T> decoder;
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
            if (decoder == null) {
                decoder = new WatchDecoder<>(response.body(), codec);
            }
            WatchEvent<T> event = decoder.next();
            return event == null ? end() : Optional.of(event);
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
