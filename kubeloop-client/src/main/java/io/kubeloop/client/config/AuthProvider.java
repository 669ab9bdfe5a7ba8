package io.kubeloop.client.config;

import io.kubeloop.time.Ticker;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Optional;

/**
 * Supplies the {@code Authorization} header for each request: a static bearer token, a token file
 * re-read when it changes, HTTP basic credentials, an exec credential plugin, or nothing.
 *
 * <p>Implementations are thread-safe; {@link #authorization()} is called once per request and
 * must be cheap when nothing changed.
 */
public interface AuthProvider {

    /**
     * The header value, e.g. {@code Bearer abc}, or empty for no header.
     *
     * @throws CredentialException when credentials cannot be obtained (e.g. an exec plugin failed);
     *         the request should fail with this message
     */
    Optional<String> authorization();

    /**
     * Called after the server answered 401: drop cached credentials so that the next
     * {@link #authorization()} fetches fresh ones. Default: nothing to drop.
     */
    default void invalidate() {}

    /** No credentials. */
    static AuthProvider none() {
        return Optional::empty;
    }

    /** A fixed bearer token. */
    static AuthProvider bearer(String token) {
        Optional<String> header = Optional.of("Bearer " + token);
        return () -> header;
    }

    /** HTTP basic authentication ({@code username}/{@code password} in a kubeconfig user). */
    static AuthProvider basic(String username, String password) {
        String pair = (username == null ? "" : username) + ":" + (password == null ? "" : password);
        Optional<String> header =
                Optional.of("Basic " + Base64.getEncoder().encodeToString(pair.getBytes(StandardCharsets.UTF_8)));
        return () -> header;
    }

    /**
     * A bearer token read from {@code file} now and re-read whenever the file changes (see
     * {@link TokenFileAuthProvider}).
     *
     * @throws CredentialException when the file cannot be read now or is empty
     */
    static AuthProvider tokenFile(Path file, Ticker clock) {
        return TokenFileAuthProvider.create(file, clock);
    }
}
