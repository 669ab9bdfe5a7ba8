package io.kubeloop.controller;

import io.kubeloop.api.errors.ApiException;
import java.io.Serial;

/**
 * {@link Controller#start()} gave up waiting for its caches because the server refused an informer's list
 * or watch with 401 or 403: the client's identity is unknown or lacks a permission. The message names the
 * controller and the informer; the cause is the server's refusal, whose message names the user, verb,
 * resource and namespace. The controller is stopped. Thrown at the first refusal, not after the cache-sync
 * timeout: a missing permission is no slow sync.
 */
public final class CacheAccessDeniedException extends IllegalStateException {

    @Serial
    private static final long serialVersionUID = 1L;

    /**
     * @param message which controller and informer
     * @param cause the server's refusal
     */
    public CacheAccessDeniedException(String message, ApiException cause) {
        super(message, cause);
    }
}
