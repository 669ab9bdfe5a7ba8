package io.kubeloop.controller;

/**
 * A wait for informers to sync gave up: {@link Controller#start()} waiting for the informers of the
 * controller's watches (the controller is then stopped), or a read of a manager's
 * {@link io.kubeloop.controller.client.Cache} waiting for the informers of a type. An informer was
 * not started, cannot reach its server, or (for a cache read) is not allowed to list; a controller's
 * start ends at once on a refused list, with {@link CacheAccessDeniedException}.
 */
public final class CacheSyncTimeoutException extends IllegalStateException {

    @java.io.Serial
    private static final long serialVersionUID = 1L;

    /**
     * @param message which informers did not sync, and within what time
     */
    public CacheSyncTimeoutException(String message) {
        super(message);
    }
}
