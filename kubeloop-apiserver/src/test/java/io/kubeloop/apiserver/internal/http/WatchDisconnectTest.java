package io.kubeloop.apiserver.internal.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kubeloop.apiserver.EmbeddedApiServer;
import java.io.InputStream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A watch whose client goes away ends on the server and releases its watcher ({@code
 * apiserver_registered_watchers} drops): over HTTP/2 at once when the stream is reset, as kube-apiserver's
 * does when its request context is cancelled; over HTTP/1.1, where the server reads nothing more from the
 * connection, when the next event (or the minute's bookmark) fails to reach it.
 */
@Timeout(60)
class WatchDisconnectTest {

    private final EmbeddedApiServer server = EmbeddedApiServer.start();
    private final RawHttp http = new RawHttp(server);

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void aClosedHttp1ConnectionEndsItsWatchAtTheNextEventWrittenToIt() {
        String ns = http.newNamespace("gone");
        int before = http.registeredWatchers("configmaps"); // the built-in controllers' own
        RawHttp.Lines watch = http.watch("/api/v1/namespaces/" + ns + "/configmaps?watch=1");
        await().atMost(Duration.ofSeconds(10)).until(() -> http.registeredWatchers("configmaps") == before + 1);

        watch.close();

        // a write may still reach the socket's buffer, and writes close together go out as one: keep writing
        AtomicInteger writes = new AtomicInteger();
        await().atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> {
                    http.createConfigMap(ns, "after-" + writes.incrementAndGet(), "{}");
                    return http.registeredWatchers("configmaps") == before;
                });
    }

    @Test
    void aResetHttp2StreamEndsItsWatchAtOnce() throws Exception {
        String ns = http.newNamespace("gone");
        HttpClient h2 = HttpClient.newBuilder()
                .sslContext(server.clientConfig().sslContext())
                .version(HttpClient.Version.HTTP_2)
                .build();
        int before = http.registeredWatchers("configmaps");
        HttpResponse<InputStream> watch = h2.send(
                HttpRequest.newBuilder(server.url().resolve("/api/v1/namespaces/" + ns + "/configmaps?watch=1"))
                        .header("Authorization", "Bearer " + server.token())
                        .build(),
                HttpResponse.BodyHandlers.ofInputStream());
        assertThat(watch.version()).isEqualTo(HttpClient.Version.HTTP_2);
        await().atMost(Duration.ofSeconds(10)).until(() -> http.registeredWatchers("configmaps") == before + 1);

        watch.body().close();

        await().atMost(Duration.ofSeconds(10)).until(() -> http.registeredWatchers("configmaps") == before);
        h2.close();
    }
}
