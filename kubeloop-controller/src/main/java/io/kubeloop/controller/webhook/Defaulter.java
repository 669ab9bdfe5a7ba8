package io.kubeloop.controller.webhook;

/**
 * Sets defaults on objects of a type as they are created or updated (a mutating webhook): returns the
 * object with defaults filled in; the server answers with the JSON patch from the request's object to
 * it. Records are immutable, hence a new object rather than a change in place.
 *
 * @param <T> the object type
 */
@FunctionalInterface
public interface Defaulter<T> {

    /** {@code object} with its defaults; {@code object} itself when there is nothing to set. */
    T defaults(T object);
}
