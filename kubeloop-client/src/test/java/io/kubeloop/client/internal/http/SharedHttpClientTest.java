package io.kubeloop.client.internal.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The shared HttpClient is replaced once per dead connection, and a replaced one is closed: at once
 * when idle, after the grace when requests on it never end, and with the holder.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class SharedHttpClientTest {

    private final TestApiServer server = new TestApiServer();
    private final List<HttpClient> made = new CopyOnWriteArrayList<>();
    private final CountDownLatch release = new CountDownLatch(1);

    @AfterEach
    void stop() {
        release.countDown();
        made.forEach(HttpClient::shutdownNow);
        server.close();
    }

    private SharedHttpClient clients(Duration grace) {
        return new SharedHttpClient(
                server.uri(),
                () -> {
                    HttpClient c = HttpClient.newBuilder()
                            .sslContext(server.tls().clientContext())
                            .build();
                    made.add(c);
                    return c;
                },
                grace);
    }

    private HttpRequest get(String path) {
        return HttpRequest.newBuilder(URI.create(server.uri() + path)).build();
    }

    @Test
    void concurrentEvidenceAboutOneClientRetiresItOnceAndLateEvidenceChangesNothing() throws Exception {
        SharedHttpClient clients = clients(Duration.ofSeconds(30));
        SharedHttpClient.Generation first = clients.current();
        AtomicInteger retired = new AtomicInteger();
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> threads = new CopyOnWriteArrayList<>();
        for (int i = 0; i < 8; i++) {
            threads.add(Thread.ofVirtual().start(() -> {
                try {
                    go.await();
                } catch (InterruptedException e) {
                    return;
                }
                if (clients.retire(first, "test")) {
                    retired.incrementAndGet();
                }
            }));
        }
        go.countDown();
        for (Thread t : threads) {
            t.join();
        }
        assertThat(retired).hasValue(1);
        SharedHttpClient.Generation second = clients.current();
        assertThat(second.number()).isEqualTo(1);
        assertThat(second.client()).isNotSameAs(first.client());
        assertThat(clients.retire(first, "late")).isFalse();
        assertThat(clients.current()).isSameAs(second);

        await().atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> assertThat(
                                made.stream().filter(c -> !c.isTerminated()).toList())
                        .as("every client but the current one is closed")
                        .containsExactly(second.client()));
        clients.close();
        await().atMost(Duration.ofSeconds(10)).until(() -> second.client().isTerminated());
        assertThat(clients.retire(second, "after close")).isFalse();
    }

    @Test
    void aRequestThatPickedTheClientAsItWasRetiredIsRefusedUnsentAndRecognised() throws Exception {
        server.reply("GET", "/version", 200, "{}");
        SharedHttpClient clients = clients(Duration.ofSeconds(30));
        SharedHttpClient.Generation old = clients.current();
        clients.retire(old, "test");
        try {
            old.client().send(get("/version"), HttpResponse.BodyHandlers.discarding());
            throw new AssertionError("a retired client took a request");
        } catch (IOException refused) {
            assertThat(clients.refusedAsRetired(old, refused))
                    .as("refused: " + refused)
                    .isTrue();
            assertThat(clients.refusedAsRetired(clients.current(), refused)).isFalse();
        }
        assertThat(server.requests()).as("never sent").isEmpty();
        assertThat(clients.current()
                        .client()
                        .send(get("/version"), HttpResponse.BodyHandlers.discarding())
                        .statusCode())
                .isEqualTo(200);
        clients.close();
    }

    @Test
    void aRetiredClientWhoseRequestsNeverEndIsShutDownAfterTheGrace() throws Exception {
        server.on("GET", "/hang", (r, ex) -> {
            try {
                release.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            ex.close();
        });
        SharedHttpClient clients = clients(Duration.ofMillis(500));
        SharedHttpClient.Generation old = clients.current();
        CompletableFuture<HttpResponse<Void>> hanging =
                old.client().sendAsync(get("/hang"), HttpResponse.BodyHandlers.discarding());
        await().atMost(Duration.ofSeconds(10)).until(() -> !server.requests().isEmpty());
        long start = System.nanoTime();
        clients.retire(old, "test");
        Thread.sleep(200);
        assertThat(hanging).as("in flight within the grace").isNotDone();
        await().atMost(Duration.ofSeconds(10)).until(() -> old.client().isTerminated());
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(450));
        assertThatThrownBy(() -> hanging.get(5, TimeUnit.SECONDS)).hasCauseInstanceOf(IOException.class);
        clients.close();
    }

    @Test
    void closingEndsTheCurrentClientAndTheRetiredOnesStillDraining() throws Exception {
        server.on("GET", "/hang", (r, ex) -> {
            try {
                release.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            ex.close();
        });
        SharedHttpClient clients = clients(Duration.ofMinutes(5));
        SharedHttpClient.Generation old = clients.current();
        CompletableFuture<HttpResponse<Void>> hanging =
                old.client().sendAsync(get("/hang"), HttpResponse.BodyHandlers.discarding());
        await().atMost(Duration.ofSeconds(10)).until(() -> !server.requests().isEmpty());
        clients.retire(old, "test");
        clients.close();
        await().atMost(Duration.ofSeconds(10)).until(() -> made.stream().allMatch(HttpClient::isTerminated));
        assertThatThrownBy(() -> hanging.get(5, TimeUnit.SECONDS)).hasCauseInstanceOf(IOException.class);
    }
}
