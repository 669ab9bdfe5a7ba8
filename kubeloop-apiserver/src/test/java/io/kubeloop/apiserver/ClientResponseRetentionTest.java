package io.kubeloop.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubeloop.client.ClientOptions;
import io.kubeloop.client.KubeClient;
import java.lang.ref.WeakReference;
import org.junit.jupiter.api.Test;

/**
 * kubeloop's client keeps no response body once it was handed over, over the embedded server's
 * HTTP/2 — not even the first one of a connection, which the JDK HttpClient keeps reachable for
 * the connection's life when it is received with {@code BodyHandlers.ofByteArray()}.
 */
class ClientResponseRetentionTest {

    @Test
    void theFirstResponseBodyOfAConnectionIsNotKeptAfterItWasRead() throws InterruptedException {
        try (EmbeddedApiServer server = EmbeddedApiServer.start();
                KubeClient client = KubeClient.create(server.clientConfig(), ClientOptions.defaults())) {
            WeakReference<byte[]> first = new WeakReference<>(client.raw().get("/api/v1/namespaces"));
            byte[] second = client.raw().get("/api/v1/namespaces"); // the connection stays open and in use
            for (int i = 0; i < 20 && first.get() != null; i++) {
                System.gc();
                Thread.sleep(20);
            }
            assertThat(first.get()).as("the first body, read and dropped").isNull();
            assertThat(second).isNotEmpty();
        }
    }
}
