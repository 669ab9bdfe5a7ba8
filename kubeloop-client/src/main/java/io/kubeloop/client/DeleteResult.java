package io.kubeloop.client;

import io.kubeloop.api.errors.Status;
import java.util.Optional;

/**
 * What the server answered to a successful DELETE, which depends on the resource and on finalizers:
 * the object itself ({@link ObjectReturned}: e.g. Pods, or any object whose deletion waits for
 * finalizers, then carrying {@code deletionTimestamp}) or a {@code Status} with
 * {@code status: Success} ({@link StatusReturned}: e.g. ConfigMaps and custom resources deleted at
 * once). Neither tells for sure whether the object is gone; a later GET (404) or a DELETED watch
 * event does.
 *
 * @param <T> the resource's type
 */
public sealed interface DeleteResult<T> {

    /** The deleted or terminating object, if the server returned it. */
    default Optional<T> returnedObject() {
        return this instanceof ObjectReturned<T> r ? Optional.of(r.object()) : Optional.empty();
    }

    /**
     * The server returned the object.
     *
     * @param object the object as of the deletion (with deletionTimestamp while finalizers remain)
     */
    record ObjectReturned<T>(T object) implements DeleteResult<T> {}

    /**
     * The server returned a Status (or nothing: then a synthesised Success status with the HTTP code).
     *
     * @param status the Status, {@code details} naming the deleted object
     */
    record StatusReturned<T>(Status status) implements DeleteResult<T> {}
}
