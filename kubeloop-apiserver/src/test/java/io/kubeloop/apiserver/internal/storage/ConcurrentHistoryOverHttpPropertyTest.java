package io.kubeloop.apiserver.internal.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubeloop.api.json.KubeJson;
import io.kubeloop.apiserver.EmbeddedApiServer;
import io.kubeloop.apiserver.ServerInternals;
import io.kubeloop.apiserver.ServerOptions;
import io.kubeloop.apiserver.internal.storage.ConcurrentHistoryPropertyTest.Commit;
import io.kubeloop.apiserver.internal.storage.ConcurrentHistoryPropertyTest.Selection;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import tools.jackson.databind.JsonNode;

/**
 * {@link ConcurrentHistoryPropertyTest} end to end: concurrent writers create, merge-patch and delete ConfigMaps
 * in two namespaces over HTTPS while three HTTP watches (a namespace, a namespace with a label selector, all
 * namespaces with a label selector) run from the revision before the writes. Every acknowledged write has a
 * revision above every write acknowledged before it started, and each watch delivers exactly its selection of
 * the committed history (read from the store), in strictly increasing revision order, up to a final sentinel
 * write that proves nothing is missing or extra.
 */
class ConcurrentHistoryOverHttpPropertyTest {

    private static final AtomicInteger TRY = new AtomicInteger();
    private static final AtomicLong PATCHES = new AtomicLong();
    static EmbeddedApiServer server;
    static HttpClient http;

    @BeforeContainer
    static void start() {
        server = EmbeddedApiServer.start(ServerOptions.defaults());
        http = HttpClient.newBuilder()
                .sslContext(server.clientConfig().sslContext())
                .connectTimeout(Duration.ofSeconds(5))
                .build();
    }

    @AfterContainer
    static void stop() {
        server.close();
    }

