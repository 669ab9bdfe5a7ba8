package io.kubeloop.cache;

/**
 * No key could be computed for an object (client-go's {@code KeyError}): it has no
 * {@code metadata.name}, or a key string has more than one {@code /}. The message names the object
 * and the cause in one line.
 *
 * <p>Immutable and thread-safe.
 */
public final class KeyException extends RuntimeException {

    private final transient Object object;

    /**
     * @param object the object (or key text) no key could be computed for; may be null
     * @param message what is wrong
     * @param cause the underlying failure, may be null
     */
    public KeyException(Object object, String message, Throwable cause) {
        super(message, cause);
        this.object = object;
    }

    /** The object no key could be computed for; may be null. */
    public Object object() {
        return object;
    }
}
