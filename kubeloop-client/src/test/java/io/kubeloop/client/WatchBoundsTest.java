package io.kubeloop.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.GroupVersionResource;
import io.kubeloop.api.ResourceScope;
import io.kubeloop.client.http.TransportException;
import io.kubeloop.client.internal.http.SharedClients;
import io.kubeloop.client.internal.http.TestApiServer;
import io.kubeloop.time.testing.FakeTicker;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A watch never blocks its consumer forever: the client ends a watch whose server went silent — by
 * its idle timeout, or by its deadline ({@code timeoutSeconds} plus the margin) — on both transports
 * (a dedicated HTTP/1.1 connection, or the JDK HttpClient), and only then. Real but short bounds
 * against a real server; the deadline's arithmetic on the fake ticker. Each test runs in a thread of
 * its own, so that one whose watch did block forever fails at its timeout instead of hanging the build.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class WatchBoundsTest {

    private static final String PODS = "/api/v1/namespaces/default/pods";
    private static final GroupVersionResource PODS_GVR = new GroupVersionResource("", "v1", "pods");

    private final TestApiServer server = new TestApiServer();
    private final CountDownLatch release = new CountDownLatch(1);
    private final List<KubeClient> clients = new ArrayList<>();

    @AfterEach
    void stop() {
        release.countDown();
        clients.forEach(KubeClient::close);
        server.close();
    }

    private ResourceClient<DynamicObject> pods(ClientOptions.Builder options) {
        KubeClient client = KubeClient.create(
                server.config(), options.rateLimitingEnabled(false).build());
        clients.add(client);
        return client.resource(PODS_GVR, ResourceScope.NAMESPACED, DynamicObject.class);
    }

    /** How often the last client made replaced its shared HttpClient as dead. */
    private long sharedClientReplacements() {
        return SharedClients.replacements(clients.getLast().transport());
    }

    private static ClientOptions.Builder options(boolean dedicated) {
        return ClientOptions.builder().dedicatedWatchConnections(dedicated);
    }

    private static String added(String name, String rv) {
        return "{\"type\":\"ADDED\",\"object\":{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"" + name
                + "\",\"resourceVersion\":\"" + rv + "\"}}}\n";
    }

    /** Sends {@code events}, then holds the response open without a byte until released (at most 10 s). */
    private void streamThenGoSilent(String... events) {
        server.stream(PODS, List.of(events), release);
    }

    private static long millisSince(long startNanos) {
        return (System.nanoTime() - startNanos) / 1_000_000;
    }

    @ParameterizedTest(name = "dedicated connection: {0}")
    @ValueSource(booleans = {true, false})
    void aWatchWithBookmarksWhoseServerGoesSilentEndsWithinTheClientsIdleTimeout(boolean dedicated) {
        streamThenGoSilent(added("a", "1"));
        ResourceClient<DynamicObject> pods = pods(options(dedicated).watchIdleTimeout(Duration.ofMillis(700)));
        try (Watch<DynamicObject> watch = pods.watch(ListOptions.builder()
                .allowWatchBookmarks(true)
                .timeout(Duration.ofMinutes(5))
                .build())) {
            assertThat(watch.next()).get().isInstanceOf(WatchEvent.Added.class);
            long waiting = System.nanoTime();
            assertThatThrownBy(watch::next).isInstanceOfSatisfying(WatchTimeoutException.class, e -> {
                assertThat(e.kind()).isEqualTo(WatchTimeoutException.Kind.IDLE);
                assertThat(e.limit()).isEqualTo(Duration.ofMillis(700));
                assertThat(e)
                        .isInstanceOf(TransportException.class)
                        .hasMessageContaining("received nothing for 700ms (its idle timeout)");
            });
            assertThat(millisSince(waiting)).isBetween(600L, 5_000L);
            assertThat(watch.isClosed()).isTrue();
            assertThat(watch.next()).as("after the timeout the watch is over").isEmpty();
        }
        assertThat(server.lastRequest().query()).doesNotContainKey("idleTimeout"); // client-side only
        assertThat(sharedClientReplacements())
                .as("a silent shared connection is replaced, a dedicated one just closed")
                .isEqualTo(dedicated ? 0 : 1);
    }

    @ParameterizedTest(name = "dedicated connection: {0}")
    @ValueSource(booleans = {true, false})
    void aWatchTheServerDoesNotEndByItsTimeoutSecondsEndsAtTheTimeoutPlusTheMargin(boolean dedicated) {
        streamThenGoSilent(added("a", "1"));
        ResourceClient<DynamicObject> pods = pods(options(dedicated).watchTimeoutMargin(Duration.ofMillis(500)));
        long start = System.nanoTime();
        try (Watch<DynamicObject> watch =
                pods.watch(ListOptions.builder().timeout(Duration.ofSeconds(1)).build())) {
            assertThat(watch.next()).isPresent();
            assertThatThrownBy(watch::next).isInstanceOfSatisfying(WatchTimeoutException.class, e -> {
                assertThat(e.kind()).isEqualTo(WatchTimeoutException.Kind.DEADLINE);
                assertThat(e.limit()).isEqualTo(Duration.ofMillis(1500));
            });
            assertThat(millisSince(start)).isBetween(1_400L, 6_000L);
        }
        assertThat(sharedClientReplacements()).isEqualTo(dedicated ? 0 : 1);
    }

    @ParameterizedTest(name = "dedicated connection: {0}")
    @ValueSource(booleans = {true, false})
    void aWatchWhoseResponseHeadDoesNotComeWithinTheRequestTimeoutFails(boolean dedicated) {
        server.on("GET", PODS, (r, ex) -> {
            try {
                release.await(10, TimeUnit.SECONDS); // accepted, never answered
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            ex.close();
        });
        ResourceClient<DynamicObject> pods = pods(options(dedicated).requestTimeout(Duration.ofMillis(500)));
        long start = System.nanoTime();
        assertThatThrownBy(() -> pods.watch(
                        ListOptions.builder().allowWatchBookmarks(true).build()))
                .isExactlyInstanceOf(TransportException.class)
                .hasMessageContaining("no response within 500ms");
        assertThat(millisSince(start)).isLessThan(5_000L);
        assertThat(sharedClientReplacements())
                .as("a head that never came on the shared connection replaces it")
                .isEqualTo(dedicated ? 0 : 1);
    }

    @Test
    void bytesThatKeepArrivingKeepAWatchAlivePastItsIdleTimeout() {
        server.on("GET", PODS, (r, ex) -> {
            ex.getResponseHeaders().set("Content-Type", "application/json");
            ex.sendResponseHeaders(200, 0);
            OutputStream out = ex.getResponseBody();
            out.flush();
            try {
                for (int i = 1; i <= 8; i++) {
                    Thread.sleep(250);
                    out.write(added("p" + i, Integer.toString(i)).getBytes(StandardCharsets.UTF_8));
                    out.flush();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (IOException e) {
                // the client went away
            }
            ex.close();
        });
        ResourceClient<DynamicObject> pods = pods(options(true));
        try (Watch<DynamicObject> watch = pods.watch(
                ListOptions.builder().idleTimeout(Duration.ofMillis(900)).build())) {
            assertThat(watch.stream().count())
                    .as("2 s of events every 250 ms, then a clean end")
                    .isEqualTo(8);
        }
    }

    @Test
    void timeTheConsumerSpendsElsewhereIsNotIdleTimeOfTheConnection() throws Exception {
        streamThenGoSilent(added("a", "1") + added("b", "2"));
        ResourceClient<DynamicObject> pods = pods(options(true));
        try (Watch<DynamicObject> watch = pods.watch(
                ListOptions.builder().idleTimeout(Duration.ofMillis(500)).build())) {
            assertThat(watch.next()).isPresent();
            Thread.sleep(1_200); // busy with the first event for longer than the idle timeout
            assertThat(watch.next())
                    .as("the second event arrived while the consumer was busy")
                    .isPresent();
            assertThatThrownBy(watch::next).isInstanceOf(WatchTimeoutException.class);
        }
    }

    @ParameterizedTest(name = "dedicated connection: {0}")
    @ValueSource(booleans = {true, false})
    void aWatchWithoutBookmarksHasNoIdleTimeoutUnlessItAsksForOne(boolean dedicated) throws Exception {
        streamThenGoSilent();
        ResourceClient<DynamicObject> pods = pods(options(dedicated).watchIdleTimeout(Duration.ofMillis(200)));
        Watch<DynamicObject> watch =
                pods.watch(ListOptions.builder().timeout(Duration.ofMinutes(5)).build());
        CompletableFuture<Optional<WatchEvent<DynamicObject>>> reader = CompletableFuture.supplyAsync(watch::next);
        Thread.sleep(1_200);
        assertThat(reader)
                .as("a quiet watch without bookmarks is a healthy one")
                .isNotDone();
        watch.close();
        assertThat(reader.get(5, TimeUnit.SECONDS)).isEmpty();
    }

    @Test
    void theDeadlineIsTheSentTimeoutSecondsPlusTheMarginOnTheClientsTicker() {
        streamThenGoSilent();
        FakeTicker ticker = FakeTicker.autoAdvancing();
        ResourceClient<DynamicObject> pods = pods(options(true).ticker(ticker));
        try (Watch<DynamicObject> watch = pods.watch(
                ListOptions.builder().timeout(Duration.ofMillis(4_200)).build())) {
            assertThatThrownBy(watch::next)
                    .isInstanceOfSatisfying(
                            WatchTimeoutException.class,
                            e -> assertThat(e.limit()).isEqualTo(Duration.ofSeconds(5 + 30)));
        }
        assertThat(server.lastRequest().query()).containsEntry("timeoutSeconds", "5");
        assertThat(ticker.sleeps())
                .as("the watchdog slept once, until the deadline")
                .containsExactly(Duration.ofSeconds(35));
    }

    @Test
    void aWatchWithoutTimeoutSecondsIsGivenTheHourAnApiServerKeepsOneAtMostPlusTheMargin() {
        streamThenGoSilent();
        FakeTicker ticker = FakeTicker.autoAdvancing();
        ResourceClient<DynamicObject> pods = pods(options(false).ticker(ticker));
        try (Watch<DynamicObject> watch = pods.watch(ListOptions.none())) {
            assertThatThrownBy(watch::next).isInstanceOfSatisfying(WatchTimeoutException.class, e -> {
                assertThat(e.kind()).isEqualTo(WatchTimeoutException.Kind.DEADLINE);
                assertThat(e.limit()).isEqualTo(Duration.ofHours(1).plusSeconds(30));
            });
        }
        assertThat(ticker.sleeps()).containsExactly(Duration.ofHours(1).plusSeconds(30));
    }

    @Test
    void theIdleTimeoutIsTheWatchsOwnElseTheClientsForBookmarkWatchesOnly() {
        WatchWatchdog.Limits limits = WatchWatchdog.Limits.of(ClientOptions.defaults());
        assertThat(limits.idleAfter(
                        ListOptions.builder().allowWatchBookmarks(true).build()))
                .isEqualTo(Duration.ofMinutes(3));
        assertThat(limits.idleAfter(ListOptions.none())).isZero();
        assertThat(limits.idleAfter(
                        ListOptions.builder().idleTimeout(Duration.ofSeconds(5)).build()))
                .isEqualTo(Duration.ofSeconds(5));
        assertThat(limits.idleAfter(ListOptions.builder()
                        .allowWatchBookmarks(true)
                        .idleTimeout(Duration.ZERO)
                        .build()))
                .isZero();
        assertThat(limits.deadlineAfter(
                        ListOptions.builder().timeout(Duration.ofMinutes(7)).build()))
                .isEqualTo(Duration.ofMinutes(7).plusSeconds(30));
    }
}
