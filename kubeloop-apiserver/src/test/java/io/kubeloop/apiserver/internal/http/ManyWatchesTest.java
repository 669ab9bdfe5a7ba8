package io.kubeloop.apiserver.internal.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubeloop.api.json.KubeJson;
import io.kubeloop.apiserver.EmbeddedApiServer;
import io.kubeloop.apiserver.ServerOptions;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** Many concurrent watches, and bursts of events on one watch (found by the API-server benchmark). */
class ManyWatchesTest {

    static EmbeddedApiServer server;
    static RawHttp http;

    @BeforeAll
    static void start() {
        server = EmbeddedApiServer.start(ServerOptions.defaults());
        http = new RawHttp(server);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void moreThanTwoHundredChunkedWatchesAreServedAndOtherRequestsStillAnswer() throws Exception {
        // Jetty's virtual-thread pool allowed 200 concurrent tasks by default; each chunked watch holds one.
        HttpClient client = HttpClient.newBuilder()
                .sslContext(server.clientConfig().sslContext())
                .version(HttpClient.Version.HTTP_1_1)
                .build();
        List<CompletableFuture<HttpResponse<InputStream>>> watches = new ArrayList<>();
        try {
            for (int i = 0; i < 210; i++) {
                watches.add(client.sendAsync(
                        HttpRequest.newBuilder(
                                        URI.create(server.url() + "/api/v1/namespaces/default/configmaps?watch=true"))
                                .header("Authorization", "Bearer " + server.token())
                                .GET()
                                .build(),
                        HttpResponse.BodyHandlers.ofInputStream()));
            }
            for (CompletableFuture<HttpResponse<InputStream>> w : watches) {
                assertThat(w.get(60, TimeUnit.SECONDS).statusCode()).isEqualTo(200); // headers of a live watch
            }
            assertThat(http.get("/api/v1/namespaces").statusCode()).isEqualTo(200);
        } finally {
            for (CompletableFuture<HttpResponse<InputStream>> w : watches) {
                w.thenAccept(r -> {
                    try {
                        r.body().close();
                    } catch (IOException e) {
                        // closing anyway
                    }
                });
            }
            client.shutdownNow();
        }
    }

    @Test
    void aBurstOfEventsReachesAWebSocketWatchAsOneCompleteMessagePerEventInOrder() throws Exception {
        String ns = "burst";
        assertThat(http.post("/api/v1/namespaces", "{\"metadata\":{\"name\":\"" + ns + "\"}}")
                        .statusCode())
                .isEqualTo(201);
        long from = 0;
        for (int i = 0; i < 600; i++) {
            String body = http.post(
                            "/api/v1/namespaces/" + ns + "/configmaps",
                            "{\"metadata\":{\"name\":\"cm-" + i + "\"},\"data\":{\"i\":\"" + i + "\"}}")
                    .body();
            if (i == 0) {
                from = Long.parseLong(KubeJson.mapper()
                        .readTree(body)
                        .path("metadata")
                        .path("resourceVersion")
                        .asString());
            }
        }
        // Watching from before the first write replays all 600 events at once: the pump sends them in batches.
        LinkedBlockingQueue<String> messages = new LinkedBlockingQueue<>();
        HttpClient client = HttpClient.newBuilder()
                .sslContext(server.clientConfig().sslContext())
                .build();
        WebSocket ws = client.newWebSocketBuilder()
                .header("Authorization", "Bearer " + server.token())
                .buildAsync(
                        URI.create(server.url().toString().replace("https", "wss") + "/api/v1/namespaces/" + ns
                                + "/configmaps?watch=true&resourceVersion=" + (from - 1)),
                        new WebSocket.Listener() {
                            private final StringBuilder buf = new StringBuilder();

                            @Override
                            public CompletionStage<?> onText(WebSocket w, CharSequence data, boolean last) {
                                buf.append(data);
                                if (last) {
                                    messages.add(buf.toString());
                                    buf.setLength(0);
                                }
                                w.request(1);
                                return null;
                            }
                        })
                .get(10, TimeUnit.SECONDS);
        try {
            for (int i = 0; i < 600; i++) {
                String m = messages.poll(20, TimeUnit.SECONDS);
                assertThat(m).as("event %d", i).isNotNull().doesNotContain("\n");
                JsonNode event = KubeJson.mapper().readTree(m);
                assertThat(event.path("type").asString()).isEqualTo("ADDED");
                assertThat(event.path("object").path("metadata").path("name").asString())
                        .isEqualTo("cm-" + i);
            }
            assertThat(messages.poll(Duration.ofMillis(200).toMillis(), TimeUnit.MILLISECONDS))
                    .isNull();
        } finally {
            ws.abort();
            client.shutdownNow();
        }
    }
}
