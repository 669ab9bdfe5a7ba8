package io.kubeloop.apiserver;

import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * One embedded API server (default options) per test class, with a kubeconfig for kubectl in a
 * temporary directory: the fixture of the kubectl compatibility tests.
 */
abstract class KubectlAgainstServer {

    @TempDir
    static Path dir;

    static EmbeddedApiServer server;
    static Path kubeconfig;

    @BeforeAll
    static void startServer() {
        server = EmbeddedApiServer.start(ServerOptions.defaults());
        kubeconfig = server.writeKubeconfig(dir.resolve("kubeconfig"));
    }

    @AfterAll
    static void stopServer() {
        if (server != null) {
            server.close();
        }
    }
}
