package io.kubeloop.apiserver.internal.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubeloop.apiserver.EmbeddedApiServer;
import io.kubeloop.apiserver.ServerOptions;
import io.kubeloop.apiserver.SimulatedCluster;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Arrays;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Requests a client got wrong, each answered with a 4xx Status as kube-apiserver answers it (never an HTML page, a
 * 500, a reset stream or a closed connection), found by {@link RequestFuzzTest}.
 */
class BadInputTest {

    /** The server these tests share: started before the first, closed after the last. */
    @AutoClose
    private static EmbeddedApiServer shared;

    static EmbeddedApiServer server;
    static RawHttp http;
    static HttpClient http2;

    @BeforeAll
    static void connect() {
        EmbeddedApiServer embedded =
                shared = EmbeddedApiServer.start(ServerOptions.defaults().withCluster(SimulatedCluster.off()));
        server = embedded;
        http = new RawHttp(embedded);
        http2 = HttpClient.newBuilder()
                .sslContext(embedded.clientConfig().sslContext())
                .version(HttpClient.Version.HTTP_2)
                .build();
    }

    private static void assertStatus(HttpResponse<String> r, int code, String reason) {
        assertThat(r.statusCode()).as(r.body()).isEqualTo(code);
        assertThat(r.headers().firstValue("Content-Type")).hasValue("application/json");
        JsonNode status = RawHttp.json(r);
        assertThat(status.path("kind").asString()).isEqualTo("Status");
        assertThat(status.path("code").asInt()).isEqualTo(code);
        assertThat(status.path("reason").asString()).isEqualTo(reason);
    }

    private static String nested(int depth) {
        return "{\"metadata\":{\"generateName\":\"deep-\"},\"x\":" + "[".repeat(depth) + "1" + "]".repeat(depth) + "}";
    }

    private static HttpResponse<String> send(HttpClient client, HttpRequest r) {
        try {
            return client.send(r, HttpResponse.BodyHandlers.ofString());
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void aQueryWithABadPercentEncodingIsABadRequestStatus() {
        assertStatus(http.get("/api/v1/namespaces/default/configmaps?limit=1&labelSelector=%e9"), 400, "BadRequest");
    }

    @Test
    void aPathJettyRefusesIsABadRequestStatusForEveryMethod() {
        for (String method : new String[] {"GET", "PUT", "DELETE", "PATCH"}) {
            HttpResponse<String> r = http.send(http.req("/api/v1/namespaces/default/configmaps/a%2Fb")
                    .method(method, HttpRequest.BodyPublishers.ofString("{}"))
                    .header("Content-Type", "application/merge-patch+json")
                    .build());
            assertStatus(r, 400, "BadRequest");
        }
    }

    @Test
    void aNulInThePathIsABadRequestThatClosesTheConnectionAndSaysSo() {
        HttpClient http1 = HttpClient.newBuilder()
                .sslContext(server.clientConfig().sslContext())
                .version(HttpClient.Version.HTTP_1_1)
                .build();
        for (int i = 0; i < 3; i++) {
            HttpResponse<String> refused = send(
                    http1,
                    http.req("/api/v1/namespaces/default/configmaps/%00")
                            .header("Content-Type", "application/merge-patch+json")
                            .method("PATCH", HttpRequest.BodyPublishers.ofString("{\"data\":{\"a\":\"b\"}}"))
                            .build());
            assertStatus(refused, 400, "BadRequest");
            assertThat(refused.headers().firstValue("Connection")).hasValue("close");
            HttpResponse<String> next = send(
                    http1,
                    http.req("/api/v1/namespaces/default/configmaps?limit=1")
                            .GET()
                            .build());
            assertThat(next.statusCode())
                    .as("the request after it goes over a new connection")
                    .isEqualTo(200);
        }
    }

    @Test
    void aBurstOfRequestsJettyRefusesKeepsTheHttp2ConnectionOpen() {
        for (int i = 0; i < 2_000; i++) {
            HttpResponse<String> r = send(
                    http2,
                    http.req("/api/v1/namespaces/default/configmaps/%2e%2e")
                            .header("Content-Type", "application/merge-patch+json")
                            .method("PATCH", HttpRequest.BodyPublishers.ofString("{\"data\":{\"a\":\"b\"}}"))
                            .build());
            assertThat(r.statusCode()).as("request %d", i).isEqualTo(400);
        }
    }

    @Test
    void aNameOf20000CharactersIsLookedUpNotRefusedAsTooLong() {
        assertStatus(http.get("/api/v1/namespaces/default/configmaps/" + "x".repeat(20_000)), 404, "NotFound");
    }

    @Test
    void aBodyOverTheLimitGetsA413StatusWhileTheClientStillSendsIt() {
        byte[] body = new byte[4 * 1024 * 1024];
        Arrays.fill(body, (byte) ' ');
        for (HttpClient client : new HttpClient[] {
            http2,
            HttpClient.newBuilder()
                    .sslContext(server.clientConfig().sslContext())
                    .version(HttpClient.Version.HTTP_1_1)
                    .build()
        }) {
            HttpResponse<String> r = send(
                    client,
                    http.req("/api/v1/namespaces/default/configmaps")
                            .header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                            .build());
            assertStatus(r, 413, "RequestEntityTooLarge");
        }
    }

    @Test
    void aBodyTheServerDoesNotReadStillGetsTheAnswer() {
        byte[] body = new byte[1024 * 1024];
        Arrays.fill(body, (byte) '[');
        HttpResponse<String> r = send(
                http2,
                http.req("/api/v1/namespaces/default/configmaps?limit=1")
                        .header("Content-Type", "application/json")
                        .method("GET", HttpRequest.BodyPublishers.ofByteArray(body))
                        .build());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    }

    @Test
    void jsonNested500LevelsIsDecoded() {
        HttpResponse<String> r = http.post("/api/v1/namespaces/default/configmaps", nested(499));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
    }

    @Test
    void jsonNestedDeeperThan500LevelsIsABadRequestWithGosMessage() {
        for (int depth : new int[] {500, 10_000, 100_000}) {
            HttpResponse<String> r = http.post("/api/v1/namespaces/default/configmaps", nested(depth));
            assertStatus(r, 400, "BadRequest");
            assertThat(RawHttp.json(r).path("message").asString())
                    .isEqualTo("couldn't get version/kind; json parse error: invalid character '[' exceeded max depth");
        }
        assertThat(http.get("/api/v1/namespaces/default/configmaps").statusCode())
                .isEqualTo(200);
    }

    @Test
    void aMergePatchNestedDeeperThan500LevelsIsABadRequest() {
        http.createConfigMap("default", "patched-deep", "{}");
        HttpResponse<String> r = http.patch(
                "/api/v1/namespaces/default/configmaps/patched-deep",
                "application/merge-patch+json",
                "{\"x\":" + "{\"a\":".repeat(501) + "1" + "}".repeat(501) + "}");
        assertStatus(r, 400, "BadRequest");
        assertThat(RawHttp.json(r).path("message").asString()).isEqualTo("Invalid JSON Patch");
    }

    @Test
    void theServerKeepsServingAfterEachOfThese() {
        aQueryWithABadPercentEncodingIsABadRequestStatus();
        jsonNestedDeeperThan500LevelsIsABadRequestWithGosMessage();
        assertThat(http.get("/api/v1/namespaces").statusCode()).isEqualTo(200);
    }
}
