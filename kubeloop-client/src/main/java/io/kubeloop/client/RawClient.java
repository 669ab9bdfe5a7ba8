package io.kubeloop.client;

/**
 * GET of an arbitrary server path, like {@code kubectl get --raw /apis}. The path starts with
 * {@code /} and may carry a query. Non-2xx replies throw the typed ApiException.
 *
 * <p>Thread-safe.
 */
public interface RawClient {

    /** The reply body. */
    byte[] get(String pathAndQuery);

    /** The reply body decoded with Jackson into {@code type}. */
    <T> T get(String pathAndQuery, Class<T> type);
}
