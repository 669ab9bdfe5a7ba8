package io.kubeloop.client;

import io.kubeloop.client.http.TransportException;
import io.kubeloop.time.Durations;
import java.net.URI;
import java.time.Duration;
import java.util.Objects;

/**
 * A watch the client ended because its connection went silent: {@link Watch#next()} throws it when
 * nothing arrived for the watch's idle timeout while the consumer waited ({@link Kind#IDLE}), or when
 * the server had not ended the watch by its {@code timeoutSeconds} plus the client's margin
 * ({@link Kind#DEADLINE}). Either way the connection is presumed dead (half-open, or behind a proxy
 * that stopped forwarding) and has been closed. Like any broken watch it is resumed from the last
 * resourceVersion seen; nothing is lost, because the server replays what came after it.
 *
 * <p>Immutable.
 */
public final class WatchTimeoutException extends TransportException {

    /** Which bound ended the watch. */
    public enum Kind {
        /** Nothing (not a byte) arrived for the idle timeout while the consumer waited for data. */
        IDLE,
        /** The server did not end the watch by its {@code timeoutSeconds} plus the client's margin. */
        DEADLINE
    }

    private final Kind kind;
    private final Duration limit;

    /**
     * @param uri the watch's URI
     * @param kind which bound ended it
     * @param limit the bound: the idle timeout, or the time from the response head to the deadline
     */
    public WatchTimeoutException(URI uri, Kind kind, Duration limit) {
        super(uri, message(uri, Objects.requireNonNull(kind, "kind"), Objects.requireNonNull(limit, "limit")), null);
        this.kind = kind;
        this.limit = limit;
    }

    private static String message(URI uri, Kind kind, Duration limit) {
        return reason(uri, kind, limit) + ": the connection is presumed dead and was closed";
    }

    /** What happened, e.g. {@code watch https://… received nothing for 180s (its idle timeout)}. */
    static String reason(URI uri, Kind kind, Duration limit) {
        return switch (kind) {
            case IDLE -> "watch " + uri + " received nothing for " + Durations.format(limit) + " (its idle timeout)";
            case DEADLINE ->
                "watch " + uri + " was not ended by the server within " + Durations.format(limit)
                        + " (its timeoutSeconds plus the client's margin)";
        };
    }

    /** Which bound ended the watch. */
    public Kind kind() {
        return kind;
    }

    /** The bound that ran out: the idle timeout, or the time from the response head to the deadline. */
    public Duration limit() {
        return limit;
    }
}