    private static HttpResponse<String> send(String method, String path, String contentType, String body) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(server.url() + path))
                .header("Authorization", "Bearer " + server.token())
                .timeout(Duration.ofSeconds(20));
        if (body != null) {
            b.header("Content-Type", contentType);
        }
        try {
            return http.send(
                    b.method(
                                    method,
                                    body == null
                                            ? HttpRequest.BodyPublishers.noBody()
                                            : HttpRequest.BodyPublishers.ofString(body))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (Exception e) {
            throw new IllegalStateException(method + " " + path + ": " + e, e);
        }
    }

    private static Stream<String> watch(String path) {
        try {
            HttpResponse<Stream<String>> r = http.send(
                    HttpRequest.newBuilder(URI.create(server.url() + path))
                            .header("Authorization", "Bearer " + server.token())
                            .build(),
                    HttpResponse.BodyHandlers.ofLines());
            assertThat(r.statusCode()).isEqualTo(200);
            return r.body();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static String configMap(String name, String label) {
        return "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"" + name
                + "\",\"labels\":{\"app\":\"" + label + "\"}}}";
    }

    /** Reads events until the sentinel's ADDED; returns them as "TYPE ns/name@rv". */
    private static List<String> readUntil(Iterator<String> lines, String sentinelKey) {
        List<String> got = new ArrayList<>();
        while (lines.hasNext()) {
            JsonNode e = KubeJson.mapper().readTree(lines.next());
            JsonNode meta = e.path("object").path("metadata");
            String key =
                    meta.path("namespace").asString() + "/" + meta.path("name").asString();
            got.add(e.path("type").asString() + " " + key + "@"
                    + meta.path("resourceVersion").asString());
            if (key.equals(sentinelKey)) {
                return got;
            }
        }
        throw new AssertionError("watch ended before " + sentinelKey + ": " + got);
    }

    @Property(tries = 3)
    void httpWatchesDeliverExactlyTheCommittedHistory(
            @ForAll long seed,
            @ForAll @IntRange(min = 2, max = 3) int writers,
            @ForAll @IntRange(min = 8, max = 20) int opsEach)
            throws Exception {
        int n = TRY.incrementAndGet();
        String a = "h" + n + "a";
        String b = "h" + n + "b";
        for (String ns : List.of(a, b)) {
            assertThat(send(
                                    "POST",
                                    "/api/v1/namespaces",
                                    "application/json",
                                    "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"" + ns
                                            + "\"}}")
                            .statusCode())
                    .isEqualTo(201);
        }
        String storageId = ServerInternals.registry(server)
                .resources()
                .find("", "v1", "configmaps")
                .orElseThrow()
                .storageId();
        long start = ServerInternals.store(server).currentRevision();
        Watcher reference =
                ServerInternals.store(server).watch(new WatchRequest(storageId, null, o -> true, start, false, false));
        String w = "?watch=true&timeoutSeconds=20&resourceVersion=" + start;
        try (Stream<String> inA = watch("/api/v1/namespaces/" + a + "/configmaps" + w);
                Stream<String> inAx = watch("/api/v1/namespaces/" + a + "/configmaps" + w + "&labelSelector=app%3Dx");
                Stream<String> allX = watch("/api/v1/configmaps" + w + "&labelSelector=app%3Dx")) {
            writeAndCheck(
                    seed, writers, opsEach, a, b, start, reference, inA.iterator(), inAx.iterator(), allX.iterator());
        }
    }

    private static void writeAndCheck(
            long seed,
            int writers,
            int opsEach,
            String a,
            String b,
            long start,
            Watcher reference,
            Iterator<String> inA,
            Iterator<String> inAx,
            Iterator<String> allX)
            throws Exception {

        AtomicLong maxAcknowledged = new AtomicLong(start);
        ConcurrentLinkedQueue<String> violations = new ConcurrentLinkedQueue<>();
        List<Future<?>> done = new ArrayList<>();
        try (var pool = Executors.newFixedThreadPool(writers)) {
            for (int t = 0; t < writers; t++) {
                Random r = new Random(seed * 31 + t);
                done.add(pool.submit(() -> {
                    for (int i = 0; i < opsEach; i++) {
                        String ns = r.nextBoolean() ? a : b;
                        String name = "o" + r.nextInt(3);
                        String label = r.nextBoolean() ? "x" : "y";
                        String base = "/api/v1/namespaces/" + ns + "/configmaps";
                        long before = maxAcknowledged.get();
                        HttpResponse<String> resp = switch (r.nextInt(3)) {
                            case 0 -> send("POST", base, "application/json", configMap(name, label));
                            case 1 ->
                                send(
                                        "PATCH",
                                        base + "/" + name,
                                        "application/merge-patch+json",
                                        "{\"metadata\":{\"labels\":{\"app\":\"" + label
                                                + "\"},\"annotations\":{\"n\":\"" + PATCHES.incrementAndGet()
                                                + "\"}}}"); // always a change, so always a commit
                            default -> send("DELETE", base + "/" + name, null, null);
                        };
                        JsonNode body = KubeJson.mapper().readTree(resp.body());
                        if (resp.statusCode() / 100 == 2
                                && body.path("kind").asString().equals("ConfigMap")) {
                            long rv = Long.parseLong(body.path("metadata")
                                    .path("resourceVersion")
                                    .asString());
                            if (rv <= before) {
                                violations.add(ns + "/" + name + "@" + rv + " acknowledged after @" + before);
                            }
                            maxAcknowledged.accumulateAndGet(rv, Math::max);
                        }
                    }
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
        }
        for (String ns : List.of(a, b)) {
            assertThat(send(
                                    "POST",
                                    "/api/v1/namespaces/" + ns + "/configmaps",
                                    "application/json",
                                    configMap("zz-end", "x"))
                            .statusCode())
                    .isEqualTo(201);
        }

        List<Commit> history = new ArrayList<>();
        while (history.isEmpty() || !history.getLast().key().equals(b + "/zz-end")) {
            WatchItem.Event e =
                    (WatchItem.Event) reference.next(Duration.ofSeconds(5)).orElseThrow();
            history.add(new Commit(
                    e.object().resourceVersion(),
                    "configmaps",
                    e.object().key(),
                    e.type() == ChangeType.DELETED
                            ? null
                            : e.object()
                                    .object()
                                    .path("metadata")
                                    .path("labels")
                                    .path("app")
                                    .asString()));
        }
        reference.close();
        assertThat(violations).isEmpty();
        check(inA, a + "/zz-end", history, new Selection("configmaps", a, null), start);
        check(inAx, a + "/zz-end", history, new Selection("configmaps", a, "x"), start);
        check(allX, b + "/zz-end", history, new Selection("configmaps", null, "x"), start);
    }

    private static void check(Iterator<String> lines, String sentinel, List<Commit> history, Selection s, long from) {
        List<String> got = readUntil(lines, sentinel);
        assertThat(got)
                .as("HTTP watch of %s", s)
                .containsExactlyElementsOf(ConcurrentHistoryPropertyTest.expected(history, s, from));
        ConcurrentHistoryPropertyTest.assertStrictlyIncreasing(got);
    }
}
