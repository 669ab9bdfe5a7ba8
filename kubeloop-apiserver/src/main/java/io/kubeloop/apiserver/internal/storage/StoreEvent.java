package io.kubeloop.apiserver.internal.storage;

import java.util.Objects;

/**
 * One committed change as kept in the history ring and fanned out to watchers.
 *
 * <p>For {@link ChangeType#DELETED}, {@link #object()} is the last stored state stamped with the
 * deletion revision. {@link #previous()} is the state before the change (null for ADDED).
 *
 * <p><b>Thread safety.</b> Immutable except for the memoized leave object, which is only computed
 * under the store's write lock.
 */
public final class StoreEvent {

    private final ChangeType type;
    private final StoredObject object;
    private final StoredObject previous;
    /** Guarded by the store's write lock. */
    private StoredObject leave;

    StoreEvent(ChangeType type, StoredObject object, StoredObject previous) {
        this.type = Objects.requireNonNull(type, "type");
        this.object = Objects.requireNonNull(object, "object");
        this.previous = previous;
    }

    /** What happened. */
    public ChangeType type() {
        return type;
    }

    /** The revision of the change. */
    public long resourceVersion() {
        return object.resourceVersion();
    }

    /** The new state (for DELETED: the last state at the deletion revision). */
    public StoredObject object() {
        return object;
    }

    /** The state before the change, or null for ADDED. */
    public StoredObject previous() {
        return previous;
    }

    /** The resource id the event belongs to. */
    public String resource() {
        return object.resource();
    }

    /** The object key. */
    public String key() {
        return object.key();
    }

    /**
     * What a watcher sees when a MODIFIED object leaves its selection: the previous content at the new
     * revision, serialized once per event and shared by every such watcher. Call under the write lock.
     */
    StoredObject leaveObjectLocked() {
        if (leave == null) {
            leave = previous.withResourceVersion(resourceVersion());
            leave.releaseTree(); // only its bytes are sent
        }
        return leave;
    }

    @Override
    public String toString() {
        return type + " " + object;
    }
}
