package io.kubeloop.testing.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.GroupVersionResource;
import io.kubeloop.api.ResourceScope;
import io.kubeloop.api.errors.InternalErrorException;
import io.kubeloop.api.errors.TooManyRequestsException;
import io.kubeloop.apiserver.EmbeddedApiServer;
import io.kubeloop.apiserver.internal.fs.PrivateFiles;
import io.kubeloop.client.ClientOptions;
import io.kubeloop.client.KubeClient;
import io.kubeloop.client.ListOptions;
import io.kubeloop.client.ResourceClient;
import io.kubeloop.client.Watch;
import io.kubeloop.client.WatchEvent;
import io.kubeloop.client.WatchTimeoutException;
import io.kubeloop.client.config.ClientConfig;
import io.kubeloop.client.http.TransportException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.net.http.HttpTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Each kind of fault as a real client meets it, through the proxy in front of an embedded server. */
@Timeout(60)
class FaultInjectingProxyTest {

    /** One server for the class: no test writes to it, each reads its 50 ConfigMaps through a proxy of its own. */
    private static EmbeddedApiServer server;

    private FaultInjectingProxy proxy;
    private KubeClient client;
    private volatile Fault next = new Fault.Pass();

    @BeforeAll
    static void startServer() {
        server = EmbeddedApiServer.start();
        for (int i = 0; i < 50; i++) {
            server.client()
                    .resource("configmaps")
                    .inNamespace("default")
                    .create(DynamicObject.parse(
                            "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"cm-" + i + "\"},"
                                    + "\"data\":{\"k\":\"" + "v".repeat(200) + "\"}}"));
        }
    }

    @AfterAll
    static void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    @BeforeEach
    void start() {
        proxy = FaultInjectingProxy.start(server, request -> next);
        client = KubeClient.create(
                proxy.clientConfig(),
                ClientOptions.builder().rateLimitingEnabled(false).build());
    }

    @AfterEach
    void stop() {
        client.close();
        proxy.close();
    }

    private ResourceClient<DynamicObject> configMaps() {
        return client.resource("configmaps").inNamespace("default");
    }

    @Test
    void passForwardsEverything() {
        assertThat(configMaps().list().items()).hasSize(50);
        assertThat(proxy.injected()).isEmpty();
    }

    @Test
    void rejectionsAreStatusesWithRetryAfterThatTheClientRetriesThenReports() {
        var cms = configMaps(); // discovery passes
        next = new Fault.Reject(500, "InternalError", Duration.ofSeconds(0));
        assertThatThrownBy(cms::list)
                .isInstanceOf(InternalErrorException.class)
                .hasMessageContaining("injected by the fault proxy");
        next = new Fault.Reject(429, "TooManyRequests", Duration.ofSeconds(0));
        assertThatThrownBy(cms::list).isInstanceOf(TooManyRequestsException.class);
        assertThat(proxy.injected().get("reject-429"))
                .as("retried as client-go retries 429s")
                .isGreaterThan(1);
    }

    @Test
    void aCutResponseIsABrokenConnectionForTheClient() {
        var cms = configMaps();
        next = new Fault.Cut(4096, Duration.ZERO);
        assertThatThrownBy(cms::list).isInstanceOf(TransportException.class);
        assertThat(proxy.injected().get("cut"))
                .as("cut at least once (a transport may retry a GET)")
                .isPositive();
    }

