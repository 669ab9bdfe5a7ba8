package io.kubeloop.apiserver;

import io.kubeloop.apiserver.internal.registry.ObjectRegistry;
import io.kubeloop.apiserver.internal.storage.VersionedStore;

/**
 * This module's tests' way into a running server's layers (the server keeps them to itself): e.g.
 * {@code ServerInternals.store(server).compact()}.
 */
public final class ServerInternals {

    private ServerInternals() {}

    /** The server's resource layer. */
    public static ObjectRegistry registry(EmbeddedApiServer server) {
        return server.registry();
    }

    /** The server's store. */
    public static VersionedStore store(EmbeddedApiServer server) {
        return server.store();
    }
}
