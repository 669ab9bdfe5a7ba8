package io.kubeloop.controller.util;

import java.util.Objects;

/**
 * What {@link OwnedObjects#apply} did, and the object as it is now.
 *
 * @param object the object: as the server answered the apply when one was sent, else as the cache
 *     holds it
 * @param outcome whether anything was written
 * @param <T> the object's type
 */
public record Applied<T>(T object, Outcome outcome) {

    /** What was sent. */
    public enum Outcome {
        /** Nothing: the server already holds the desired state. */
        UNCHANGED,
        /** The object was not in the cache; the apply created it. */
        CREATED,
        /** The object differed from the desired state; the apply changed it. */
        UPDATED
    }

    /** Checks the components. */
    public Applied {
        Objects.requireNonNull(object, "object");
        Objects.requireNonNull(outcome, "outcome");
    }

    /** Whether an apply was sent ({@link Outcome#CREATED} or {@link Outcome#UPDATED}). */
    public boolean written() {
        return outcome != Outcome.UNCHANGED;
    }
}
