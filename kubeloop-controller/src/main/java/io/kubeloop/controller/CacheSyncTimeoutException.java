package io.kubeloop.controller;

import java.io.Serial;

/**
 * A wait for informers to sync gave up: a {@link Manager}'s {@link Manager#start() start} or
 * {@link Controller#start()} waiting for the informers of the controller's watches (the controller, and
 * the manager, are then stopped), or a read of a manager's {@link io.kubeloop.controller.client.Cache}
 * waiting for the informers of a type. An informer was not started, cannot reach its server, or (for a
 * cache read) is not allowed to list; a controller's start ends at once on a refused list, with
 * {@link CacheAccessDeniedException}. When the server does not serve the kind an informer lists (its CRD
 * is not installed), the message says so in controller-runtime's words and the cause is the
 * {@link io.kubeloop.client.discovery.NoMatchException} discovery gave, whose
 * {@link io.kubeloop.client.discovery.NoMatchException#input() input} names the kind
 * ({@code Gateway.v1.gateway.networking.k8s.io}).
 */
public final class CacheSyncTimeoutException extends IllegalStateException {

    @Serial
    private static final long serialVersionUID = 1L;

    /**
     * @param message which informers did not sync, and within what time
     */
    public CacheSyncTimeoutException(String message) {
        super(message);
    }

    /**
     * @param message which informers did not sync, within what time, and why
     * @param cause why, e.g. the {@link io.kubeloop.client.discovery.NoMatchException} of a kind the server
     *     does not serve
     */
    public CacheSyncTimeoutException(String message, Throwable cause) {
        super(message, cause);
    }
}
