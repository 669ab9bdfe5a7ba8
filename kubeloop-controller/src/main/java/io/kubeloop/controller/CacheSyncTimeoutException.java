package io.kubeloop.controller;

/**
 * {@link Controller#start()} gave up waiting for the informers of the controller's watches to sync:
 * an informer was not started, cannot reach its server, or is not allowed to list. The controller
 * is stopped.
 */
public final class CacheSyncTimeoutException extends IllegalStateException {

    @java.io.Serial
    private static final long serialVersionUID = 1L;

    CacheSyncTimeoutException(String message) {
        super(message);
    }
}
