package io.kubeloop.apiserver.internal.storage;

import java.util.Objects;
import java.util.function.Predicate;

/**
 * A watch as the store understands it.
 *
 * <p>Immutable if {@code filter} is.
 *
 * @param resource the store's resource id
 * @param namespace only this namespace, or null for all
 * @param filter label/field selector over object versions (entering/leaving it gives ADDED/DELETED)
 * @param fromRevision deliver changes after this revision; ignored when {@code initialEvents}
 * @param initialEvents start with one ADDED per currently matching object, then changes after the
 *        current revision (RV unset/0, or watch-list)
 * @param initialEventsEnd after the initial events, deliver a {@link WatchItem.Bookmark} marked
 *        initial-events-end (watch-list)
 */
public record WatchRequest(
        String resource,
        String namespace,
        Predicate<StoredObject> filter,
        long fromRevision,
        boolean initialEvents,
        boolean initialEventsEnd) {

    public WatchRequest {
        Objects.requireNonNull(resource, "resource");
        Objects.requireNonNull(filter, "filter");
    }

    /** True when {@code o} is in this watch's namespace and selection. */
    boolean selects(StoredObject o) {
        return o != null && (namespace == null || namespace.equals(o.namespace())) && filter.test(o);
    }

    /**
     * What this watch sees of {@code e}, or null: an object entering the selection is ADDED to it,
     * one leaving it DELETED. Called with the store's lock held (it may build the leaving object).
     */
    WatchItem itemFor(StoreEvent e) {
        if (!initialEvents && e.resourceVersion() <= fromRevision) {
            return null;
        }
        boolean before = selects(e.previous());
        return switch (e.type()) {
            case ADDED -> selects(e.object()) ? new WatchItem.Event(ChangeType.ADDED, e.object()) : null;
            case DELETED -> before ? new WatchItem.Event(ChangeType.DELETED, e.object()) : null;
            case MODIFIED -> {
                boolean now = selects(e.object());
                if (now) {
                    yield new WatchItem.Event(before ? ChangeType.MODIFIED : ChangeType.ADDED, e.object());
                }
                yield before ? new WatchItem.Event(ChangeType.DELETED, e.leaveObjectLocked()) : null;
            }
        };
    }
}