    @Test
    void aStalledResponseArrivesWholeAfterThePause() {
        var cms = configMaps();
        next = new Fault.Stall(1024, Duration.ofMillis(500));
        long start = System.nanoTime();
        assertThat(cms.list().items()).hasSize(50);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(500));
    }

    @Test
    void watchGoneIsAnExpiredErrorEventAndOnlyForWatches() {
        var cms = configMaps();
        next = new Fault.WatchGone();
        assertThat(cms.list().items()).as("not a watch: passed").hasSize(50);
        try (Watch<DynamicObject> w =
                cms.watch(ListOptions.builder().resourceVersion("1").build())) {
            assertThat(w.next())
                    .hasValueSatisfying(e -> assertThat(e)
                            .isInstanceOfSatisfying(
                                    WatchEvent.Error.class,
                                    err -> assertThat(err.status().code()).isEqualTo(410)));
            assertThat(w.next()).isEmpty();
        }
        assertThat(proxy.injected()).isEqualTo(Map.of("watch-gone", 1L));
    }

    @Test
    @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // a watch that never ends fails, not hangs
    void aBlackholedWatchGoesSilentAfterItsBytesAndStaysOpenPastTheServersEndUntilTheClientGivesUp() {
        proxy.maxWatch(Duration.ofSeconds(1)); // the server ends the watch after 1 s: the client must not see it
        var cms = configMaps();
        next = new Fault.Blackhole(1000);
        long start = System.nanoTime();
        int events = 0;
        try (Watch<DynamicObject> w = cms.watch(ListOptions.builder()
                .resourceVersion("0")
                .idleTimeout(Duration.ofSeconds(2))
                .build())) {
            try {
                while (w.next().isPresent()) {
                    events++;
                }
            } catch (WatchTimeoutException silent) {
                assertThat(silent.kind()).isEqualTo(WatchTimeoutException.Kind.IDLE);
            }
            assertThat(w.isClosed())
                    .as("ended by the client's idle timeout, not by the server")
                    .isTrue();
        }
        assertThat(events)
                .as("the first 1000 bytes passed: some of the 50 initial events, not all")
                .isBetween(1, 49);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofSeconds(2));
        assertThat(proxy.injected()).isEqualTo(Map.of("blackhole", 1L));
    }

    @Test
    @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aRequestBlackholedBeforeForwardingIsNeverAnswered() {
        var cms = configMaps();
        next = new Fault.Blackhole(-1);
        try (KubeClient impatient = KubeClient.create(
                proxy.clientConfig(),
                ClientOptions.builder()
                        .rateLimitingEnabled(false)
                        .requestTimeout(Duration.ofSeconds(1))
                        .build())) {
            var viaImpatient = impatient
                    .resource(cms.resource(), ResourceScope.NAMESPACED, DynamicObject.class)
                    .inNamespace("default");
            assertThatThrownBy(() -> viaImpatient.watch(
                            ListOptions.builder().allowWatchBookmarks(true).build()))
                    .isInstanceOf(TransportException.class)
                    .hasMessageContaining("no response within 1s");
        }
        assertThat(proxy.injected()).isEqualTo(Map.of("blackhole", 1L));
    }

    @Test
    void itsKubeconfigIsAllAClientInAnotherProcessNeeds(@TempDir Path dir) {
        Path file = proxy.writeKubeconfig(dir.resolve("kubeconfig"));
        if (PrivateFiles.posix(file)) { // it holds the token: owner-only
            assertThat(file)
                    .satisfies(f -> assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(f)))
                            .isEqualTo("rw-------"));
        }
        try (KubeClient fromFile = KubeClient.create(ClientConfig.fromKubeconfig(file), ClientOptions.defaults())) {
            assertThat(fromFile.resource("configmaps")
                            .inNamespace("default")
                            .list()
                            .items())
                    .hasSize(50);
        }
        assertThat(proxy.url().getPort()).isNotEqualTo(server.url().getPort());
    }

    private static HttpClient jdkClient(FaultInjectingProxy relay, HttpClient.Version version) {
        return HttpClient.newBuilder()
                .version(version)
                .sslContext(relay.clientConfig().sslContext())
                .build();
    }

    private HttpRequest listConfigMaps(FaultInjectingProxy relay, Duration timeout) {
        return HttpRequest.newBuilder(URI.create(relay.url() + "/api/v1/namespaces/default/configmaps"))
                .header("Authorization", "Bearer " + server.token())
                .timeout(timeout)
                .build();
    }

    @Test
    void theRelayCarriesAnHttp2ClientsOneConnectionToTheServerAndHttp1ClientsToo() throws Exception {
        try (FaultInjectingProxy relay = FaultInjectingProxy.startRelay(server, ConnectionPlan.none());
                HttpClient h2 = jdkClient(relay, HttpClient.Version.HTTP_2);
                HttpClient h1 = jdkClient(relay, HttpClient.Version.HTTP_1_1)) {
            HttpResponse<String> first =
                    h2.send(listConfigMaps(relay, Duration.ofSeconds(10)), BodyHandlers.ofString());
            assertThat(first.statusCode()).isEqualTo(200);
            assertThat(first.version()).isEqualTo(HttpClient.Version.HTTP_2);
            assertThat(first.body()).contains("\"cm-49\"");
            List<CompletableFuture<HttpResponse<String>>> multiplexed = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                multiplexed.add(h2.sendAsync(listConfigMaps(relay, Duration.ofSeconds(10)), BodyHandlers.ofString()));
            }
            for (CompletableFuture<HttpResponse<String>> r : multiplexed) {
                assertThat(r.get(10, TimeUnit.SECONDS)).satisfies(response -> {
                    assertThat(response.statusCode()).isEqualTo(200);
                    assertThat(response.version()).isEqualTo(HttpClient.Version.HTTP_2);
                });
            }
            HttpResponse<String> viaH1 =
                    h1.send(listConfigMaps(relay, Duration.ofSeconds(10)), BodyHandlers.ofString());
            assertThat(viaH1.statusCode()).isEqualTo(200);
            assertThat(viaH1.version()).isEqualTo(HttpClient.Version.HTTP_1_1);
            assertThat(relay.relayedConnections())
                    .as("eleven requests on one HTTP/2 connection")
                    .isEqualTo(Map.of("h2", 1L, "http/1.1", 1L));
            assertThat(relay.injected()).isEmpty();
            assertThatThrownBy(() -> relay.plan(FaultPlan.none())).isInstanceOf(IllegalStateException.class);
        }
        assertThatThrownBy(proxy::freezeAll)
                .as("the request-level proxy has Fault.Blackhole instead")
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aFrozenConnectionPassesNothingMoreEitherWayAndStaysOpenUntilItsClientHangsUp() throws Exception {
        try (FaultInjectingProxy relay = FaultInjectingProxy.startRelay(server, ConnectionPlan.none())) {
            HttpClient h2 = jdkClient(relay, HttpClient.Version.HTTP_2);
            assertThat(h2.send(listConfigMaps(relay, Duration.ofSeconds(10)), BodyHandlers.ofString())
                            .statusCode())
                    .isEqualTo(200);
            assertThat(relay.freezeAll()).isEqualTo(1);
            assertThat(relay.freezeAll()).as("frozen already").isZero();
            long start = System.nanoTime();
            assertThatThrownBy(() -> h2.send(listConfigMaps(relay, Duration.ofSeconds(1)), BodyHandlers.ofString()))
                    .as("the same connection: no answer")
                    .isInstanceOf(HttpTimeoutException.class);
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofSeconds(1));
            assertThat(relay.openRelays())
                    .as("the frozen connection is kept open")
                    .isEqualTo(1);
            try (HttpClient fresh = jdkClient(relay, HttpClient.Version.HTTP_2)) {
                HttpResponse<String> r =
                        fresh.send(listConfigMaps(relay, Duration.ofSeconds(10)), BodyHandlers.ofString());
                assertThat(r.statusCode()).as("a new connection gets through").isEqualTo(200);
                assertThat(r.version()).isEqualTo(HttpClient.Version.HTTP_2);
            }
            h2.shutdownNow(); // the client hangs up
            await().atMost(Duration.ofSeconds(10)).until(() -> relay.openRelays() == 0);
            assertThat(relay.relayedConnections()).isEqualTo(Map.of("h2", 2L));
            assertThat(relay.injected()).isEqualTo(Map.of("freeze", 1L));
        }
    }

    @Test
    @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aConnectionFrozenAfterItsBytesLeavesAnHttp2WatchSilentPastTheServersEndUntilTheClientGivesUp() {
        // 50 events of about 600 bytes: the first 16 KB DATA frame passes whole, the rest is cut off
        try (FaultInjectingProxy relay =
                        FaultInjectingProxy.startRelay(server, c -> ConnectionFault.Freeze.afterBytes(18_000));
                KubeClient h2 = KubeClient.create(
                        relay.clientConfig(),
                        ClientOptions.builder()
                                .rateLimitingEnabled(false)
                                .dedicatedWatchConnections(false)
                                .build())) {
            ResourceClient<DynamicObject> cms = h2.resource(
                            new GroupVersionResource("", "v1", "configmaps"),
                            ResourceScope.NAMESPACED,
                            DynamicObject.class)
                    .inNamespace("default");
            long start = System.nanoTime();
            int events = 0;
            try (Watch<DynamicObject> w = cms.watch(ListOptions.builder()
                    .resourceVersion("0")
                    .timeout(Duration.ofSeconds(1))
                    .idleTimeout(Duration.ofSeconds(2))
                    .build())) {
                try {
                    while (w.next().isPresent()) {
                        events++;
                    }
                } catch (WatchTimeoutException silent) {
                    assertThat(silent.kind()).isEqualTo(WatchTimeoutException.Kind.IDLE);
                }
                assertThat(w.isClosed()).isTrue();
            }
            assertThat(events)
                    .as("18000 bytes passed: some of the 50 initial events, not all")
                    .isBetween(1, 49);
            assertThat(Duration.ofNanos(System.nanoTime() - start))
                    .as("the server's end after 1 s never arrived")
                    .isGreaterThanOrEqualTo(Duration.ofSeconds(2));
            assertThat(relay.relayedConnections()).isEqualTo(Map.of("h2", 1L));
            assertThat(relay.injected()).isEqualTo(Map.of("freeze", 1L));
        }
    }

    @Test
    @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aConnectionFrozenAfterATimeAnswersBeforeAndNothingAfter() throws Exception {
        try (FaultInjectingProxy relay =
                FaultInjectingProxy.startRelay(server, c -> ConnectionFault.Freeze.after(Duration.ofMillis(1500)))) {
            HttpClient h2 = jdkClient(relay, HttpClient.Version.HTTP_2);
            assertThat(h2.send(listConfigMaps(relay, Duration.ofSeconds(10)), BodyHandlers.ofString())
                            .statusCode())
                    .isEqualTo(200);
            await().atMost(Duration.ofSeconds(10)).until(() -> relay.injected().containsKey("freeze"));
            assertThatThrownBy(() -> h2.send(listConfigMaps(relay, Duration.ofSeconds(1)), BodyHandlers.ofString()))
                    .isInstanceOf(HttpTimeoutException.class);
            h2.shutdownNow();
            await().atMost(Duration.ofSeconds(10)).until(() -> relay.openRelays() == 0);
        }
    }

    @Test
    void watchesAreEndedByTheServerAtTheProxysLimit() {
        proxy.maxWatch(Duration.ofSeconds(1));
        var cms = configMaps();
        long start = System.nanoTime();
        try (Watch<DynamicObject> w = cms.watch(ListOptions.builder()
                .resourceVersion(cms.list().resourceVersion())
                .timeout(Duration.ofMinutes(5))
                .build())) {
            assertThat(w.next()).isEmpty();
        }
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
    }
}
