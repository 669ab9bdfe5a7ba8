package io.kubeloop.cache;

/**
 * A watch ended in a way that calls for a relist: it closed within a second without delivering
 * anything ("very short watch"), a sign of a server or proxy that refuses to stream. Handed to
 * the {@link WatchErrorHandler}.
 */
public final class WatchClosedException extends RuntimeException {

    public WatchClosedException(String message) {
        super(message);
    }
}
