package io.kubeloop.apiserver;

import io.kubeloop.apiserver.internal.registry.ObjectRegistry;
import io.kubeloop.apiserver.internal.storage.Journal;
import io.kubeloop.apiserver.internal.storage.VersionedStore;
import java.nio.file.Path;
import java.util.function.Function;

/**
 * This module's tests' way into a running server's layers and its options' seams (the server keeps
 * them to itself): e.g. {@code ServerInternals.store(server).compact()}.
 */
public final class ServerInternals {

    private ServerInternals() {}

    /** The server's resource layer. */
    public static ObjectRegistry registry(EmbeddedApiServer server) {
        return server.registry();
    }

    /** {@code options} with another journal for its data directory. */
    public static ServerOptions withJournalFactory(ServerOptions options, Function<Path, Journal> factory) {
        return options.withJournalFactory(factory);
    }

    /** The server's store. */
    public static VersionedStore store(EmbeddedApiServer server) {
        return server.store();
    }
}
