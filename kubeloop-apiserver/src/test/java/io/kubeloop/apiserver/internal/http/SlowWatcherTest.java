package io.kubeloop.apiserver.internal.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kubeloop.apiserver.EmbeddedApiServer;
import io.kubeloop.apiserver.ServerOptions;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.JsonNode;

/**
 * A watcher that stops reading is ended the way kube-apiserver's watch cache ends an unresponsive
 * watcher: writers never wait for it, other watchers get every event in order, and once its bounded
 * buffer is full the server drops the watch (it leaves {@code apiserver_registered_watchers}) while its
 * client still holds the connection. When that client reads again it finds the events that were
 * already on their way and then the normal end of the stream, with no error event, and the server counts
 * it in {@code apiserver_terminated_watchers_total}; a watch from the
 * last resourceVersion it saw then delivers exactly the rest, so nothing is lost.
 */
@Timeout(120)
class SlowWatcherTest {

    /** Writes, each with about 3 KB of data: more than a stalled TCP connection's buffers hold. */
    private static final int WRITES = 4_000;

    private static final int BUFFER = 100;

    private final EmbeddedApiServer server =
            EmbeddedApiServer.start(ServerOptions.defaults().withWatchBufferSize(BUFFER));
    private final RawHttp http = new RawHttp(server);

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void aWatcherThatStopsReadingIsEndedWithoutStallingWritersOrOtherWatchersAndLosesNothingOnResume()
            throws Exception {
        String ns = http.newNamespace("slow");
        String path = "/api/v1/namespaces/" + ns + "/configmaps?watch=1";
        int before = http.registeredWatchers("configmaps");

        try (StalledWatch stalled = StalledWatch.open(server, path);
                RawHttp.Lines healthy = http.watch(path);
                ExecutorService pool = Executors.newFixedThreadPool(5)) {
            await().atMost(Duration.ofSeconds(10)).until(() -> http.registeredWatchers("configmaps") == before + 2);

            Future<List<String>> healthyNames = pool.submit(() -> names(healthy, WRITES));
            String data = "{\"blob\":\"" + "x".repeat(3_000) + "\"}";
            AtomicInteger next = new AtomicInteger();
            List<Future<?>> writers = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                writers.add(pool.submit(() -> {
                    for (int i = next.getAndIncrement(); i < WRITES; i = next.getAndIncrement()) {
                        HttpResponse<String> r = http.createConfigMap(ns, String.format("cm-%05d", i), data);
                        assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
                    }
                }));
            }
            for (Future<?> w : writers) {
                w.get();
            }

            assertThat(healthyNames.get()).hasSize(WRITES).doesNotHaveDuplicates();
            // the stalled watch was dropped while its client still holds the connection unread
            await().atMost(Duration.ofSeconds(10)).until(() -> http.registeredWatchers("configmaps") == before + 1);
            assertThat(stalled.isOpen()).isTrue();
            assertThat(http.get("/metrics").body())
                    .contains("apiserver_terminated_watchers_total{resource=\"configmaps\"} 1.0");

            List<JsonNode> delivered = stalled.readToEnd();
            assertThat(delivered).isNotEmpty().hasSizeLessThan(WRITES);
            assertThat(delivered)
                    .allSatisfy(e -> assertThat(e.path("type").asString()).isEqualTo("ADDED"));

            String lastSeen = delivered
                    .getLast()
                    .path("object")
                    .path("metadata")
                    .path("resourceVersion")
                    .asString();
            try (RawHttp.Lines resumed = http.watch(path + "&resourceVersion=" + lastSeen)) {
                List<String> rest = names(resumed, WRITES - delivered.size());
                List<String> all = new ArrayList<>(delivered.stream()
                        .map(e -> e.path("object").path("metadata").path("name").asString())
                        .toList());
                all.addAll(rest);
                assertThat(all).hasSize(WRITES).doesNotHaveDuplicates();
            }
        }
    }

    /** The names of the next {@code n} events' objects. */
    private static List<String> names(RawHttp.Lines watch, int n) {
        List<String> names = new ArrayList<>(n);
        while (names.size() < n) {
            JsonNode e = watch.next();
            if (e == null) {
                throw new AssertionError("the watch ended after " + names.size() + " of " + n + " events");
            }
            if (!e.path("type").asString().equals("BOOKMARK")) {
                names.add(e.path("object").path("metadata").path("name").asString());
            }
        }
        return names;
    }
}
