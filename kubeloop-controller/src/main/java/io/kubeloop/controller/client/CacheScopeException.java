package io.kubeloop.controller.client;

import java.io.Serial;

/**
 * A {@link Cache} was asked for objects it does not hold: a namespace outside the scope that
 * {@link CacheOptions} gives the type. Widen the scope, or read through the manager's
 * {@code apiReader()}.
 */
public final class CacheScopeException extends IllegalArgumentException {

    @Serial
    private static final long serialVersionUID = 1L;

    /**
     * @param message what was asked and what the scope holds
     */
    public CacheScopeException(String message) {
        super(message);
    }
}
