package io.kubeloop.client.internal.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kubeloop.client.config.AuthProvider;
import io.kubeloop.client.config.ClientConfig;
import io.kubeloop.client.http.ApiRequest;
import io.kubeloop.client.http.ApiResponse;
import io.kubeloop.client.http.Interceptor;
import io.kubeloop.client.http.TransportException;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLServerSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Requests that are not streamed, over kept-alive HTTP/1.1 connections: bodies and their lengths, whole
 * responses of a length or in chunks, one connection used again and again, and what happens when the
 * server closed a kept connection — a request it never read goes again on a new connection, one it may
 * have read (a POST that got no answer) is the caller's failure, as Go's transport decides.
 */
class Http1RequestSenderTest {

    private final TestApiServer server = new TestApiServer();
    private final AtomicInteger fallbackCalls = new AtomicInteger();
    private final Interceptor fallback = chain -> {
        fallbackCalls.incrementAndGet();
        return ApiResponse.buffered(chain.request(), 299, Map.of(), new byte[0]);
    };
    private RawServer raw;

    @AfterEach
    void stop() throws IOException {
        server.close();
        if (raw != null) {
            raw.close();
        }
    }

    private Http1RequestSender sender(ClientConfig config) {
        return new Http1RequestSender(
                fallback,
                new Http1Connector(
                        config.sslContext(),
                        config.tlsServerName(),
                        true,
                        Duration.ofSeconds(5),
                        Duration.ofSeconds(5)),
                Duration.ofSeconds(5),
                Duration.ofSeconds(5));
    }

    private static ApiResponse send(Http1RequestSender s, ApiRequest r) {
        return DefaultInterceptorChain.run(List.of(s), r);
    }

    private static ApiRequest request(URI base, String method, String path, String body) {
        return new ApiRequest(
                method,
                URI.create(base + path),
                Map.of("Content-Type", List.of("application/json"), "Authorization", List.of("Bearer t0ken")),
                body == null ? null : body.getBytes(StandardCharsets.UTF_8),
                false);
    }

    @Test
    void requestsWithAndWithoutBodiesShareOneKeptAliveConnection() throws IOException {
        server.reply("POST", "/api/v1/namespaces/a/configmaps", 201, "{\"kind\":\"ConfigMap\"}");
        server.reply("GET", "/api/v1/namespaces/a/configmaps/x", 200, "{\"kind\":\"ConfigMap\",\"x\":1}");
        Http1RequestSender s = sender(server.config());
        for (int i = 0; i < 3; i++) {
            try (ApiResponse r =
                    send(s, request(server.uri(), "POST", "/api/v1/namespaces/a/configmaps", "{\"n\":" + i + "}"))) {
                assertThat(r.status()).isEqualTo(201);
                assertThat(new String(r.body().readAllBytes(), StandardCharsets.UTF_8))
                        .isEqualTo("{\"kind\":\"ConfigMap\"}");
            }
            try (ApiResponse r = send(s, request(server.uri(), "GET", "/api/v1/namespaces/a/configmaps/x", null))) {
                assertThat(new String(r.body().readAllBytes(), StandardCharsets.UTF_8))
                        .contains("\"x\":1");
            }
            assertThat(s.openConnections()).as("after round %d", i).isEqualTo(1);
        }
        TestApiServer.Recorded post = server.requests().get(4);
        assertThat(post.method()).isEqualTo("POST");
        assertThat(post.bodyText()).isEqualTo("{\"n\":2}");
        assertThat(post.header("Authorization")).isEqualTo("Bearer t0ken");
        assertThat(fallbackCalls).hasValue(0);
        s.closeAll();
        assertThat(s.openConnections()).isZero();
    }

    @Test
    void aChunkedResponseIsReadWholeAndItsConnectionUsedAgain() throws IOException {
        server.on("GET", "/api/v1/pods", (req, ex) -> {
            ex.getResponseHeaders().add("Content-Type", "application/json");
            ex.sendResponseHeaders(200, 0); // chunked
            try (OutputStream out = ex.getResponseBody()) {
                out.write("{\"items\":[".getBytes(StandardCharsets.UTF_8));
                out.flush();
                out.write("1,2,3]}".getBytes(StandardCharsets.UTF_8));
            }
        });
        Http1RequestSender s = sender(server.config());
        for (int i = 0; i < 2; i++) {
            try (ApiResponse r = send(s, request(server.uri(), "GET", "/api/v1/pods", null))) {
                assertThat(new String(r.body().readAllBytes(), StandardCharsets.UTF_8))
                        .isEqualTo("{\"items\":[1,2,3]}");
            }
        }
        assertThat(s.openConnections()).isEqualTo(1);
    }

    @Test
    void streamingRequestsGoToTheNextStage() {
        Http1RequestSender s = sender(server.config());
        ApiRequest watch =
                new ApiRequest("GET", URI.create(server.uri() + "/api/v1/pods?watch=true"), Map.of(), null, true);
        assertThat(send(s, watch).status()).isEqualTo(299);
        assertThat(fallbackCalls).hasValue(1);
    }

