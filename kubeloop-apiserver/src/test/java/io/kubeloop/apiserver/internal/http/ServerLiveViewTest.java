package io.kubeloop.apiserver.internal.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kubeloop.api.json.KubeJson;
import io.kubeloop.apiserver.EmbeddedApiServer;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.JsonNode;

/**
 * The embedded server's live view on plain HTTP: its page, and server-sent events each carrying the
 * stored resources with their object counts and open watches and the latest changes, newest first; a
 * new object appears in the next event. Only GET, only its two paths, served once per server.
 */
@Timeout(60)
class ServerLiveViewTest {

    private final EmbeddedApiServer server = EmbeddedApiServer.start();
    private final RawHttp http = new RawHttp(server);
    private final HttpClient plain = HttpClient.newHttpClient();

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void itsPageAndEventsShowTheResourcesAndTheLatestChanges() throws Exception {
        InetSocketAddress address = server.serveLiveView(new InetSocketAddress("127.0.0.1", 0));
        URI base = URI.create("http://127.0.0.1:" + address.getPort());

        HttpResponse<String> page =
                plain.send(HttpRequest.newBuilder(base.resolve("/")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.headers().firstValue("Content-Type")).hasValue("text/html; charset=utf-8");
        assertThat(page.body()).contains("<title>kubeloop — API server</title>").doesNotContain("http://", "https://");

        String ns = http.newNamespace("live");
        http.createConfigMap(ns, "shown", "{}");

        HttpResponse<InputStream> events = plain.send(
                HttpRequest.newBuilder(base.resolve("/events")).build(), HttpResponse.BodyHandlers.ofInputStream());
        assertThat(events.headers().firstValue("Content-Type")).hasValue("text/event-stream; charset=utf-8");
        JsonNode snapshot;
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(events.body(), StandardCharsets.UTF_8))) {
            String line = lines.readLine();
            while (line != null && !line.startsWith("data: ")) {
                line = lines.readLine();
            }
            assertThat(line).isNotNull();
            snapshot = KubeJson.mapper().readTree(line.substring("data: ".length()));
        }
        assertThat(snapshot.path("server").asString()).isEqualTo(server.url().toString());
        JsonNode namespaces = null;
        for (JsonNode r : snapshot.path("resources")) {
            if (r.path("resource").asString().equals("namespaces")) {
                namespaces = r;
            }
        }
        assertThat(namespaces).as("the namespaces row").isNotNull();
        assertThat(namespaces.path("objects").asInt())
                .as("four standard ones and ours")
                .isEqualTo(5);
        JsonNode changes = snapshot.path("changes");
        assertThat(changes.path(0).path("resourceVersion").asLong())
                .as("newest first")
                .isEqualTo(snapshot.path("revision").asLong());
        long previous = Long.MAX_VALUE;
        JsonNode shown = null;
        for (JsonNode c : changes) {
            assertThat(c.path("resourceVersion").asLong()).isLessThan(previous);
            previous = c.path("resourceVersion").asLong();
            if (c.path("name").asString().equals("shown")) {
                shown = c;
            }
        }
        assertThat(shown).as("our ConfigMap among the latest changes").isNotNull();
        assertThat(shown.path("type").asString()).isEqualTo("ADDED");
        assertThat(shown.path("resource").asString()).isEqualTo("configmaps");
        assertThat(shown.path("namespace").asString()).isEqualTo(ns);
    }

    @Test
    void onlyGetOnItsTwoPathsAndOneViewPerServer() throws Exception {
        InetSocketAddress address = server.serveLiveView(new InetSocketAddress("127.0.0.1", 0));
        URI base = URI.create("http://127.0.0.1:" + address.getPort());

        assertThat(plain.send(
                                HttpRequest.newBuilder(base.resolve("/elsewhere"))
                                        .build(),
                                HttpResponse.BodyHandlers.ofString())
                        .statusCode())
                .isEqualTo(404);
        assertThat(plain.send(
                                HttpRequest.newBuilder(base.resolve("/"))
                                        .POST(HttpRequest.BodyPublishers.noBody())
                                        .build(),
                                HttpResponse.BodyHandlers.ofString())
                        .statusCode())
                .isEqualTo(405);
        assertThatThrownBy(() -> server.serveLiveView(new InetSocketAddress("127.0.0.1", 0)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("already served on");
    }
}
