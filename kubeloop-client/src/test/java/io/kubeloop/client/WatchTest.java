package io.kubeloop.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.GroupVersionResource;
import io.kubeloop.api.ObjectKey;
import io.kubeloop.api.ResourceScope;
import io.kubeloop.api.errors.GoneException;
import io.kubeloop.client.http.TransportException;
import io.kubeloop.client.internal.http.TestApiServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class WatchTest {

    private static final String PODS = "/api/v1/namespaces/default/pods";

    private final TestApiServer server = new TestApiServer();
    private final KubeClient client = KubeClient.create(
            server.config(), ClientOptions.builder().rateLimitingEnabled(false).build());
    private final ResourceClient<DynamicObject> pods =
            client.resource(new GroupVersionResource("", "v1", "pods"), ResourceScope.NAMESPACED, DynamicObject.class);
    private final CountDownLatch release = new CountDownLatch(1);

    @AfterEach
    void stop() {
        release.countDown();
        client.close();
        server.close();
    }

    private static String pod(String name, String rv) {
        return "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"" + name + "\",\"resourceVersion\":\""
                + rv + "\"}}";
    }

    private static String event(String type, String object) {
        return "{\"type\":\"" + type + "\",\"object\":" + object + "}\n";
    }

    /** Streams the events chunk by chunk (flushing each), then optionally blocks until released, then ends. */
    private void stream(List<String> events, boolean holdOpen) {
        server.stream(PODS, events, holdOpen ? release : null);
    }

    @Test
    void decodesEveryEventTypeAndEndsWhenTheServerClosesTheStream() {
        stream(
                List.of(
                        event("ADDED", pod("a", "1")),
                        event("MODIFIED", pod("a", "2")),
                        event("DELETED", pod("a", "3")),
                        event(
                                "BOOKMARK",
                                "{\"kind\":\"Pod\",\"apiVersion\":\"v1\",\"metadata\":{\"resourceVersion\":\"4\","
                                        + "\"annotations\":{\"k8s.io/initial-events-end\":\"true\"}}}")),
                false);
        try (Watch<DynamicObject> watch = pods.watch(ListOptions.builder()
                .resourceVersion("0")
                .allowWatchBookmarks(true)
                .timeout(Duration.ofSeconds(5))
                .build())) {
            assertThat(watch.next().orElseThrow())
                    .isInstanceOfSatisfying(
                            WatchEvent.Added.class,
                            a -> assertThat(((DynamicObject) a.object())
                                            .metadata()
                                            .resourceVersion())
                                    .isEqualTo("1"));
            assertThat(watch.next().orElseThrow()).isInstanceOf(WatchEvent.Modified.class);
            assertThat(watch.next().orElseThrow()).isInstanceOf(WatchEvent.Deleted.class);
            WatchEvent<DynamicObject> bookmark = watch.next().orElseThrow();
            assertThat(bookmark)
                    .isEqualTo(new WatchEvent.Bookmark<>("4", Map.of(WatchEvent.INITIAL_EVENTS_END, "true")));
            assertThat(((WatchEvent.Bookmark<?>) bookmark).isInitialEventsEnd()).isTrue();
            assertThat(watch.next()).isEmpty();
            assertThat(watch.next()).isEmpty();
            assertThat(watch.isClosed()).isTrue();
        }
        assertThat(server.lastRequest().rawQuery())
                .isEqualTo("allowWatchBookmarks=true&resourceVersion=0&timeoutSeconds=5&watch=true");
    }

    @Test
    void eventsArriveWhileTheStreamIsStillOpen() throws Exception {
        stream(List.of(event("ADDED", pod("a", "1"))), true);
        try (Watch<DynamicObject> watch = pods.watch(ListOptions.none())) {
            Optional<WatchEvent<DynamicObject>> first =
                    CompletableFuture.supplyAsync(watch::next).get(5, TimeUnit.SECONDS);
            assertThat(first).get().isInstanceOf(WatchEvent.Added.class);
        }
    }

    @Test
    void errorEventIsReturnedWithItsStatusAndEndsTheStream() {
        stream(List.of(event("ERROR", TestApiServer.status(410, "Expired", "too old resource version: 1 (5)"))), false);
        try (Watch<DynamicObject> watch =
                pods.watch(ListOptions.builder().resourceVersion("1").build())) {
            WatchEvent<DynamicObject> e = watch.next().orElseThrow();
            assertThat(e).isInstanceOfSatisfying(WatchEvent.Error.class, err -> {
                assertThat(err.status().code()).isEqualTo(410);
                assertThat(err.status().reason()).isEqualTo("Expired");
            });
            assertThat(watch.next()).isEmpty();
        }
    }

    @Test
    void errorEventMapsToGoneException() {
        stream(List.of(event("ERROR", TestApiServer.status(410, "Expired", "too old resource version: 1 (5)"))), false);
        try (Watch<DynamicObject> watch = pods.watch(ListOptions.none())) {
            WatchEvent.Error<DynamicObject> e =
                    (WatchEvent.Error<DynamicObject>) watch.next().orElseThrow();
            assertThat(e.exception())
                    .isInstanceOfSatisfying(
                            GoneException.class, g -> assertThat(g.isExpired()).isTrue());
        }
    }

    @Test
    void plainHttp410OnTheWatchRequestIsThrownByWatch() {
        server.reply("GET", PODS, 410, TestApiServer.status(410, "Expired", "too old"));
        assertThatThrownBy(() -> pods.watch(ListOptions.none())).isInstanceOf(GoneException.class);
    }

    @Test
    void closeFromAnotherThreadUnblocksABlockedNext() throws Exception {
        stream(List.of(), true);
        Watch<DynamicObject> watch = pods.watch(ListOptions.none());
        CompletableFuture<Optional<WatchEvent<DynamicObject>>> reader = CompletableFuture.supplyAsync(watch::next);
        Thread.sleep(200); // let the reader block in read(); nothing else signals that it is blocked
        assertThat(reader).isNotDone();
        watch.close();
        assertThat(reader.get(2, TimeUnit.SECONDS)).isEmpty();
        assertThat(watch.isClosed()).isTrue();
    }

    @Test
    void objectBeforeTypeIsDecodedToo() {
        stream(List.of("{\"object\":" + pod("a", "9") + ",\"type\":\"MODIFIED\"}"), false);
        try (Watch<DynamicObject> watch = pods.watch(ListOptions.none())) {
            assertThat(watch.next().orElseThrow()).isInstanceOf(WatchEvent.Modified.class);
        }
    }

    @Test
    void typedWatchesDecodeIntoRecordsAndStreamAllEvents() {
        stream(List.of(event("ADDED", pod("a", "1")), event("ADDED", pod("b", "2"))), false);
        var typed = client.resource(
                new GroupVersionResource("", "v1", "pods"),
                ResourceScope.NAMESPACED,
                ResourceClientTest.ConfigMap.class);
        try (Watch<ResourceClientTest.ConfigMap> watch = typed.watch(ListOptions.none())) {
            assertThat(watch.stream()
                            .map(e -> ((WatchEvent.Added<ResourceClientTest.ConfigMap>) e)
                                    .object()
                                    .metadata()
                                    .name()))
                    .containsExactly("a", "b");
        }
    }

    @Test
    void garbageInTheStreamIsReportedAsMalformed() {
        stream(List.of("[1,2]"), false);
        try (Watch<DynamicObject> watch = pods.watch(ListOptions.none())) {
            assertThatThrownBy(watch::next)
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("malformed watch stream from " + server.uri() + PODS);
        }
    }

    @Test
    void dynamicObjectsKeepTheExactBytesOfEachEventEvenWhenEventsArriveSplitAcrossReads() {
        String tricky = "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"a\",\"namespace\":\"ns\","
                + "\"resourceVersion\":\"5\",\"uid\":\"u\",\"annotations\":{\"q\":\"}{\\\"\\\\\",\"u\":\"\\u00e9é😀\"}},"
                + "\"spec\":{\"n\":1.50,\"list\":[{\"x\":[]},{}]}}";
        char[] filler = new char[3 * 1024 * 1024];
        Arrays.fill(filler, 'z');
        String big =
                "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"big\",\"resourceVersion\":\"6\"},"
                        + "\"data\":{\"f\":\"" + new String(filler) + "\"}}";
        String all = event("ADDED", tricky) + event("MODIFIED", big) + event("DELETED", tricky);
        List<String> pieces = new ArrayList<>();
        for (int i = 0; i < all.length(); i += Math.min(7 + i % 13, 1 << 20)) {
            pieces.add(all.substring(i, Math.min(all.length(), i + Math.min(7 + i % 13, 1 << 20))));
        }
        stream(pieces, false);
        try (Watch<DynamicObject> watch = pods.watch(ListOptions.none())) {
            List<DynamicObject> objects = watch.stream()
                    .map(e -> switch (e) {
                        case WatchEvent.Added<DynamicObject> a -> a.object();
                        case WatchEvent.Modified<DynamicObject> m -> m.object();
                        case WatchEvent.Deleted<DynamicObject> d -> d.object();
                        case WatchEvent.Bookmark<DynamicObject> b -> throw new AssertionError(b);
                        case WatchEvent.Error<DynamicObject> err -> throw new AssertionError(err);
                    })
                    .toList();

            assertThat(objects).extracting(DynamicObject::toJson).containsExactly(tricky, big, tricky);
            assertThat(objects).allMatch(DynamicObject::isCompact);
            assertThat(objects.get(0).key()).isEqualTo(ObjectKey.of("ns", "a"));
            assertThat(objects.get(0).metadata().annotations())
                    .containsEntry("q", "}{\"\\")
                    .containsEntry("u", "éé😀");
            assertThat(objects.get(0)).isEqualTo(DynamicObject.parse(tricky));
        }
    }

    @Test
    void errorAfterObjectsIsReturnedAsAStatusAndBookmarksCarryTheirAnnotations() {
        stream(
                List.of(event("ADDED", pod("a", "1"))
                        + event("BOOKMARK", "{\"kind\":\"Pod\",\"metadata\":{\"resourceVersion\":\"9\"}}")
                        + event("ERROR", TestApiServer.status(500, "InternalError", "boom"))),
                false);
        try (Watch<DynamicObject> watch = pods.watch(ListOptions.none())) {
            assertThat(watch.next().orElseThrow()).isInstanceOf(WatchEvent.Added.class);
            assertThat(watch.next().orElseThrow()).isEqualTo(new WatchEvent.Bookmark<>("9", Map.of()));
            assertThat(watch.next().orElseThrow())
                    .isInstanceOfSatisfying(
                            WatchEvent.Error.class,
                            err -> assertThat(err.status().code()).isEqualTo(500));
            assertThat(watch.next()).isEmpty();
        }
    }

    // client-go: io.ErrUnexpectedEOF ends the watch as a broken stream (the reflector re-watches), not as bad data
    @Test
    void aStreamEndingInsideAnEventIsABrokenStreamNotMalformedData() {
        stream(List.of(event("ADDED", pod("a", "1")), "{\"type\":\"ADDED\",\"object\":{\"metadata\""), false);
        try (Watch<DynamicObject> watch = pods.watch(ListOptions.none())) {
            assertThat(watch.next()).isPresent();
            assertThatThrownBy(watch::next)
                    .isInstanceOf(TransportException.class)
                    .hasMessageContaining("broke: the watch body ended inside an event");
        }
    }

    @Test
    void garbageBeforeTheStreamEndsInsideAnEventIsStillMalformed() {
        stream(List.of(event("ADDED", pod("a", "1")), "{\"type\":\"ADDED\",\"object\":{\"metadata\":]"), false);
        try (Watch<DynamicObject> watch = pods.watch(ListOptions.none())) {
            assertThat(watch.next()).isPresent();
            assertThatThrownBy(watch::next)
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("malformed watch stream");
        }
    }
}
