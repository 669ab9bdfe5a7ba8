package io.kubeloop.it;

import io.kubeloop.apiserver.EmbeddedApiServer;
import io.kubeloop.apiserver.ServerOptions;
import io.kubeloop.client.ClientOptions;
import io.kubeloop.client.KubeClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * A fresh embedded API server over HTTPS and a kubeloop client for it, per test. Subclasses' own
 * {@code @AfterEach} methods run first, so what they started is stopped before the server closes. A
 * test that closes {@link #server} to cut clients off assigns a new one for the teardown.
 */
abstract class EmbeddedServerTestBase {

    protected EmbeddedApiServer server;
    protected KubeClient client;

    @BeforeEach
    void startServerAndClient() {
        server = EmbeddedApiServer.start(serverOptions());
        client = KubeClient.create(server.clientConfig(), clientOptions());
    }

    /** The server's options; default {@link ServerOptions#defaults()}. */
    protected ServerOptions serverOptions() {
        return ServerOptions.defaults();
    }

    /** The client's options; default {@link ClientOptions#defaults()}. */
    protected ClientOptions clientOptions() {
        return ClientOptions.defaults();
    }

    @AfterEach
    void stopClientAndServer() {
        if (client != null) {
            client.close();
        }
        if (server != null) {
            server.close();
        }
    }
}
