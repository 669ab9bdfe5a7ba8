package io.kubeloop.client;

import io.kubeloop.client.http.ApiResponse;
import io.kubeloop.client.http.TransportException;
import io.kubeloop.time.Ticker;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.net.URI;
import java.time.Duration;
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
 * {@code JsonScanner} finds where each event ends and its {@code type} and
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
 * <p><b>Silent connections.</b> A watch never blocks its consumer forever. The client ends it, and
 * {@code next()} throws a {@link WatchTimeoutException} (a TransportException), when
 * <ul>
 *   <li>the server has not ended it by its {@code timeoutSeconds} plus
 *       {@link ClientOptions#watchTimeoutMargin()} (30 s by default), counted from the response head; a
 *       watch without {@code timeoutSeconds} is given one hour (the longest an API server keeps such a
 *       watch by default) plus the margin; or</li>
 *   <li>it has an idle timeout and the consumer waited that long for data without a byte arriving.
 *       A watch has the idle timeout of its {@link ListOptions#idleTimeout()}, else, when it asks for
 *       bookmarks (which the server sends about every minute, so silence means a dead connection),
 *       {@link ClientOptions#watchIdleTimeout()} (3 minutes by default); else none.</li>
 * </ul>
 * Resume such a watch from the last resourceVersion seen, as after a broken connection. The bounds
 * are enforced by a watchdog (one virtual thread per watch, on the client's {@link ClientOptions#ticker()
 * ticker}) that closes the response body, which ends a blocked read on either transport; over the
 * dedicated connections TCP keepalive (30 s) finds dead peers too. A watch on the connection the
 * client's other requests share ({@link ClientOptions#dedicatedWatchConnections()} off, or a proxy)
 * is closed with {@link io.kubeloop.client.http.ApiResponse#closeDeadConnection}, so that the client
 * replaces that connection before the watch is resumed
 * ({@code DefaultApiTransport}).
 *
 * <p><b>Thread safety.</b> One consumer thread reads ({@link #next()}, the iterator, the stream).
 * {@link #close()} may be called from any thread, also while the consumer is blocked in
 * {@code next()}: that read then ends promptly and returns empty. Always close the watch; closing
 * is idempotent.
 *
 * @param <T> the watched type
 */
public final class Watch<T> implements AutoCloseable, Iterable<WatchEvent<T>> {

    private static final int OPEN = 0;
    private static final int CLOSED = 1;
    private static final int TIMED_OUT = 2;
    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(Watch.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final URI uri;
    private final ApiResponse response;
    private final ObjectCodec<T> codec;
    private final WatchWatchdog watchdog;
    /** Owned by the consumer thread. */
    private WatchDecoder<T> decoder;
    /** OPEN, then CLOSED (closed, or the stream ended) or TIMED_OUT (the watchdog ended it); set by CAS. */
    private volatile int state = OPEN;
    /** Which bound ended the watch and its length; written before {@link #state} becomes TIMED_OUT. */
    private WatchTimeoutException.Kind timeoutKind;

    private Duration timeoutLimit;
    /** Consumer-thread state: true once the end of the stream was seen (or the timeout reported). */
    private boolean ended;

    /**
     * @param deadlineAfter from now (the response head) to the watch's deadline
     * @param idle the watch's idle timeout; zero for none
     */
    Watch(ApiResponse response, ObjectCodec<T> codec, Ticker ticker, Duration deadlineAfter, Duration idle) {
        this.uri = response.request().uri();
        this.response = response;
        this.codec = codec;
        this.watchdog = new WatchWatchdog(ticker, deadlineAfter, idle, this::expire);
        watchdog.start();
    }

    /**
     * Blocks until the next event arrives or the stream ends.
     *
     * @return the event, or empty when the stream is over (then every later call returns empty too)
     * @throws WatchTimeoutException when the client ended the watch because its connection went
     *         silent (see the class comment); later calls return empty
     * @throws TransportException when the connection breaks mid-stream
     * @throws IllegalStateException when the server sends something that is not a watch event
     */
    public Optional<WatchEvent<T>> next() {
        if (ended) {
            return Optional.empty();
        }
        if (state != OPEN) {
            return stopped();
        }
        try {
            if (decoder == null) {
                decoder = new WatchDecoder<>(watchdog.watching(response.body()), codec);
            }
            WatchEvent<T> event = decoder.next();
            return event == null ? end() : Optional.of(event);
        } catch (JacksonException e) {
            if (state != OPEN) {
                return stopped();
            }
            if (e.getCause() instanceof IOException io) {
                close();
                throw new TransportException(uri, "watch " + uri + " broke: " + io.getMessage(), e);
            }
            close();
            throw malformed(e.getOriginalMessage());
        } catch (IllegalArgumentException e) {
            if (state != OPEN) {
                return stopped();
            }
            close();
            throw malformed(e.getMessage());
        } catch (RuntimeException e) {
            if (state != OPEN) {
                return stopped();
            }
            throw e;
        }
    }

    private Optional<WatchEvent<T>> end() {
        if (state == TIMED_OUT) {
            return stopped(); // the watchdog's close ended the body
        }
        ended = true;
        close();
        return Optional.empty();
    }

    /** After a close or a timeout: empty, or the timeout (thrown once). */
    private Optional<WatchEvent<T>> stopped() {
        ended = true;
        if (state == TIMED_OUT) {
            throw new WatchTimeoutException(uri, timeoutKind, timeoutLimit);
        }
        return Optional.empty();
    }

    /** The watchdog's action when a bound runs out: ends the watch unless it is over already. */
    private void expire(WatchTimeoutException.Kind kind, Duration limit) {
        timeoutKind = kind;
        timeoutLimit = limit;
        if (STATE.compareAndSet(this, OPEN, TIMED_OUT)) {
            // ends a read blocked in the consumer's thread; a shared connection is replaced first
            response.closeDeadConnection(WatchTimeoutException.reason(uri, kind, limit));
        }
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
        return StreamSupport.stream(
                        Spliterators.spliteratorUnknownSize(iterator(), Spliterator.ORDERED | Spliterator.NONNULL),
                        false)
                .onClose(this::close);
    }

    /** True once closed (by the consumer, another thread, the end of the stream, or a timeout). */
    public boolean isClosed() {
        return state != OPEN;
    }

    /** Ends the watch and releases its connection; unblocks a blocked {@link #next()}. Idempotent. */
    @Override
    public void close() {
        STATE.compareAndSet(this, OPEN, CLOSED);
        watchdog.stop();
        response.close();
    }
}