    @Test
    void aPostFindingAKeptConnectionTheServerClosedGoesOnANewOne() throws Exception {
        raw = new RawServer(
                server.tls()
                        .serverContext()
                        .getServerSocketFactory()
                        .createServerSocket(0, 50, InetAddress.getLoopbackAddress()),
                1);
        Http1RequestSender s = sender(raw.config(server));
        try (ApiResponse r = send(s, request(raw.uri(), "POST", "/api/v1/namespaces/a/configmaps", "{}"))) {
            assertThat(r.status()).isEqualTo(201);
        }
        raw.awaitClosed(1);
        try (ApiResponse r = send(s, request(raw.uri(), "POST", "/api/v1/namespaces/a/configmaps", "{\"second\":1}"))) {
            assertThat(r.status()).isEqualTo(201);
        }
        assertThat(raw.connections).hasValue(2);
        assertThat(s.closingDropped())
                .as("its close_notify was seen before anything was written")
                .isEqualTo(1);
        assertThat(raw.requests).containsExactly("POST {}", "POST {\"second\":1}");
    }

    @Test
    void aPostThatGotNoAnswerIsNotSentAgainButAGetIs() throws Exception {
        raw = new RawServer(new ServerSocket(0, 50, InetAddress.getLoopbackAddress()), 1);
        raw.silentlyDropSecondRequest = true;
        Http1RequestSender s = sender(raw.config(server));
        send(s, request(raw.uri(), "GET", "/api/v1/namespaces/a/configmaps/x", null))
                .close();
        assertThatThrownBy(() -> send(s, request(raw.uri(), "POST", "/api/v1/namespaces/a/configmaps", "{}")))
                .isInstanceOf(TransportException.class);
        assertThat(raw.requests).containsExactly("GET ", "POST {}");
        send(s, request(raw.uri(), "GET", "/api/v1/namespaces/a/configmaps/x", null))
                .close();
        send(s, request(raw.uri(), "GET", "/api/v1/namespaces/a/configmaps/x", null))
                .close();
        assertThat(raw.requests)
                .as("the GET that got no answer went again")
                .containsExactly("GET ", "POST {}", "GET ", "GET ", "GET ");
    }

    /**
     * A server that answers every request 201 (with a JSON body of a length) and closes each connection
     * after {@code perConnection} answers; with {@link #silentlyDropSecondRequest} it reads a connection's
     * second request and closes without answering.
     */
    private static final class RawServer implements AutoCloseable {
        final ServerSocket socket;
        final int perConnection;
        final AtomicInteger connections = new AtomicInteger();
        final AtomicInteger closed = new AtomicInteger();
        final List<String> requests = new CopyOnWriteArrayList<>();
        volatile boolean silentlyDropSecondRequest;

        RawServer(ServerSocket socket, int perConnection) {
            this.socket = socket;
            this.perConnection = perConnection;
            Thread.ofVirtual().start(this::accept);
        }

        URI uri() {
            return URI.create(
                    (socket instanceof SSLServerSocket ? "https" : "http") + "://127.0.0.1:" + socket.getLocalPort());
        }

        ClientConfig config(TestApiServer tlsOf) {
            return new ClientConfig(
                    uri(), tlsOf.tls().clientContext(), null, AuthProvider.none(), "default", null, "test");
        }

        void awaitClosed(int n) throws InterruptedException {
            for (int i = 0; i < 500 && closed.get() < n; i++) {
                Thread.sleep(10);
            }
            Thread.sleep(100); // the close_notify on its way
        }

        private void accept() {
            while (!socket.isClosed()) {
                try {
                    Socket c = socket.accept();
                    connections.incrementAndGet();
                    Thread.ofVirtual().start(() -> serve(c));
                } catch (IOException e) {
                    return;
                }
            }
        }

        private void serve(Socket c) {
            try (c) {
                InputStream in = new BufferedInputStream(c.getInputStream());
                OutputStream out = c.getOutputStream();
                for (int n = 0; ; n++) {
                    String head = head(in);
                    if (head == null) {
                        return;
                    }
                    int length = 0;
                    for (String line : head.split("\r\n")) {
                        if (line.toLowerCase().startsWith("content-length:")) {
                            length = Integer.parseInt(line.substring(15).trim());
                        }
                    }
                    String body = new String(in.readNBytes(length), StandardCharsets.UTF_8);
                    requests.add(head.substring(0, head.indexOf(' ')) + " " + body);
                    if (silentlyDropSecondRequest && n == 1) {
                        return;
                    }
                    byte[] answer = "{\"kind\":\"ConfigMap\"}".getBytes(StandardCharsets.UTF_8);
                    out.write(("HTTP/1.1 201 Created\r\nContent-Type: application/json\r\nContent-Length: "
                                    + answer.length + "\r\n\r\n")
                            .getBytes(StandardCharsets.ISO_8859_1));
                    out.write(answer);
                    out.flush();
                    if (!silentlyDropSecondRequest && n + 1 == perConnection) {
                        return;
                    }
                }
            } catch (IOException e) {
                // the client went away
            } finally {
                closed.incrementAndGet();
            }
        }

        private static String head(InputStream in) throws IOException {
            ByteArrayOutputStream b = new ByteArrayOutputStream();
            int state = 0;
            for (int ch = in.read(); ch >= 0; ch = in.read()) {
                b.write(ch);
                state = (ch == '\r' && (state == 0 || state == 2))
                        ? state + 1
                        : (ch == '\n' && (state == 1 || state == 3)) ? state + 1 : 0;
                if (state == 4) {
                    return b.toString(StandardCharsets.ISO_8859_1);
                }
            }
            return null;
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
