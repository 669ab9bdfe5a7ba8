package io.kubeloop.cache.internal;

import io.kubeloop.api.ObjectKey;
import io.kubeloop.cache.DeletedFinalStateUnknown;
import java.util.Objects;

/**
 * One change to one object, as an informer queue records it (client-go's {@code Delta}). The
 * object is the state <em>after</em> the change; for {@link Deleted}, the last known state.
 * Switch over it without a {@code default}:
 *
 * {@snippet :
 * switch (delta) {
 *     case Delta.Added<Pod> a -> ...;
 *     case Delta.Updated<Pod> u -> ...;
 *     case Delta.Deleted<Pod> d -> ...;   // d.finalStateUnknown(): found by a relist
 *     case Delta.Replaced<Pod> r -> ...;  // from a relist; the object may be unchanged
 *     case Delta.Sync<Pod> s -> ...;      // periodic resync of a cached object
 * }
 * }
 *
 * <p>Immutable; thread-safe when the object is.
 *
 * @param <T> the object type
 */
public sealed interface Delta<T> {

    /** The object's state after the change (for {@link Deleted}: its last known state); never null. */
    T object();

    /** The object appeared (watch ADDED). */
    record Added<T>(T object) implements Delta<T> {
        public Added {
            Objects.requireNonNull(object, "object");
        }
    }

    /** The object changed (watch MODIFIED). */
    record Updated<T>(T object) implements Delta<T> {
        public Updated {
            Objects.requireNonNull(object, "object");
        }
    }

    /**
     * The object was deleted. With {@code finalStateUnknown} the deletion was inferred by a relist
     * that no longer holds the key: it is a tombstone, {@code object} is the last state the cache or
     * queue knew and may be stale (client-go's {@link DeletedFinalStateUnknown}).
     *
     * @param object the last known state
     * @param finalStateUnknown true for a tombstone
     */
    record Deleted<T>(T object, boolean finalStateUnknown) implements Delta<T> {
        public Deleted {
            Objects.requireNonNull(object, "object");
        }

        /** This deletion as client-go's tombstone record, keyed by {@code key}. */
        public DeletedFinalStateUnknown<T> tombstone(ObjectKey key) {
            return new DeletedFinalStateUnknown<>(key, object);
        }
    }

    /** The object is in a relist (client-go emits it only with {@code EmitDeltaTypeReplaced}; else {@link Sync}). */
    record Replaced<T>(T object) implements Delta<T> {
        public Replaced {
            Objects.requireNonNull(object, "object");
        }
    }

    /** A periodic resync of a cached object. */
    record Sync<T>(T object) implements Delta<T> {
        public Sync {
            Objects.requireNonNull(object, "object");
        }
    }
}
