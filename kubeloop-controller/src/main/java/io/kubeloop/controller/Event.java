package io.kubeloop.controller;

import io.kubeloop.api.ObjectAccess;
import java.util.Objects;

/**
 * A change an informer saw, as a controller's {@link EventHandler}s and predicates see it
 * (controller-runtime's {@code event} package). Objects are the informer cache's shared instances:
 * read-only.
 *
 * <p>Values are immutable records.
 *
 * @param <T> the object type
 */
public sealed interface Event<T> permits Event.Create, Event.Update, Event.Delete, Event.Generic {

    /**
     * An object appeared in the cache.
     *
     * @param object the object
     * @param isInInitialList whether it came with the informer's first list (or the synthetic adds a
     *     late handler receives)
     * @param <T> the object type
     */
    record Create<T>(T object, boolean isInInitialList) implements Event<T> {
        public Create {
            Objects.requireNonNull(object, "object");
        }
    }

    /**
     * An object changed, or was resynced (then both have the same resourceVersion).
     *
     * <p>Invariant: {@code unchanged} is true exactly when both objects have the same resourceVersion.
     * The informer decides it once and the controller carries it here, so predicates and queues read
     * the flag instead of comparing (or parsing) the objects again; the two-object constructor
     * computes it.
     *
     * @param oldObject the state before
     * @param newObject the state after
     * @param unchanged whether both have the same resourceVersion (a resync, or a relist that found
     *     the object as it was)
     * @param <T> the object type
     */
    record Update<T>(T oldObject, T newObject, boolean unchanged) implements Event<T> {
        public Update {
            Objects.requireNonNull(oldObject, "oldObject");
            Objects.requireNonNull(newObject, "newObject");
        }

        /**
         * An update whose {@code unchanged} flag is computed from the objects' resourceVersions (read
         * with {@link ObjectAccess#resourceVersion}, which parses nothing for compact objects).
         *
         * @param oldObject the state before
         * @param newObject the state after
         */
        public Update(T oldObject, T newObject) {
            this(
                    oldObject,
                    newObject,
                    Objects.equals(
                            ObjectAccess.resourceVersion(Objects.requireNonNull(oldObject, "oldObject")),
                            ObjectAccess.resourceVersion(Objects.requireNonNull(newObject, "newObject"))));
        }
    }

    /**
     * An object was deleted.
     *
     * @param object its last known state
     * @param deleteStateUnknown true when a relist inferred the deletion: the object may be stale
     * @param <T> the object type
     */
    record Delete<T>(T object, boolean deleteStateUnknown) implements Event<T> {
        public Delete {
            Objects.requireNonNull(object, "object");
        }
    }

    /**
     * Something outside the cluster concerns an object (a channel source in controller-runtime);
     * kubeloop's informers never send it, user code may.
     *
     * @param object the object
     * @param <T> the object type
     */
    record Generic<T>(T object) implements Event<T> {
        public Generic {
            Objects.requireNonNull(object, "object");
        }
    }
}
