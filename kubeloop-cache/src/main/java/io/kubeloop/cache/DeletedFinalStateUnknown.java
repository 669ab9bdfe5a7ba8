package io.kubeloop.cache;

import io.kubeloop.api.ObjectKey;
import java.util.Objects;

/**
 * A tombstone: the object under {@code key} was deleted while the watch was down, so its final
 * state is unknown and {@code object} is the last state the cache knew (possibly stale). Produced
 * when a relist no longer contains a key that the cache or the queue still holds.
 *
 * <p>kubeloop queues take a known key's object together with the key, so {@code object} is never
 * null in tombstones they produce (client-go allows a null object when a lookup races).
 *
 * <p>Immutable; thread-safe when the object is.
 *
 * @param key the key of the deleted object
 * @param object the last known state of the object; null only when built by hand without one
 * @param <T> the object type
 * @see KeyFunction#deletionHandling(KeyFunction)
 */
public record DeletedFinalStateUnknown<T>(ObjectKey key, T object) {

    public DeletedFinalStateUnknown {
        Objects.requireNonNull(key, "key");
    }
}
