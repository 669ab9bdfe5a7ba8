package io.kubeloop.cache;

import java.time.Duration;
import java.util.function.IntSupplier;
import java.util.function.Supplier;

/**
 * Where an informer and its reflector report what they do: lists, watches and why each ended,
 * events by type, the time to the first sync, and each handler's backlog and delivery latency. Every
 * method does nothing by default; {@link #NONE} reports nothing. kubeloop-controller's {@code
 * InformerMetrics} implementation exposes them in a Micrometer registry.
 *
 * <p><b>Thread safety.</b> Called from the reflector's thread, the informer's threads and each
 * handler's delivery thread, at once: implementations must be thread-safe and must not block.
 */
public interface InformerMetrics {

    /** Reports nothing. */
    InformerMetrics NONE = new InformerMetrics() {};

    /** Why a watch ended. */
    enum WatchEnd {
        /** The server ended it, as at its {@code timeoutSeconds}; watched again at once. */
        CLOSED,
        /** The client ended it after it received nothing for its idle timeout, or past its deadline. */
        SILENT,
        /** Its connection broke, or its body was cut off. */
        BROKEN,
        /** 410 Gone: the resourceVersion is too old; a relist follows. */
        EXPIRED,
        /** 429: the server asked the client to back off. */
        THROTTLED,
        /** It ended within a second with no event: a relist follows after back-off. */
        SHORT,
        /** Any other error. */
        ERROR
    }

    /** Makes the metrics of each informer (or standalone reflector) by its name. */
    @FunctionalInterface
    interface Provider {

        /** Reports nothing. */
        Provider NONE = name -> InformerMetrics.NONE;

        /**
         * The metrics of the informer named {@code name} (its resource and scope, e.g.
         * {@code foos[*]} for all namespaces, {@code foos[default]} for one); called once per informer or reflector.
         */
        InformerMetrics forInformer(String name);
    }

    /**
     * The informer started; {@code objects} (the cache's size) and {@code resourceVersion} (the last
     * one synced) may be read from any thread at any time from now on.
     */
    default void started(IntSupplier objects, Supplier<String> resourceVersion) {}

    /** A handler was added; {@code backlog} (its notifications not yet delivered) may be read at any time. */
    default void handlerAdded(String handler, IntSupplier backlog) {}

    /**
     * The reflector read the whole collection: a list (all its pages), or a watch-list's initial events
     * up to its end bookmark, gave {@code items} objects in {@code took}.
     */
    default void listed(Duration took, int items) {}

    /** A watch (or watch-list) request was answered and its stream opened. */
    default void watchStarted() {}

    /** A watch ended after {@code lasted}, having delivered {@code events} events. */
    default void watchEnded(WatchEnd reason, Duration lasted, int events) {}

    /** A watch event arrived: {@code ADDED}, {@code MODIFIED}, {@code DELETED} or {@code BOOKMARK}. */
    default void eventReceived(String type) {}

    /** The informer synced for the first time, {@code took} after it started. */
    default void synced(Duration took) {}

    /** {@code handler} was given a notification {@code latency} after the informer queued it for it. */
    default void delivered(String handler, Duration latency) {}
}
