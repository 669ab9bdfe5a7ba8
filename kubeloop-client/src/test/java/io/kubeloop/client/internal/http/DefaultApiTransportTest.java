package io.kubeloop.client.internal.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kubeloop.client.ClientOptions;
import io.kubeloop.client.config.AuthProvider;
import io.kubeloop.client.config.ClientConfig;
import io.kubeloop.client.http.ApiRequest;
import io.kubeloop.client.http.ApiResponse;
import io.kubeloop.client.http.TransportException;
import io.kubeloop.time.testing.FakeTicker;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class DefaultApiTransportTest {

    private final TestApiServer server = new TestApiServer();
    private final FakeTicker ticker = FakeTicker.autoAdvancing();

    @AfterEach
    void stop() {
        server.close();
    }

    private ApiResponse get(DefaultApiTransport t, String path) {
        return t.send(ApiRequest.get(URI.create(t.server() + path)));
    }

    private ClientOptions.Builder options() {
        return ClientOptions.builder().ticker(ticker);
    }

    @Test
    void sendsKubeloopUserAgentWithVersionOsArchAndJava() {
        server.reply("GET", "/version", 200, "{}");
        try (var t = DefaultApiTransport.create(server.config(), options().build())) {
            assertThat(get(t, "/version").status()).isEqualTo(200);
        }
        assertThat(server.lastRequest().header("User-Agent"))
                .matches("kubeloop/0\\.1\\.0-SNAPSHOT \\((linux|darwin|windows|[a-z-]+)/[a-z0-9]+\\) java/\\d+.*");
    }

    @Test
    void userAgentOverrideReplacesTheDefault() {
        server.reply("GET", "/version", 200, "{}");
        try (var t = DefaultApiTransport.create(
                server.config(), options().userAgent("my-operator/1.0").build())) {
            get(t, "/version").close();
        }
        assertThat(server.lastRequest().header("User-Agent")).isEqualTo("my-operator/1.0");
    }

    @Test
    void osAndArchUseGoNames() {
        assertThat(UserAgentInterceptor.goos("Mac OS X")).isEqualTo("darwin");
        assertThat(UserAgentInterceptor.goos("Windows 11")).isEqualTo("windows");
        assertThat(UserAgentInterceptor.goarch("x86_64")).isEqualTo("amd64");
        assertThat(UserAgentInterceptor.goarch("aarch64")).isEqualTo("arm64");
    }

    @Test
    void after401TheProviderIsInvalidatedAndTheRequestSentOnceMoreWithFreshCredentials() {
        AtomicInteger invalidations = new AtomicInteger();
        AuthProvider rotating = new AuthProvider() {
            @Override
            public Optional<String> authorization() {
                return Optional.of(invalidations.get() == 0 ? "Bearer old" : "Bearer new");
            }

            @Override
            public void invalidate() {
                invalidations.incrementAndGet();
            }
        };
        server.on(
                "GET",
                "/api",
                (r, ex) -> TestApiServer.respond(
                        ex, "Bearer new".equals(r.header("Authorization")) ? 200 : 401, "{}", Map.of()));
        try (var t =
                DefaultApiTransport.create(server.config(rotating), options().build())) {
            assertThat(get(t, "/api").status()).isEqualTo(200);
        }
        assertThat(invalidations).hasValue(1);
        assertThat(server.requests())
                .extracting(r -> r.header("Authorization"))
                .containsExactly("Bearer old", "Bearer new");
    }

    @Test
    void aSecond401IsReturnedWithoutFurtherRetries() {
        server.reply("GET", "/api", 401, TestApiServer.status(401, "Unauthorized", "Unauthorized"));
        try (var t = DefaultApiTransport.create(
                server.config(AuthProvider.bearer("bad")), options().build())) {
            assertThat(get(t, "/api").status()).isEqualTo(401);
        }
        assertThat(server.requests()).hasSize(2);
    }

    @Test
    void a401WithoutCredentialsIsNotRetried() {
        server.reply("GET", "/api", 401, "{}");
        try (var t = DefaultApiTransport.create(server.config(), options().build())) {
            assertThat(get(t, "/api").status()).isEqualTo(401);
        }
        assertThat(server.requests()).hasSize(1);
        assertThat(server.lastRequest().header("Authorization")).isNull();
    }

    @Test
    void getIsRetriedAfter429And503WithRetryAfterWaitingAsAsked() {
        AtomicInteger calls = new AtomicInteger();
        server.on("GET", "/api", (r, ex) -> {
            int n = calls.incrementAndGet();
            TestApiServer.respond(
                    ex, n == 1 ? 429 : n == 2 ? 503 : 200, "{}", n <= 2 ? Map.of("Retry-After", "" + n) : Map.of());
        });
        try (var t = DefaultApiTransport.create(
                server.config(), options().rateLimitingEnabled(false).build())) {
            assertThat(get(t, "/api").status()).isEqualTo(200);
        }
        assertThat(ticker.sleeps()).containsExactly(Duration.ofSeconds(1), Duration.ofSeconds(2));
    }

    @Test
    void retryWaitIsCappedByMaxRetryWait() {
        AtomicInteger calls = new AtomicInteger();
        server.on(
                "GET",
                "/api",
                (r, ex) -> TestApiServer.respond(
                        ex, calls.incrementAndGet() == 1 ? 429 : 200, "{}", Map.of("Retry-After", "120")));
        try (var t = DefaultApiTransport.create(
                server.config(),
                options()
                        .rateLimitingEnabled(false)
                        .maxRetryWait(Duration.ofSeconds(5))
                        .build())) {
            assertThat(get(t, "/api").status()).isEqualTo(200);
        }
        assertThat(ticker.sleeps()).containsExactly(Duration.ofSeconds(5));
    }

    @Test
    void retriesStopAfterMaxRetriesAndReturnTheLastReply() {
        server.on("GET", "/api", (r, ex) -> TestApiServer.respond(ex, 429, "{}", Map.of("Retry-After", "1")));
        try (var t = DefaultApiTransport.create(
                server.config(),
                options().rateLimitingEnabled(false).maxRetries(2).build())) {
            assertThat(get(t, "/api").status()).isEqualTo(429);
        }
        assertThat(server.requests()).hasSize(3);
    }

    @Test
    void errorsWithoutRetryAfterAndWritesAreNotRetried() {
        server.reply("GET", "/api", 500, "{}");
        server.on("POST", "/api", (r, ex) -> TestApiServer.respond(ex, 503, "{}", Map.of("Retry-After", "1")));
        try (var t = DefaultApiTransport.create(
                server.config(), options().rateLimitingEnabled(false).build())) {
            assertThat(get(t, "/api").status()).isEqualTo(500);
            ApiRequest post = new ApiRequest("POST", URI.create(t.server() + "/api"), Map.of(), "{}".getBytes(), false);
            assertThat(t.send(post).status()).isEqualTo(503);
        }
        assertThat(server.requests()).hasSize(2);
        assertThat(ticker.sleeps()).isEmpty();
    }

    @Test
    void rateLimiterLetsBurstThroughThenPacesAtQps() {
        server.reply("GET", "/api", 200, "{}");
        try (var t = DefaultApiTransport.create(
                server.config(), options().qps(2).burst(3).build())) {
            for (int i = 0; i < 5; i++) {
                get(t, "/api").close();
            }
        }
        assertThat(ticker.sleeps()).containsExactly(Duration.ofMillis(500), Duration.ofMillis(500));
    }

    @Test
    void disabledRateLimiterNeverWaits() {
        server.reply("GET", "/api", 200, "{}");
        try (var t = DefaultApiTransport.create(
                server.config(),
                options().qps(1).burst(1).rateLimitingEnabled(false).build())) {
            for (int i = 0; i < 5; i++) {
                get(t, "/api").close();
            }
        }
        assertThat(ticker.sleeps()).isEmpty();
        assertThat(server.requests()).hasSize(5);
    }

    @Test
    void tokenBucketRefillsOverTimeButNeverAboveBurst() {
        TokenBucket bucket = new TokenBucket(10, 2, ticker);
        assertThat(bucket.reserve()).isZero();
        assertThat(bucket.reserve()).isZero();
        assertThat(bucket.reserve()).isEqualTo(Duration.ofMillis(100));
        ticker.step(Duration.ofSeconds(60));
        assertThat(bucket.reserve()).isZero();
        assertThat(bucket.reserve()).isZero();
        assertThat(bucket.reserve()).isEqualTo(Duration.ofMillis(100));
    }

    @Test
    void refusedConnectionIsOneClearLine() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        URI uri = URI.create("https://127.0.0.1:" + port);
        ClientConfig config =
                new ClientConfig(uri, server.tls().clientContext(), null, AuthProvider.none(), null, null, null);
        try (var t = DefaultApiTransport.create(config, options().build())) {
            assertThatThrownBy(() -> get(t, "/api"))
                    .isInstanceOf(TransportException.class)
                    .hasMessage("cannot reach https://127.0.0.1:" + port + ": connection refused");
        }
    }

    @Test
    void nonStreamingCallFailsAfterRequestTimeout() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        server.on("GET", "/slow", (r, ex) -> {
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            ex.close();
        });
        try (var t = DefaultApiTransport.create(
                server.config(),
                options().requestTimeout(Duration.ofMillis(300)).build())) {
            assertThatThrownBy(() -> get(t, "/slow"))
                    .isInstanceOf(TransportException.class)
                    .hasMessage("GET " + server.uri() + "/slow: no response within 300ms");
        } finally {
            release.countDown();
        }
    }

    @Test
    void aRequestWithoutAResponseHeadWithinTheRequestTimeoutRetiresTheSharedClientOnce() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        server.on("GET", "/slow", (r, ex) -> {
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            ex.close();
        });
        server.reply("GET", "/version", 200, "{}");
        try (var t = DefaultApiTransport.create(
                server.config(),
                options()
                        .http1Requests(false)
                        .requestTimeout(Duration.ofMillis(300))
                        .build())) {
            var first = t.clients().current();
            assertThat(get(t, "/version").status()).isEqualTo(200);
            assertThatThrownBy(() -> get(t, "/slow"))
                    .isInstanceOf(TransportException.class)
                    .hasMessageContaining("no response within 300ms");
            assertThat(t.clients().current().number())
                    .as("replaced after the timeout")
                    .isEqualTo(1);
            assertThat(get(t, "/version").status())
                    .as("answered through the new client")
                    .isEqualTo(200);
            assertThat(t.clients().current().number()).isEqualTo(1);
            Awaitility.await()
                    .atMost(Duration.ofSeconds(10))
                    .until(() -> first.client().isTerminated());
        } finally {
            release.countDown();
        }
    }

    /** {@code GET /stalled} sends 100 of its 1,000 bytes, then nothing until {@code release}. */
    private void stallAfter100Bytes(CountDownLatch release) {
        server.on("GET", "/stalled", (r, ex) -> {
            ex.sendResponseHeaders(200, 1000);
            ex.getResponseBody().write(new byte[100]);
            ex.getResponseBody().flush();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            ex.close();
        });
    }

    @Test
    void overHttp1AResponseWhoseBodyStopsArrivingFailsAtTheRequestTimeoutOnItsOwnConnection() {
        CountDownLatch release = new CountDownLatch(1);
        stallAfter100Bytes(release);
        server.reply("GET", "/version", 200, "{}");
        try (var t = DefaultApiTransport.create(
                server.config(),
                options().requestTimeout(Duration.ofMillis(500)).build())) {
            long start = System.nanoTime();
            assertThatThrownBy(() -> get(t, "/stalled"))
                    .isInstanceOf(TransportException.class)
                    .hasMessage("GET " + server.uri() + "/stalled: no response within 500ms");
            assertThat(Duration.ofNanos(System.nanoTime() - start))
                    .isBetween(Duration.ofMillis(450), Duration.ofSeconds(5));
            assertThat(get(t, "/version").status()).as("on another connection").isEqualTo(200);
            assertThat(t.clients().current().number())
                    .as("the shared HTTP/2 client was not involved")
                    .isZero();
        } finally {
            release.countDown();
        }
    }

    @Test
    void aResponseWhoseBodyStopsArrivingFailsAtTheRequestTimeoutAndRetiresTheSharedClient() {
        CountDownLatch release = new CountDownLatch(1);
        stallAfter100Bytes(release);
        try (var t = DefaultApiTransport.create(
                server.config(),
                options()
                        .http1Requests(false)
                        .requestTimeout(Duration.ofMillis(500))
                        .build())) {
            long start = System.nanoTime();
            assertThatThrownBy(() -> get(t, "/stalled"))
                    .isInstanceOf(TransportException.class)
                    .hasMessage("GET " + server.uri() + "/stalled: no response within 500ms");
            assertThat(Duration.ofNanos(System.nanoTime() - start))
                    .isBetween(Duration.ofMillis(450), Duration.ofSeconds(5));
            assertThat(t.clients().current().number()).isEqualTo(1);
        } finally {
            release.countDown();
        }
    }

    @ParameterizedTest(name = "dedicated watch connections: {0}")
    @ValueSource(booleans = {true, false})
    void aStreamingResponseClosedAsDeadRetiresTheSharedClientOnlyWhenItCameThroughIt(boolean dedicated) {
        CountDownLatch release = new CountDownLatch(1);
        server.stream("/watch", List.of("{}"), release);
        try (var t = DefaultApiTransport.create(
                server.config(), options().dedicatedWatchConnections(dedicated).build())) {
            ApiResponse watch = t.send(new ApiRequest("GET", URI.create(t.server() + "/watch"), Map.of(), null, true));
            watch.closeDeadConnection("silent for a test");
            watch.closeDeadConnection("closed already: nothing more");
            assertThat(t.clients().current().number()).isEqualTo(dedicated ? 0 : 1);
            server.reply("GET", "/version", 200, "{}");
            assertThat(get(t, "/version").status()).isEqualTo(200);
        } finally {
            release.countDown();
        }
    }

    @Test
    void closingTheTransportClosesTheSharedClient() {
        var t = DefaultApiTransport.create(server.config(), options().build());
        var client = t.clients().current().client();
        t.close();
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(client::isTerminated);
    }

    @Test
    void tlsServerNameIsSentAsSniAndVerifiedForIpLiteralServers() {
        server.reply("GET", "/version", 200, "{}");
        ClientConfig config = new ClientConfig(
                server.uri(), server.tls().clientContext(), TestTls.ALT_NAME, AuthProvider.none(), null, null, null);
        try (var t = DefaultApiTransport.create(config, options().build())) {
            assertThat(get(t, "/version").status()).isEqualTo(200);
        }
        assertThat(server.lastRequest().sniNames()).containsExactly(TestTls.ALT_NAME);
    }

    @Test
    void chaCha20IsOfferedFirstUnlessTurnedOff() {
        server.reply("GET", "/version", 200, "{}");
        try (var t = DefaultApiTransport.create(server.config(), options().build())) {
            get(t, "/version").close();
        }
        assertThat(server.lastRequest().cipherSuite()).contains("CHACHA20_POLY1305");
        try (var t = DefaultApiTransport.create(
                server.config(), options().preferChaCha20(false).build())) {
            get(t, "/version").close();
        }
        assertThat(server.lastRequest().cipherSuite()).contains("AES").doesNotContain("CHACHA20");
    }

    @Test
    void withoutTlsServerNameNoSniIsSentToAnIpLiteral() {
        server.reply("GET", "/version", 200, "{}");
        try (var t = DefaultApiTransport.create(server.config(), options().build())) {
            get(t, "/version").close();
        }
        assertThat(server.lastRequest().sniNames()).isEmpty();
    }

    @Test
    void socksProxyIsRejectedWithAClearMessage() {
        ClientConfig config = new ClientConfig(
                server.uri(),
                server.tls().clientContext(),
                null,
                AuthProvider.none(),
                null,
                URI.create("socks5://127.0.0.1:1080"),
                null);
        assertThatThrownBy(() -> DefaultApiTransport.create(config, options().build()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unsupported proxy-url socks5://127.0.0.1:1080");
    }

    @Test
    void requestsGoThroughTheConfiguredHttpProxy() throws Exception {
        server.reply("GET", "/version", 200, "{}");
        try (TestConnectProxy proxy = new TestConnectProxy()) {
            ClientConfig config = new ClientConfig(
                    server.uri(), server.tls().clientContext(), null, AuthProvider.none(), null, proxy.uri(), null);
            try (var t = DefaultApiTransport.create(config, options().build())) {
                assertThat(get(t, "/version").status()).isEqualTo(200);
            }
            assertThat(proxy.connectTargets())
                    .containsExactly("127.0.0.1:" + server.uri().getPort());
        }
    }
}
