package io.kubeloop.apiserver.internal.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kubeloop.apiserver.EmbeddedApiServer;
import io.kubeloop.apiserver.ServerInternals;
import io.kubeloop.apiserver.ServerOptions;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.net.http.WebSocket.Listener;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** kube-apiserver's REST behaviour, one test per rule — routing, discovery, reads, writes, lists, watches and their errors — over real HTTPS. */
class ConformanceTest {

    private static final String AGG = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,"
            + "application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json";
    private static final String TABLE = "application/json;as=Table;v=v1;g=meta.k8s.io,application/json";

    static EmbeddedApiServer server;
    static RawHttp http;

    @BeforeAll
    static void start() {
        server = EmbeddedApiServer.start(ServerOptions.defaults().withBookmarkInterval(Duration.ofMillis(200)));
        http = new RawHttp(server);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static String cm(String name, String labels) {
        return "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"" + name + "\""
                + (labels == null ? "" : ",\"labels\":" + labels) + "},\"data\":{\"k\":\"v\"}}";
    }

    private static JsonNode create(String ns, String name, String labels) {
        HttpResponse<String> r = http.post("/api/v1/namespaces/" + ns + "/configmaps", cm(name, labels));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
        return RawHttp.json(r);
    }

    private static String rv(JsonNode o) {
        return o.path("metadata").path("resourceVersion").asString();
    }

    @Test
    void apiIsApiVersionsWithV1() {
        JsonNode n = RawHttp.json(http.get("/api"));
        assertThat(n.path("kind").asString()).isEqualTo("APIVersions");
        assertThat(n.path("versions").get(0).asString()).isEqualTo("v1");
    }

    @Test
    void apisIsGroupListWithPreferredFirstVersion() {
        JsonNode n = RawHttp.json(http.get("/apis"));
        assertThat(n.path("kind").asString()).isEqualTo("APIGroupList");
        for (JsonNode g : n.path("groups")) {
            assertThat(g.path("preferredVersion").path("version"))
                    .isEqualTo(g.path("versions").get(0).path("version"));
        }
        assertThat(n.path("groups").findValuesAsString("name")).contains("apps", "batch", "coordination.k8s.io");
    }

    @Test
    void aggregatedAcceptGetsAggregatedContentType() {
        HttpResponse<String> r = http.get("/apis", AGG);
        assertThat(r.headers().firstValue("Content-Type").orElseThrow())
                .contains("g=apidiscovery.k8s.io")
                .contains("v=v2")
                .contains("as=APIGroupDiscoveryList");
        assertThat(RawHttp.json(r).path("kind").asString()).isEqualTo("APIGroupDiscoveryList");
    }

    @Test
    void aggregatedApiHasOneUnnamedV1ItemCurrent() {
        JsonNode n = RawHttp.json(http.get("/api", AGG));
        assertThat(n.path("items")).hasSize(1);
        JsonNode item = n.path("items").get(0);
        assertThat(item.path("metadata").path("name").asString("")).isEmpty();
        assertThat(item.path("versions").get(0).path("version").asString()).isEqualTo("v1");
        assertThat(item.path("versions").get(0).path("freshness").asString()).isEqualTo("Current");
    }

    @Test
    void everyAggregatedResourceHasKindScopeSingularVerbs() {
        for (String p : List.of("/api", "/apis")) {
            for (JsonNode item : RawHttp.json(http.get(p, AGG)).path("items")) {
                for (JsonNode v : item.path("versions")) {
                    for (JsonNode r : v.path("resources")) {
                        assertThat(r.has("responseKind")
                                        && r.has("scope")
                                        && r.has("singularResource")
                                        && r.has("verbs"))
                                .as(r.toString())
                                .isTrue();
                    }
                }
            }
        }
    }

    @Test
    void matchingIfNoneMatchIs304() {
        HttpResponse<String> r = http.get("/apis", AGG);
        String etag = r.headers().firstValue("ETag").orElseThrow();
        HttpResponse<String> again = http.send(http.req("/apis")
                .header("Accept", AGG)
                .header("If-None-Match", etag)
                .build());
        assertThat(again.statusCode()).isEqualTo(304);
    }

    @Test
    void tableHasKindAndCellsPerColumn() {
        String ns = http.newNamespace("t");
        create(ns, "a", null);
        JsonNode t = RawHttp.json(http.get("/api/v1/namespaces/" + ns + "/configmaps", TABLE));
        assertThat(t.path("kind").asString()).isEqualTo("Table");
        assertThat(t.path("apiVersion").asString()).isEqualTo("meta.k8s.io/v1");
        assertThat(t.path("rows").get(0).path("cells").size())
                .isEqualTo(t.path("columnDefinitions").size());
    }

    @Test
    void tableRowsArePartialObjectMetadataAndNoneOmitsThem() {
        String ns = http.newNamespace("t");
        create(ns, "a", null);
        JsonNode t = RawHttp.json(http.get("/api/v1/namespaces/" + ns + "/configmaps", TABLE));
        assertThat(t.path("rows").get(0).path("object").path("kind").asString()).isEqualTo("PartialObjectMetadata");
        JsonNode none = RawHttp.json(http.get("/api/v1/namespaces/" + ns + "/configmaps?includeObject=None", TABLE));
        assertThat(none.path("rows").get(0).has("object")).isFalse();
    }

    @Test
    void listIsKindListWithResourceVersionEvenWhenEmpty() {
        String ns = http.newNamespace("t");
        JsonNode l = RawHttp.json(http.get("/api/v1/namespaces/" + ns + "/configmaps"));
        assertThat(l.path("kind").asString()).isEqualTo("ConfigMapList");
        assertThat(l.path("metadata").path("resourceVersion").asString("")).isNotEmpty();
        assertThat(l.path("items")).isEmpty();
    }

    @Test
    void limitTwoOverFiveWalksAllAtOneResourceVersion() {
        String ns = http.newNamespace("t");
        for (int i = 0; i < 5; i++) {
            create(ns, "c" + i, null);
        }
        List<String> names = new ArrayList<>();
        JsonNode page = RawHttp.json(http.get("/api/v1/namespaces/" + ns + "/configmaps?limit=2"));
        String listRv = page.path("metadata").path("resourceVersion").asString();
        assertThat(page.path("items")).hasSize(2);
        while (true) {
            page.path("items")
                    .forEach(i -> names.add(i.path("metadata").path("name").asString()));
            assertThat(page.path("metadata").path("resourceVersion").asString()).isEqualTo(listRv);
            String cont = page.path("metadata").path("continue").asString("");
            if (cont.isEmpty()) {
                break;
            }
            create(ns, "late" + names.size(), null);
            page = RawHttp.json(http.get("/api/v1/namespaces/" + ns + "/configmaps?limit=2&continue=" + cont));
        }
        assertThat(names).containsExactly("c0", "c1", "c2", "c3", "c4");
    }

    @Test
    void corruptContinueIs400AndExpiredIs410() {
        String ns = http.newNamespace("t");
        for (int i = 0; i < 3; i++) {
            create(ns, "c" + i, null);
        }
        assertThat(http.get("/api/v1/namespaces/" + ns + "/configmaps?limit=1&continue=garbage")
                        .statusCode())
                .isEqualTo(400);
        String cont = RawHttp.json(http.get("/api/v1/namespaces/" + ns + "/configmaps?limit=1"))
                .path("metadata")
                .path("continue")
                .asString();
        create(ns, "after", null);
        ServerInternals.store(server).compact();
        HttpResponse<String> r = http.get("/api/v1/namespaces/" + ns + "/configmaps?limit=1&continue=" + cont);
        assertThat(r.statusCode()).isEqualTo(410);
        assertThat(RawHttp.json(r).path("reason").asString()).isEqualTo("Expired");
    }

    @Test
    void matchWithoutRvAndExactZeroAre422() {
        assertThat(http.get("/api/v1/configmaps?resourceVersionMatch=NotOlderThan")
                        .statusCode())
                .isEqualTo(422);
        assertThat(http.get("/api/v1/configmaps?resourceVersionMatch=Exact&resourceVersion=0")
                        .statusCode())
                .isEqualTo(422);
    }

    @Test
    void futureRvNotOlderThanIs504WithRetryAfter() {
        long future = ServerInternals.store(server).currentRevision() + 1000;
        HttpResponse<String> r =
                http.get("/api/v1/configmaps?resourceVersionMatch=NotOlderThan&resourceVersion=" + future);
        assertThat(r.statusCode()).isEqualTo(504);
        assertThat(r.headers().firstValue("Retry-After")).contains("1");
        assertThat(r.body()).contains("ResourceVersionTooLarge");
    }

    @Test
    void setBasedAndNotEqualSelectorsAreCorrect() {
        String ns = http.newNamespace("t");
        create(ns, "x", "{\"a\":\"x\"}");
        create(ns, "y", "{\"a\":\"y\",\"b\":\"1\"}");
        create(ns, "z", "{\"a\":\"z\"}");
        create(ns, "none", null);
        assertThat(names(ns, "a+in+(x,y),!b")).containsExactly("x");
        assertThat(names(ns, "a+notin+(x)")).containsExactly("none", "y", "z");
        assertThat(names(ns, "a!=x")).containsExactly("none", "y", "z");
    }

    private static List<String> names(String ns, String selector) {
        List<String> out = new ArrayList<>();
        RawHttp.json(http.get("/api/v1/namespaces/" + ns + "/configmaps?labelSelector=" + selector))
                .path("items")
                .forEach(i -> out.add(i.path("metadata").path("name").asString()));
        return out;
    }

    @Test
    void badLabelSelectorAndUnsupportedFieldAre400() {
        assertThat(http.get("/api/v1/configmaps?labelSelector=a+in+(").statusCode())
                .isEqualTo(400);
        HttpResponse<String> r = http.get("/api/v1/configmaps?fieldSelector=spec.foo=x");
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(r.body()).contains("field label not supported: spec.foo");
    }

    @Test
    void to22WatchIsChunkedLinesWithIncreasingRvsAndNoSyntheticAdds() {
        String ns = http.newNamespace("t");
        create(ns, "pre", null);
        String listRv = RawHttp.json(http.get("/api/v1/namespaces/" + ns + "/configmaps"))
                .path("metadata")
                .path("resourceVersion")
                .asString();
        try (RawHttp.Lines w =
                http.watch("/api/v1/namespaces/" + ns + "/configmaps?watch=true&resourceVersion=" + listRv)) {
            assertThat(w.response.statusCode()).isEqualTo(200);
            assertThat(w.response.headers().firstValue("Content-Type").orElseThrow())
                    .startsWith("application/json");
            JsonNode a = create(ns, "a", null);
            JsonNode added = w.next();
            assertThat(added.path("type").asString()).isEqualTo("ADDED");
            assertThat(added.path("object").path("metadata").path("name").asString())
                    .isEqualTo("a");
            HttpResponse<String> upd = http.put(
                    "/api/v1/namespaces/" + ns + "/configmaps/a",
                    cm("a", "{\"x\":\"y\"}")
                            .replace("\"name\":\"a\"", "\"name\":\"a\",\"resourceVersion\":\"" + rv(a) + "\""));
            assertThat(upd.statusCode()).as(upd.body()).isEqualTo(200);
            JsonNode mod = w.next();
            assertThat(mod.path("type").asString()).isEqualTo("MODIFIED");
            assertThat(http.delete("/api/v1/namespaces/" + ns + "/configmaps/a").statusCode())
                    .isEqualTo(200);
            JsonNode del = w.next();
            assertThat(del.path("type").asString()).isEqualTo("DELETED");
            long r1 = Long.parseLong(rv(added.path("object")));
            long r2 = Long.parseLong(rv(mod.path("object")));
            long r3 = Long.parseLong(rv(del.path("object")));
            assertThat(r1).isLessThan(r2);
            assertThat(r2).isLessThan(r3);
            assertThat(del.path("object")
                            .path("metadata")
                            .path("labels")
                            .path("x")
                            .asString())
                    .isEqualTo("y");
        }
    }

    @Test
    void watchWithRvZeroStartsWithAddedPerObject() {
        String ns = http.newNamespace("t");
        create(ns, "a", null);
        create(ns, "b", null);
        try (RawHttp.Lines w = http.watch("/api/v1/namespaces/" + ns + "/configmaps?watch=1&resourceVersion=0")) {
            assertThat(w.next().path("type").asString()).isEqualTo("ADDED");
            assertThat(w.next().path("object").path("metadata").path("name").asString())
                    .isEqualTo("b");
        }
    }

    @Test
    void leavingAndEnteringSelectorAreDeletedAndAdded() {
        String ns = http.newNamespace("t");
        JsonNode a = create(ns, "a", "{\"app\":\"x\"}");
        try (RawHttp.Lines w = http.watch(
                "/api/v1/namespaces/" + ns + "/configmaps?watch=1&labelSelector=app%3Dx&resourceVersion=" + rv(a))) {
            http.patch(
                    "/api/v1/namespaces/" + ns + "/configmaps/a",
                    "application/merge-patch+json",
                    "{\"metadata\":{\"labels\":{\"app\":\"y\"}}}");
            assertThat(w.next().path("type").asString()).isEqualTo("DELETED");
            http.patch(
                    "/api/v1/namespaces/" + ns + "/configmaps/a",
                    "application/merge-patch+json",
                    "{\"metadata\":{\"labels\":{\"app\":\"x\"}}}");
            assertThat(w.next().path("type").asString()).isEqualTo("ADDED");
        }
    }

    @Test
    void preHistoryRvGivesErrorExpiredAndEnds() {
        String ns = http.newNamespace("t");
        JsonNode a = create(ns, "a", null);
        create(ns, "b", null);
        ServerInternals.store(server).compact();
        try (RawHttp.Lines w = http.watch(
                "/api/v1/namespaces/" + ns + "/configmaps?watch=1&resourceVersion=" + (Long.parseLong(rv(a)) - 1))) {
            assertThat(w.response.statusCode()).isEqualTo(200);
            JsonNode e = w.next();
            assertThat(e.path("type").asString()).isEqualTo("ERROR");
            assertThat(e.path("object").path("code").asInt()).isEqualTo(410);
            assertThat(e.path("object").path("reason").asString()).isEqualTo("Expired");
            assertThat(w.next()).isNull();
        }
    }

    @Test
    void bookmarksOnlyWhenAllowedAndCarryOnlyRv() {
        String ns = http.newNamespace("t");
        JsonNode a = create(ns, "a", null);
        try (RawHttp.Lines w = http.watch("/api/v1/namespaces/" + ns + "/configmaps?watch=1&allowWatchBookmarks=true"
                + "&resourceVersion=" + rv(a) + "&timeoutSeconds=2")) {
            JsonNode b = w.next();
            assertThat(b.path("type").asString()).isEqualTo("BOOKMARK");
            assertThat(b.path("object").path("kind").asString()).isEqualTo("ConfigMap");
            assertThat(b.path("object").path("metadata").path("resourceVersion").asString(""))
                    .isNotEmpty();
            assertThat(b.path("object").has("data")).isFalse();
        }
        try (RawHttp.Lines w = http.watch(
                "/api/v1/namespaces/" + ns + "/configmaps?watch=1&resourceVersion=" + rv(a) + "&timeoutSeconds=1")) {
            assertThat(w.next()).isNull();
        }
    }

    @Test
    void timeoutSecondsEndsCleanlyWithoutError() {
        long start = System.nanoTime();
        try (RawHttp.Lines w = http.watch("/api/v1/namespaces/default/configmaps?watch=1&resourceVersion="
                + ServerInternals.store(server).currentRevision() + "&timeoutSeconds=1")) {
            assertThat(w.next()).isNull();
        }
        assertThat(Duration.ofNanos(System.nanoTime() - start))
                .as("ended by its 1 s timeout, not by the server's minimum of 30 min")
                .isBetween(Duration.ofMillis(900), Duration.ofSeconds(60));
    }

    @Test
    void watchListSendsAddedThenInitialEventsEndBookmark() {
        String ns = http.newNamespace("t");
        create(ns, "a", null);
        create(ns, "b", null);
        try (RawHttp.Lines w = http.watch("/api/v1/namespaces/" + ns + "/configmaps?watch=1&sendInitialEvents=true"
                + "&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true")) {
            assertThat(w.next().path("type").asString()).isEqualTo("ADDED");
            assertThat(w.next().path("type").asString()).isEqualTo("ADDED");
            JsonNode end = w.next();
            assertThat(end.path("type").asString()).isEqualTo("BOOKMARK");
            assertThat(end.path("object")
                            .path("metadata")
                            .path("annotations")
                            .path("k8s.io/initial-events-end")
                            .asString())
                    .isEqualTo("true");
        }
    }

    @Test
    void sendInitialEventsWithoutNotOlderThanIs422() {
        assertThat(http.get("/api/v1/configmaps?watch=1&sendInitialEvents=true").statusCode())
                .isEqualTo(422);
    }

    @Test
    void createIs201WithUidTimestampRvAndManagedFields() {
        String ns = http.newNamespace("t");
        JsonNode o = create(ns, "a", null);
        JsonNode m = o.path("metadata");
        assertThat(m.path("uid").asString("")).isNotEmpty();
        assertThat(m.path("creationTimestamp").asString()).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ");
        assertThat(m.path("resourceVersion").asString("")).isNotEmpty();
        assertThat(m.has("generation")).isFalse();
        assertThat(m.path("managedFields").get(0).path("operation").asString()).isEqualTo("Update");
        JsonNode d = RawHttp.json(http.post(
                "/apis/apps/v1/namespaces/" + ns + "/deployments",
                "{\"metadata\":{\"name\":\"d\"},\"spec\":{\"replicas\":1,\"selector\":{\"matchLabels\":{\"app\":\"d\"}},"
                        + "\"template\":{\"metadata\":{\"labels\":{\"app\":\"d\"}},\"spec\":{\"containers\":[{\"name\":\"c\","
                        + "\"image\":\"nginx\"}]}}}}"));
        assertThat(d.path("metadata").path("generation").asInt()).isEqualTo(1);
    }

    @Test
    void duplicatePostIs409AlreadyExistsWithPluralKind() {
        String ns = http.newNamespace("t");
        create(ns, "a", null);
        HttpResponse<String> r = http.post("/api/v1/namespaces/" + ns + "/configmaps", cm("a", null));
        assertThat(r.statusCode()).isEqualTo(409);
        JsonNode s = RawHttp.json(r);
        assertThat(s.path("reason").asString()).isEqualTo("AlreadyExists");
        assertThat(s.path("details").path("kind").asString()).isEqualTo("configmaps");
        assertThat(s.path("details").path("name").asString()).isEqualTo("a");
    }

    @Test
    void generateNameAppendsFiveChars() {
        String ns = http.newNamespace("t");
        JsonNode o = RawHttp.json(
                http.post("/api/v1/namespaces/" + ns + "/configmaps", "{\"metadata\":{\"generateName\":\"web-\"}}"));
        assertThat(o.path("metadata").path("name").asString()).matches("web-[bcdfghjklmnpqrstvwxz2456789]{5}");
    }

    @Test
    void postIntoMissingNamespaceIs404() {
        HttpResponse<String> r = http.post("/api/v1/namespaces/nope/configmaps", cm("a", null));
        assertThat(r.statusCode()).isEqualTo(404);
        assertThat(RawHttp.json(r).path("message").asString()).isEqualTo("namespaces \"nope\" not found");
    }

    @Test
    void badNameIs422OnMetadataName() {
        HttpResponse<String> r = http.post("/api/v1/namespaces/default/configmaps", cm("Bad_Name", null));
        assertThat(r.statusCode()).isEqualTo(422);
        assertThat(RawHttp.json(r)
                        .path("details")
                        .path("causes")
                        .get(0)
                        .path("field")
                        .asString())
                .isEqualTo("metadata.name");
    }

    @Test
    void bodyNamespaceDifferentFromUrlIs400() {
        HttpResponse<String> r = http.post(
                "/api/v1/namespaces/default/configmaps", "{\"metadata\":{\"name\":\"a\",\"namespace\":\"other\"}}");
        assertThat(r.statusCode()).isEqualTo(400);
    }

    @Test
    void stalePutIs409AndChangesNothing() {
        String ns = http.newNamespace("t");
        JsonNode a = create(ns, "a", null);
        http.patch(
                "/api/v1/namespaces/" + ns + "/configmaps/a",
                "application/merge-patch+json",
                "{\"data\":{\"k\":\"2\"}}");
        long before = ServerInternals.store(server).currentRevision();
        HttpResponse<String> r = http.put(
                "/api/v1/namespaces/" + ns + "/configmaps/a",
                cm("a", null).replace("\"name\":\"a\"", "\"name\":\"a\",\"resourceVersion\":\"" + rv(a) + "\""));
        assertThat(r.statusCode()).isEqualTo(409);
        assertThat(RawHttp.json(r).path("message").asString()).contains("the object has been modified");
        assertThat(ServerInternals.store(server).currentRevision()).isEqualTo(before);
    }

    @Test
    void putWithoutRvIsFineForConfigMaps() {
        String ns = http.newNamespace("t");
        create(ns, "a", null);
        assertThat(http.put("/api/v1/namespaces/" + ns + "/configmaps/a", cm("a", "{\"z\":\"1\"}"))
                        .statusCode())
                .isEqualTo(200);
    }

    @Test
    void identicalPutKeepsRv() {
        String ns = http.newNamespace("t");
        JsonNode a = create(ns, "a", null);
        JsonNode again = RawHttp.json(http.put("/api/v1/namespaces/" + ns + "/configmaps/a", cm("a", null)));
        assertThat(rv(again)).isEqualTo(rv(a));
    }

    @Test
    void mergePatchNullDeletesKey() {
        String ns = http.newNamespace("t");
        create(ns, "a", "{\"x\":\"1\",\"y\":\"2\"}");
        JsonNode p = RawHttp.json(http.patch(
                "/api/v1/namespaces/" + ns + "/configmaps/a",
                "application/merge-patch+json",
                "{\"metadata\":{\"labels\":{\"x\":null}}}"));
        assertThat(p.path("metadata").path("labels").has("x")).isFalse();
        assertThat(p.path("metadata").path("labels").path("y").asString()).isEqualTo("2");
    }

    @Test
    void jsonPatchFailingTestIs422AndMalformedIs400() {
        String ns = http.newNamespace("t");
        create(ns, "a", null);
        assertThat(http.patch(
                                "/api/v1/namespaces/" + ns + "/configmaps/a",
                                "application/json-patch+json",
                                "[{\"op\":\"test\",\"path\":\"/data/k\",\"value\":\"nope\"}]")
                        .statusCode())
                .isEqualTo(422);
        assertThat(http.patch("/api/v1/namespaces/" + ns + "/configmaps/a", "application/json-patch+json", "[{")
                        .statusCode())
                .isEqualTo(400);
    }

    @Test
    void unknownPatchTypeIs415() {
        assertThat(http.patch("/api/v1/namespaces/default/configmaps/x", "text/plain", "x")
                        .statusCode())
                .isEqualTo(415);
    }

    @Test
    void applyWithoutFieldManagerIs422() {
        assertThat(http.patch("/api/v1/namespaces/default/configmaps/x", "application/apply-patch+yaml", "{}")
                        .statusCode())
                .isEqualTo(422);
    }

    @Test
    void dryRunCreateIs201ButNotStoredAndBadDryRunIs422() {
        String ns = http.newNamespace("t");
        long before = ServerInternals.store(server).currentRevision();
        HttpResponse<String> r = http.post("/api/v1/namespaces/" + ns + "/configmaps?dryRun=All", cm("a", null));
        assertThat(r.statusCode()).isEqualTo(201);
        assertThat(RawHttp.json(r).path("metadata").path("uid").asString("")).isNotEmpty();
        assertThat(http.get("/api/v1/namespaces/" + ns + "/configmaps/a").statusCode())
                .isEqualTo(404);
        assertThat(ServerInternals.store(server).currentRevision()).isEqualTo(before);
        assertThat(http.post("/api/v1/namespaces/" + ns + "/configmaps?dryRun=x", cm("a", null))
                        .statusCode())
                .isEqualTo(422);
    }

    @Test
    void deleteWithoutFinalizersIs200ThenGone() {
        String ns = http.newNamespace("t");
        create(ns, "a", null);
        HttpResponse<String> r = http.delete("/api/v1/namespaces/" + ns + "/configmaps/a");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(RawHttp.json(r).path("status").asString()).isEqualTo("Success");
        assertThat(RawHttp.json(r).path("details").path("kind").asString()).isEqualTo("configmaps");
        assertThat(http.get("/api/v1/namespaces/" + ns + "/configmaps/a").statusCode())
                .isEqualTo(404);
    }

    @Test
    void and50FinalizersDelayDeletionUntilRemovedAndNoNewOnes() {
        String ns = http.newNamespace("t");
        http.post(
                "/api/v1/namespaces/" + ns + "/configmaps",
                "{\"metadata\":{\"name\":\"f\",\"finalizers\":[\"example.com/x\"]}}");
        JsonNode d = RawHttp.json(http.delete("/api/v1/namespaces/" + ns + "/configmaps/f"));
        assertThat(d.path("metadata").path("deletionTimestamp").asString("")).isNotEmpty();
        assertThat(d.path("metadata").path("deletionGracePeriodSeconds").asInt())
                .isZero();
        assertThat(http.get("/api/v1/namespaces/" + ns + "/configmaps/f").statusCode())
                .isEqualTo(200);
        assertThat(http.patch(
                                "/api/v1/namespaces/" + ns + "/configmaps/f",
                                "application/merge-patch+json",
                                "{\"metadata\":{\"finalizers\":[\"example.com/x\",\"new\"]}}")
                        .statusCode())
                .isEqualTo(422);
        assertThat(http.patch(
                                "/api/v1/namespaces/" + ns + "/configmaps/f",
                                "application/merge-patch+json",
                                "{\"metadata\":{\"finalizers\":null}}")
                        .statusCode())
                .isEqualTo(200);
        assertThat(http.get("/api/v1/namespaces/" + ns + "/configmaps/f").statusCode())
                .isEqualTo(404);
    }

    @Test
    void wrongPreconditionUidIs409() {
        String ns = http.newNamespace("t");
        create(ns, "a", null);
        assertThat(http.delete("/api/v1/namespaces/" + ns + "/configmaps/a", "{\"preconditions\":{\"uid\":\"wrong\"}}")
                        .statusCode())
                .isEqualTo(409);
    }

    @Test
    void errorsAreStatusWithEmptyMetadataFailureAndCode() {
        HttpResponse<String> r = http.get("/api/v1/namespaces/default/configmaps/missing");
        JsonNode s = RawHttp.json(r);
        assertThat(s.path("kind").asString()).isEqualTo("Status");
        assertThat(s.path("metadata").isObject()).isTrue();
        assertThat(s.path("status").asString()).isEqualTo("Failure");
        assertThat(s.path("code").asInt()).isEqualTo(r.statusCode()).isEqualTo(404);
        assertThat(s.path("message").asString()).isEqualTo("configmaps \"missing\" not found");
    }

    @Test
    void badTokenIs401() {
        HttpResponse<String> r = http.send(http.req("/api/v1/namespaces")
                .setHeader("Authorization", "Bearer wrong")
                .build());
        assertThat(r.statusCode()).isEqualTo(401);
        assertThat(RawHttp.json(r).path("reason").asString()).isEqualTo("Unauthorized");
    }

    @Test
    void namespaceDeleteTerminatesBlocksCreatesThenGoes() {
        String ns = http.newNamespace("t");
        http.post(
                "/api/v1/namespaces/" + ns + "/configmaps", "{\"metadata\":{\"name\":\"f\",\"finalizers\":[\"x/y\"]}}");
        JsonNode d = RawHttp.json(http.delete("/api/v1/namespaces/" + ns));
        assertThat(d.path("status").path("phase").asString()).isEqualTo("Terminating");
        HttpResponse<String> blocked = http.post("/api/v1/namespaces/" + ns + "/configmaps", cm("new", null));
        assertThat(blocked.statusCode()).isEqualTo(403);
        assertThat(blocked.body()).contains("NamespaceTerminating");
        http.patch(
                "/api/v1/namespaces/" + ns + "/configmaps/f",
                "application/merge-patch+json",
                "{\"metadata\":{\"finalizers\":null}}");
        await().atMost(Duration.ofSeconds(5))
                .until(() -> http.get("/api/v1/namespaces/" + ns).statusCode() == 404);
    }

    @Test
    void unknownPathIsPlainText404AndHealthIsAnonymous() {
        HttpResponse<String> r = http.get("/api/v1/foos");
        assertThat(r.statusCode()).isEqualTo(404);
        assertThat(r.headers().firstValue("Content-Type").orElseThrow()).startsWith("text/plain");
        HttpResponse<String> h = http.send(
                HttpRequest.newBuilder(URI.create(server.url() + "/readyz")).build());
        assertThat(h.statusCode()).isEqualTo(200);
        assertThat(h.body()).isEqualTo("ok");
    }

    @Test
    void malformedJsonIs400AndKindMismatchIs400AndYamlIsAccepted() {
        assertThat(http.post("/api/v1/namespaces/default/configmaps", "{nope").statusCode())
                .isEqualTo(400);
        assertThat(http.post(
                                "/api/v1/namespaces/default/configmaps",
                                "{\"kind\":\"Secret\",\"metadata\":{\"name\":\"a\"}}")
                        .statusCode())
                .isEqualTo(400);
        HttpResponse<String> y = http.send(http.req("/api/v1/namespaces/default/configmaps")
                .header("Content-Type", "application/yaml")
                .POST(BodyPublishers.ofString("metadata:\n  name: from-yaml\ndata:\n  a: b\n"))
                .build());
        assertThat(y.statusCode()).as(y.body()).isEqualTo(201);
    }

    @Test
    void wrongMethodIs405() {
        assertThat(http.send(http.req("/api/v1/namespaces/default/configmaps")
                                .PUT(BodyPublishers.ofString("{}"))
                                .build())
                        .statusCode())
                .isEqualTo(405);
    }

    @Test
    void watchOverWebSocketDeliversOneEventPerTextMessage() throws Exception {
        String ns = http.newNamespace("t");
        create(ns, "a", null);
        LinkedBlockingQueue<String> messages = new LinkedBlockingQueue<>();
        HttpClient client = HttpClient.newBuilder()
                .sslContext(server.clientConfig().sslContext())
                .build();
        WebSocket ws = client.newWebSocketBuilder()
                .header("Authorization", "Bearer " + server.token())
                .buildAsync(
                        URI.create(server.url().toString().replace("https", "wss") + "/api/v1/namespaces/" + ns
                                + "/configmaps?watch=true"),
                        new Listener() {
                            private final StringBuilder buf = new StringBuilder();

                            @Override
                            public CompletionStage<?> onText(WebSocket w, CharSequence data, boolean last) {
                                buf.append(data);
                                if (last) {
                                    messages.add(buf.toString());
                                    buf.setLength(0);
                                }
                                w.request(1);
                                return null;
                            }
                        })
                .get(10, TimeUnit.SECONDS);
        try {
            String first = messages.poll(10, TimeUnit.SECONDS);
            assertThat(first).isNotNull();
            assertThat(JsonMapper.builder().build().readTree(first).path("type").asString())
                    .isEqualTo("ADDED");
            create(ns, "b", null);
            String second = messages.poll(10, TimeUnit.SECONDS);
            assertThat(second).contains("\"name\":\"b\"");
        } finally {
            ws.abort();
        }
    }
}
