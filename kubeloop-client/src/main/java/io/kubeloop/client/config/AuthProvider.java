package io.kubeloop.client.config;

import java.util.Optional;

/**
 * Supplies the {@code Authorization} header for each request: a static bearer token, a token file
 * re-read when it changes, an exec credential plugin, or nothing.
 *
 * <p>Implementations are thread-safe; {@link #authorization()} is called once per request and
 * must be cheap when nothing changed.
 */
public interface AuthProvider {

    /** The header value, e.g. {@code Bearer abc}, or empty for no header. */
    Optional<String> authorization();

    /**
     * Called after the server answered 401: drop cached credentials so that the next
     * {@link #authorization()} fetches fresh ones. Default: nothing to drop.
     */
    default void invalidate() {
    }

    /** No credentials. */
    static AuthProvider none() {
        return Optional::empty;
    }

    /** A fixed bearer token. */
    static AuthProvider bearer(String token) {
        Optional<String> header = Optional.of("Bearer " + token);
        return () -> header;
    }
}
