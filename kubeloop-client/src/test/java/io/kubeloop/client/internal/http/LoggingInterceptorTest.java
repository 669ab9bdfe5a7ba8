package io.kubeloop.client.internal.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubeloop.client.ClientOptions;
import io.kubeloop.client.config.AuthProvider;
import io.kubeloop.client.http.ApiRequest;
import io.kubeloop.client.http.ApiResponse;
import io.kubeloop.time.testing.FakeTicker;
import java.io.InputStream;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class LoggingInterceptorTest {

    private static final String TOKEN = "s3cr3t-t0ken-value";

    private final TestApiServer server = new TestApiServer();
    private final List<String> lines = new CopyOnWriteArrayList<>();

    @AfterEach
    void stop() {
        server.close();
    }

    private List<String> run(int verbosity, String responseBody) {
        server.on(
                "GET",
                "/api/v1/pods",
                (r, ex) -> TestApiServer.respond(ex, 200, responseBody, Map.of("X-Seen", "yes")));
        ClientOptions options = ClientOptions.builder()
                .ticker(FakeTicker.autoAdvancing())
                .verbosity(verbosity)
                .logSink(lines::add)
                .userAgent("test-agent")
                .build();
        try (var t = DefaultApiTransport.create(server.config(AuthProvider.bearer(TOKEN)), options)) {
            ApiRequest request = ApiRequest.get(URI.create(t.server() + "/api/v1/pods?limit=500"))
                    .withHeader("Accept", "application/json");
            try (ApiResponse response = t.send(request)) {
                assertThat(new String(response.bytes())).isEqualTo(responseBody);
            }
        }
        return lines;
    }

    private String url() {
        return server.uri() + "/api/v1/pods?limit=500";
    }

    @Test
    void level6LogsVerbUrlStatusAndLatencyOnOneLine() {
        assertThat(run(6, "{}")).containsExactly("GET " + url() + " 200 OK in 0 milliseconds");
    }

    @Test
    void belowLevel6NothingIsLogged() {
        assertThat(run(5, "{}")).isEmpty();
    }

    @Test
    void level7AddsRequestHeadersWithMaskedAuthorization() {
        assertThat(run(7, "{}"))
                .containsExactly(
                        "GET " + url(),
                        "Request Headers:",
                        "    Accept: application/json",
                        "    Authorization: Bearer <masked>",
                        "    User-Agent: test-agent",
                        "Response Status: 200 OK in 0 milliseconds");
    }

    @Test
    void level8AddsResponseHeadersAndTheBodyTruncatedAt1024Chars() {
        String body = "{\"x\":\"" + "a".repeat(2000) + "\"}";
        List<String> out = run(8, body);
        assertThat(out).contains("Response Headers:", "    x-seen: yes");
        assertThat(out)
                .contains("Response Body: " + body.substring(0, 1024) + " [truncated " + (body.length() - 1024)
                        + " chars]");
    }

    @Test
    void level9PrintsACurlCommandAndTheTimingLine() {
        List<String> out = run(9, "{}");
        assertThat(out.get(0))
                .isEqualTo("curl -v -XGET  -H \"Accept: application/json\" -H \"Authorization: Bearer <masked>\""
                        + " -H \"User-Agent: test-agent\" '" + url() + "'");
        assertThat(out).contains("GET " + url() + " 200 OK in 0 milliseconds", "Response Body: {}");
    }

    @Test
    void noTokenAppearsAtAnyLevel() {
        for (int v = 6; v <= 10; v++) {
            lines.clear();
            String out = String.join("\n", run(v, "{}"));
            assertThat(out).doesNotContain(TOKEN);
            if (v >= 7) {
                assertThat(out).contains("Authorization: Bearer <masked>");
            }
        }
    }

    @Test
    void streamingResponseBodiesAreNotReadByTheLogger() throws Exception {
        server.on("GET", "/watch", (r, ex) -> TestApiServer.respond(ex, 200, "{\"type\":\"ADDED\"}\n", Map.of()));
        ClientOptions options =
                ClientOptions.builder().verbosity(10).logSink(lines::add).build();
        try (var t = DefaultApiTransport.create(server.config(), options)) {
            ApiRequest watch = new ApiRequest("GET", URI.create(t.server() + "/watch"), Map.of(), null, true);
            try (ApiResponse response = t.send(watch);
                    InputStream in = response.body()) {
                assertThat(new String(in.readAllBytes())).isEqualTo("{\"type\":\"ADDED\"}\n");
            }
        }
        assertThat(lines).noneMatch(l -> l.startsWith("Response Body"));
    }

    @Test
    void maskingFollowsClientGo() {
        assertThat(LoggingInterceptor.mask("Authorization", "Bearer abc")).isEqualTo("Bearer <masked>");
        assertThat(LoggingInterceptor.mask("authorization", "Basic dXNlcjpw")).isEqualTo("Basic <masked>");
        assertThat(LoggingInterceptor.mask("Authorization", "Bearer")).isEqualTo("Bearer");
        assertThat(LoggingInterceptor.mask("Authorization", "Token abc")).isEqualTo("<masked>");
        assertThat(LoggingInterceptor.mask("Proxy-Authorization", "Basic abc")).isEqualTo("Basic <masked>");
        assertThat(LoggingInterceptor.mask("Accept", "Bearer abc")).isEqualTo("Bearer abc");
    }
}
