package io.kubeloop.apiserver.internal.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kubeloop.apiserver.EmbeddedApiServer;
import io.kubeloop.apiserver.ServerOptions;
import io.kubeloop.apiserver.SimulatedCluster;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** Graceful deletion of node-bound Pods, over real HTTPS against an embedded server. */
class PodGracePeriodTest {

    /** The server these tests share: started before the first, closed after the last. */
    @AutoClose
    private static EmbeddedApiServer shared;

    static EmbeddedApiServer server;
    static RawHttp http;

    @BeforeAll
    static void connect() {
        EmbeddedApiServer embedded =
                shared = EmbeddedApiServer.start(ServerOptions.defaults().withCluster(SimulatedCluster.off()));
        server = embedded;
        http = new RawHttp(embedded);
    }

    private static String pod(String ns, String name, String specExtra, String finalizers) {
        HttpResponse<String> r =
                http.post("/api/v1/namespaces/" + ns + "/pods", Workloads.pod(name, null, finalizers, specExtra));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
        return "/api/v1/namespaces/" + ns + "/pods/" + name;
    }

    private static JsonNode delete(String path, String body) {
        HttpResponse<String> r = body == null ? http.delete(path) : http.delete(path, body);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return RawHttp.json(r);
    }

    private static JsonNode get(String path) {
        HttpResponse<String> r = http.get(path);
        assertThat(r.statusCode()).as(path + ": " + r.body()).isEqualTo(200);
        return RawHttp.json(r);
    }

    private static long grace(JsonNode pod) {
        return pod.path("metadata").path("deletionGracePeriodSeconds").asLong(-1);
    }

    private static Instant deletionTimestamp(JsonNode pod) {
        return Instant.parse(pod.path("metadata").path("deletionTimestamp").asString());
    }

    @Test
    void boundPodGetsItsSpecGracePeriodStaysReadableAndWatchersSeeModified() {
        String ns = http.newNamespace("grace");
        String path = pod(ns, "p", "\"nodeName\":\"node-1\",\"terminationGracePeriodSeconds\":45", null);
        String rv = get(path).path("metadata").path("resourceVersion").asString();
        try (RawHttp.Lines w = http.watch("/api/v1/namespaces/" + ns + "/pods?watch=1&resourceVersion=" + rv)) {
            Instant before = Instant.now();
            JsonNode deleted = delete(path, "{\"propagationPolicy\":\"Background\"}");
            assertThat(grace(deleted)).isEqualTo(45);
            assertThat(deletionTimestamp(deleted)).isBetween(before.plusSeconds(44), before.plusSeconds(46));
            JsonNode event = w.next();
            assertThat(event.path("type").asString()).isEqualTo("MODIFIED");
            assertThat(grace(event.path("object"))).isEqualTo(45);
        }
        assertThat(grace(get(path))).isEqualTo(45);
    }

    @Test
    void boundPodWithoutSpecGraceWaitsThirtySeconds() {
        String ns = http.newNamespace("grace");
        String path = pod(ns, "p", "\"nodeName\":\"node-1\"", null);
        assertThat(grace(delete(path, null))).isEqualTo(30);
    }

    @Test
    void laterDeleteWithGraceZeroRemovesTheTerminatingPod() {
        String ns = http.newNamespace("grace");
        String path = pod(ns, "p", "\"nodeName\":\"node-1\"", null);
        delete(path, null);
        delete(path, "{\"gracePeriodSeconds\":0}");
        assertThat(http.get(path).statusCode()).isEqualTo(404);
    }

    @Test
    void graceCanOnlyBeShortenedAndTheTimestampMovesBackByTheDifference() {
        String ns = http.newNamespace("grace");
        String path = pod(ns, "p", "\"nodeName\":\"node-1\"", null);
        JsonNode first = delete(path, "{\"gracePeriodSeconds\":60}");
        JsonNode longer = delete(path, "{\"gracePeriodSeconds\":120}");
        assertThat(grace(longer)).isEqualTo(60);
        assertThat(longer.path("metadata").path("resourceVersion"))
                .isEqualTo(first.path("metadata").path("resourceVersion"));
        JsonNode shorter = delete(path, "{\"gracePeriodSeconds\":20}");
        assertThat(grace(shorter)).isEqualTo(20);
        assertThat(deletionTimestamp(shorter))
                .isEqualTo(deletionTimestamp(first).minusSeconds(40));
        JsonNode again = delete(path, null);
        assertThat(grace(again)).isEqualTo(20);
    }

    @Test
    void unboundPodGoesAtOnce() {
        String ns = http.newNamespace("grace");
        String path = pod(ns, "p", "\"terminationGracePeriodSeconds\":45", null);
        delete(path, null);
        assertThat(http.get(path).statusCode()).isEqualTo(404);
    }

    @Test
    void terminatedPodGoesAtOnce() {
        String ns = http.newNamespace("grace");
        String path = pod(ns, "p", "\"nodeName\":\"node-1\"", null);
        JsonNode cur = get(path);
        ((ObjectNode) cur).putObject("status").put("phase", "Succeeded");
        assertThat(http.put(path + "/status", cur.toString()).statusCode()).isEqualTo(200);
        delete(path, null);
        assertThat(http.get(path).statusCode()).isEqualTo(404);
    }

    @Test
    void theServerFinishesTheDeletionWhenTheGracePeriodIsOver() {
        String ns = http.newNamespace("grace");
        String path = pod(ns, "p", "\"nodeName\":\"node-1\"", null);
        delete(path, "{\"gracePeriodSeconds\":1}");
        assertThat(http.get(path).statusCode()).isEqualTo(200);
        await().atMost(Duration.ofSeconds(5))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> http.get(path).statusCode() == 404);
    }

    @Test
    void podWithAFinalizerOutlivesItsGracePeriodUntilTheFinalizerIsRemoved() {
        String ns = http.newNamespace("grace");
        String path = pod(ns, "p", "\"nodeName\":\"node-1\"", "[\"example.com/hold\"]");
        delete(path, "{\"gracePeriodSeconds\":1}");
        await().atMost(Duration.ofSeconds(5))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> grace(get(path)) == 0);
        assertThat(http.patch(path, "application/merge-patch+json", "{\"metadata\":{\"finalizers\":null}}")
                        .statusCode())
                .isEqualTo(200);
        assertThat(http.get(path).statusCode()).isEqualTo(404);
    }

    @Test
    void removingTheLastFinalizerDuringAPendingGracePeriodDoesNotDeleteYet() {
        String ns = http.newNamespace("grace");
        String path = pod(ns, "p", "\"nodeName\":\"node-1\"", "[\"example.com/hold\"]");
        delete(path, "{\"gracePeriodSeconds\":60}");
        assertThat(http.patch(path, "application/merge-patch+json", "{\"metadata\":{\"finalizers\":null}}")
                        .statusCode())
                .isEqualTo(200);
        assertThat(grace(get(path))).isEqualTo(60);
        delete(path, "{\"gracePeriodSeconds\":0}");
        assertThat(http.get(path).statusCode()).isEqualTo(404);
    }
}
