package io.kubeloop.apiserver.internal.storage;

/**
 * What a {@link Watcher} hands its reader next.
 *
 * <p>Immutable values.
 */
public sealed interface WatchItem {

    /** A change, already adjusted to the watcher's selection (enter = ADDED, leave = DELETED). */
    record Event(ChangeType type, StoredObject object) implements WatchItem {}

    /**
     * Progress: every change up to {@code resourceVersion} has been delivered. With
     * {@code initialEventsEnd} it is the end-of-initial-events marker of a watch-list.
     */
    record Bookmark(long resourceVersion, boolean initialEventsEnd) implements WatchItem {}

    /** The watch is over; nothing follows. */
    record Closed(CloseReason reason) implements WatchItem {}

    /** Why a watch ended. */
    enum CloseReason {
        /** The reader fell more than the buffer size behind; the client must re-watch (or relist). */
        OVERFLOW,
        /** The watcher was closed, its resource was removed, or the store shut down. */
        STOPPED
    }
}
