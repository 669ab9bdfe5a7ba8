package io.kubeloop.client.internal.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kubeloop.client.ClientOptions;
import io.kubeloop.client.config.AuthProvider;
import io.kubeloop.client.config.ClientConfig;
import io.kubeloop.client.config.SslContextBuilder;
import io.kubeloop.client.http.ApiRequest;
import io.kubeloop.client.http.ApiResponse;
import io.kubeloop.client.http.Interceptor;
import io.kubeloop.client.http.TransportException;
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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLContext;
import jdk.net.ExtendedSocketOptions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class SocketStreamSenderTest {

    private final TestApiServer server = new TestApiServer();
    private final CountDownLatch release = new CountDownLatch(1);
    private final AtomicInteger fallbackCalls = new AtomicInteger();
    private final Interceptor fallback = chain -> {
        fallbackCalls.incrementAndGet();
        return ApiResponse.buffered(chain.request(), 299, Map.of(), new byte[0]);
    };

    @AfterEach
    void stop() {
        release.countDown();
        server.close();
    }

    private SocketStreamSender sender(ClientConfig config) {
        return sender(config, true);
    }

    private SocketStreamSender sender(ClientConfig config, boolean preferChaCha20) {
        return new SocketStreamSender(
                fallback,
                config.sslContext(),
                config.tlsServerName(),
                preferChaCha20,
                Duration.ofSeconds(5),
                Duration.ofSeconds(5));
    }

    private static ApiResponse send(SocketStreamSender s, ApiRequest r) {
        return DefaultInterceptorChain.run(List.of(s), r);
    }

    private ApiRequest watch(String pathAndQuery) {
        return new ApiRequest(
                "GET",
                URI.create(server.uri() + pathAndQuery),
                Map.of("Accept", List.of("application/json"), "Authorization", List.of("Bearer t0ken")),
                null,
                true);
    }

    /** Sends the lines one flushed chunk each, then waits for the test to release it. */
    private void streamThenHold(String path, String... lines) {
        server.stream(path, List.of(lines), release);
    }

    @Test
    void aStreamingGetGetsAConnectionOfItsOwnWhoseBodyArrivesAsItIsSentAndClosingItClosesTheConnection()
            throws Exception {
        streamThenHold("/api/v1/pods", "{\"type\":\"ADDED\"}\n");
        SocketStreamSender s = sender(server.config());
        ApiResponse r = send(s, watch("/api/v1/pods?watch=true&resourceVersion=5"));
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.header("content-type")).isEqualTo("application/json");
        assertThat(s.openConnections()).isEqualTo(1);
        byte[] buf = new byte[100];
        int n = CompletableFuture.supplyAsync(() -> {
                    try {
                        return r.body().read(buf);
                    } catch (IOException e) {
                        throw new RuntimeException(e);
                    }
                })
                .get(5, TimeUnit.SECONDS);
        assertThat(new String(buf, 0, n, StandardCharsets.UTF_8)).isEqualTo("{\"type\":\"ADDED\"}\n");
        r.close();
        assertThat(s.openConnections()).isZero();
        assertThat(fallbackCalls).hasValue(0);
        TestApiServer.Recorded seen = server.lastRequest();
        assertThat(seen.rawQuery()).isEqualTo("watch=true&resourceVersion=5");
        assertThat(seen.header("Authorization")).isEqualTo("Bearer t0ken");
        assertThat(seen.header("Accept")).isEqualTo("application/json");
    }

    @Test
    void aWholeBodyWithContentLengthIsReadToItsEndSuchAsAnErrorStatus() throws IOException {
        server.reply("GET", "/api/v1/pods", 410, TestApiServer.status(410, "Expired", "too old"));
        try (ApiResponse r = send(sender(server.config()), watch("/api/v1/pods?watch=true"))) {
            assertThat(r.status()).isEqualTo(410);
            assertThat(new String(r.body().readAllBytes(), StandardCharsets.UTF_8))
                    .contains("\"reason\":\"Expired\"");
        }
    }

    @Test
    void listStreamsReadToTheirEndReuseOneKeptAliveConnectionButAStreamClosedEarlyClosesIts() throws IOException {
        server.reply("GET", "/api/v1/pods", 200, "{\"kind\":\"PodList\",\"items\":[]}");
        SocketStreamSender s = sender(server.config());
        for (int i = 0; i < 3; i++) {
            try (ApiResponse r = send(s, watch("/api/v1/pods?limit=500&continue=c" + i))) {
                assertThat(r.status()).isEqualTo(200);
                assertThat(new String(r.body().readAllBytes(), StandardCharsets.UTF_8))
                        .contains("PodList");
            }
            assertThat(s.openConnections()).as("after list %d", i).isEqualTo(1);
        }
        assertThat(server.requests())
                .extracting(TestApiServer.Recorded::rawQuery)
                .containsExactly("limit=500&continue=c0", "limit=500&continue=c1", "limit=500&continue=c2");
        assertThat(new String(
                        SocketStreamSender.requestHead(watch("/api/v1/pods?limit=500"), true),
                        StandardCharsets.ISO_8859_1))
                .doesNotContain("Connection:");

        ApiResponse early = send(s, watch("/api/v1/pods?limit=500"));
        early.body().read();
        early.close();
        assertThat(s.openConnections()).isZero();

        try (ApiResponse w = send(s, watch("/api/v1/pods?watch=true"))) {
            w.body().readAllBytes();
        }
        assertThat(s.openConnections()).as("a watch's connection is never kept").isZero();
        s.closeAll();
    }

    @Test
    void everythingButStreamingGetsGoesToTheFallback() {
        SocketStreamSender s = sender(server.config());
        send(s, ApiRequest.get(URI.create(server.uri() + "/api")));
        send(
                s,
                new ApiRequest(
                        "POST", URI.create(server.uri() + "/api/v1/pods"), Map.of(), new byte[] {'{', '}'}, true));
        assertThat(fallbackCalls).hasValue(2);
        assertThat(server.requests()).isEmpty();
    }

    @Test
    void closeAllEndsAReadBlockedInAnotherThread() throws Exception {
        streamThenHold("/api/v1/pods");
        SocketStreamSender s = sender(server.config());
        ApiResponse r = send(s, watch("/api/v1/pods?watch=true"));
        CompletableFuture<Integer> read = CompletableFuture.supplyAsync(() -> {
            try {
                return r.body().read();
            } catch (IOException e) {
                return -2;
            }
        });
        Thread.sleep(200);
        assertThat(read).isNotDone();
        s.closeAll();
        assertThat(read.get(5, TimeUnit.SECONDS)).isNegative();
        assertThat(s.openConnections()).isZero();
    }

    @Test
    void aWatchConnectionHasTcpKeepAliveEvery30SecondsAndNoReadTimeoutOnceTheHeadIsIn() throws Exception {
        streamThenHold("/api/v1/pods", "{\"type\":\"ADDED\"}\n");
        SocketStreamSender s = sender(server.config());
        try (ApiResponse r = send(s, watch("/api/v1/pods?watch=true"))) {
            assertThat(r.status()).isEqualTo(200);
            Socket socket = s.openSockets().getFirst();
            assertThat(socket.getKeepAlive()).isTrue();
            assertThat(socket.getSoTimeout())
                    .as("a quiet watch is not a dead one")
                    .isZero();
            if (socket.supportedOptions().contains(ExtendedSocketOptions.TCP_KEEPIDLE)) {
                assertThat(socket.getOption(ExtendedSocketOptions.TCP_KEEPIDLE)).isEqualTo(30);
                assertThat(socket.getOption(ExtendedSocketOptions.TCP_KEEPINTERVAL))
                        .isEqualTo(30);
            }
        }
    }

    @Test
    void aCertificateNotNamingTheServerFailsTheHandshakeInOneLine() {
        String name = "not-the-server.example";
        SSLContext context = SslContextBuilder.create()
                .trustCertificates(List.of(server.tls().certificate()))
                .tlsServerName(name)
                .build();
        ClientConfig wrongName = new ClientConfig(server.uri(), context, name, AuthProvider.none(), null, null, null);
        SocketStreamSender s = sender(wrongName);
        assertThatThrownBy(() -> send(s, watch("/api/v1/pods?watch=true")))
                .isInstanceOf(TransportException.class)
                .hasMessageStartingWith("TLS handshake with " + server.uri() + " failed: ");
        assertThat(s.openConnections()).isZero();
    }

    @Test
    void theTlsServerNameIsSentAsSni() throws IOException {
        server.reply("GET", "/api/v1/pods", 200, "{}");
        ClientConfig config = new ClientConfig(
                server.uri(), server.tls().clientContext(), TestTls.ALT_NAME, AuthProvider.none(), null, null, null);
        send(sender(config), watch("/api/v1/pods?watch=true")).close();
        assertThat(server.lastRequest().sniNames()).containsExactly(TestTls.ALT_NAME);
    }

    @Test
    void aWatchConnectionOffersChaCha20FirstUnlessTurnedOff() throws IOException {
        server.reply("GET", "/api/v1/pods", 200, "{}");
        send(sender(server.config(), true), watch("/api/v1/pods?watch=true")).close();
        assertThat(server.lastRequest().cipherSuite()).contains("CHACHA20_POLY1305");
        send(sender(server.config(), false), watch("/api/v1/pods?watch=true")).close();
        assertThat(server.lastRequest().cipherSuite()).contains("AES").doesNotContain("CHACHA20");
    }

    @Test
    void aRefusedConnectionIsOneClearLine() throws IOException {
        int port;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = socket.getLocalPort();
        }
        ApiRequest r = new ApiRequest(
                "GET", URI.create("https://127.0.0.1:" + port + "/api/v1/pods?watch=true"), Map.of(), null, true);
        assertThatThrownBy(() -> send(sender(server.config()), r))
                .isInstanceOf(TransportException.class)
                .hasMessage("cannot reach https://127.0.0.1:" + port + ": connection refused");
    }

    @Test
    void aHeaderValueWithALineBreakIsRefusedBeforeAnythingIsSent() {
        ApiRequest r = new ApiRequest(
                "GET",
                URI.create(server.uri() + "/api/v1/pods?watch=true"),
                Map.of("X-Evil", List.of("a\r\nInjected: yes")),
                null,
                true);
        assertThatThrownBy(() -> send(sender(server.config()), r))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("invalid value for header X-Evil");
        assertThat(server.requests()).isEmpty();
    }

    @Test
    void theRequestHeadNamesTheTargetAndHostAndLeavesConnectionHeadersToTheSender() {
        ApiRequest r = new ApiRequest(
                "GET",
                URI.create("https://user@10.0.0.1:6443/api/v1/pods?watch=1&labelSelector=a%3Db"),
                Map.of("Connection", List.of("keep-alive"), "Host", List.of("evil"), "Accept", List.of("*/*")),
                null,
                true);
        String head = new String(SocketStreamSender.requestHead(r), StandardCharsets.ISO_8859_1);
        assertThat(head)
                .isEqualTo("GET /api/v1/pods?watch=1&labelSelector=a%3Db HTTP/1.1\r\nHost: 10.0.0.1:6443\r\n"
                        + "Accept: */*\r\nConnection: close\r\n\r\n");
    }

    @Test
    void withAProxyOrTurnedOffWatchesGoThroughTheHttpClient() throws Exception {
        streamThenHold("/api/v1/pods", "{\"type\":\"ADDED\"}\n");
        try (TestConnectProxy proxy = new TestConnectProxy()) {
            ClientConfig viaProxy = new ClientConfig(
                    server.uri(), server.tls().clientContext(), null, AuthProvider.none(), null, proxy.uri(), null);
            try (var t = DefaultApiTransport.create(viaProxy, ClientOptions.defaults());
                    ApiResponse r = t.send(watch("/api/v1/pods?watch=true"))) {
                assertThat(r.status()).isEqualTo(200);
            }
            assertThat(proxy.connectTargets())
                    .containsExactly("127.0.0.1:" + server.uri().getPort());
        }
        assertThat(ClientOptions.defaults().dedicatedWatchConnections()).isTrue();
        assertThat(ClientOptions.builder()
                        .dedicatedWatchConnections(false)
                        .build()
                        .dedicatedWatchConnections())
                .isFalse();
    }

    @Test
    void aBodyCutShortOfItsContentLengthIsAnError() {
        server.on("GET", "/short", (r, ex) -> {
            ex.sendResponseHeaders(200, 100);
            OutputStream out = ex.getResponseBody();
            out.write("only this".getBytes(StandardCharsets.UTF_8));
            out.flush();
            ex.getHttpContext().getServer().stop(0);
        });
        ApiRequest r = new ApiRequest("GET", URI.create(server.uri() + "/short"), Map.of(), null, true);
        ApiResponse response = send(sender(server.config()), r);
        InputStream body = response.body();
        assertThatThrownBy(body::readAllBytes).isInstanceOf(IOException.class);
        response.close();
    }
}
