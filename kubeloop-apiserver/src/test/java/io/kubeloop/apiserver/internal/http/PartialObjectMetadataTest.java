package io.kubeloop.apiserver.internal.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubeloop.api.json.KubeJson;
import io.kubeloop.apiserver.EmbeddedApiServer;
import io.kubeloop.apiserver.ServerOptions;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
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

/**
 * The metadata-only forms kube-apiserver serves to client-go's metadata client and metadata informers
 * ({@code as=PartialObjectMetadata} and {@code as=PartialObjectMetadataList} of {@code meta.k8s.io/v1}
 * and {@code v1beta1}) on GET, LIST, WATCH (chunked and WebSocket) and writes, for built-in and custom
 * resources, with Accept fallbacks and the 406 answers, over real HTTPS.
 */
class PartialObjectMetadataTest {

    private static final String POM = "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1";
    private static final String POM_LIST = "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1";
    /** What client-go's metadata client sends on a GET and on a watch. */
    private static final String CLIENT_GO_ONE =
            "application/vnd.kubernetes.protobuf;as=PartialObjectMetadata;g=meta.k8s.io;v=v1," + POM
                    + ",application/json";
    /** What client-go's metadata client sends on a LIST. */
    private static final String CLIENT_GO_LIST =
            "application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1," + POM_LIST
                    + ",application/json";

    static EmbeddedApiServer server;
    static RawHttp http;

    @BeforeAll
    static void start() {
        server = EmbeddedApiServer.start(ServerOptions.defaults()
                .withBookmarkInterval(Duration.ofMillis(200))
                .withListChunkBytes(16 * 1024));
        http = new RawHttp(server);
        CrdFixtures.install(http, CrdFixtures.WIDGET);
        CrdFixtures.install(http, CrdFixtures.GADGET);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static String cms(String ns) {
        return "/api/v1/namespaces/" + ns + "/configmaps";
    }

    private static JsonNode create(String ns, String name, String app) {
        String labels = app == null ? "" : ",\"labels\":{\"app\":\"" + app + "\"}";
        HttpResponse<String> r = http.post(
                cms(ns),
                "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"" + name + "\"" + labels
                        + ",\"annotations\":{\"note\":\"n\"}},"
                        + "\"data\":{\"k\":\"v\"}}");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
        return RawHttp.json(r);
    }

    private static String rv(JsonNode o) {
        return o.path("metadata").path("resourceVersion").asString();
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    /** Asserts {@code o} is exactly a PartialObjectMetadata of {@code apiVersion} and returns its metadata. */
    private static JsonNode partial(JsonNode o, String apiVersion) {
        assertThat(o.propertyNames()).as(o.toString()).containsExactly("kind", "apiVersion", "metadata");
        assertThat(o.path("kind").asString()).isEqualTo("PartialObjectMetadata");
        assertThat(o.path("apiVersion").asString()).isEqualTo(apiVersion);
        return o.path("metadata");
    }

    /** The next WebSocket message as JSON; fails when none comes within 10 s. */
    private static JsonNode message(LinkedBlockingQueue<String> messages) throws InterruptedException {
        String m = messages.poll(10, TimeUnit.SECONDS);
        assertThat(m).as("a WebSocket message within 10 s").isNotNull();
        return KubeJson.mapper().readTree(m);
    }

    private static List<JsonNode> itemMetadata(JsonNode list) {
        List<JsonNode> out = new ArrayList<>();
        for (JsonNode i : list.path("items")) {
            out.add(i.path("metadata"));
        }
        return out;
    }

    private static void assertNotAcceptable(HttpResponse<String> r, String message) {
        assertThat(r.statusCode()).as(r.body()).isEqualTo(406);
        assertThat(r.headers().firstValue("Content-Type")).hasValue("application/json");
        JsonNode s = RawHttp.json(r);
        assertThat(s.path("kind").asString()).isEqualTo("Status");
        assertThat(s.path("apiVersion").asString()).isEqualTo("v1");
        assertThat(s.path("status").asString()).isEqualTo("Failure");
        assertThat(s.path("reason").asString()).isEqualTo("NotAcceptable");
        assertThat(s.path("code").asInt()).isEqualTo(406);
        assertThat(s.path("message").asString()).contains(message);
    }

    @Test
    void getAsPartialObjectMetadataIsKindApiVersionAndTheWholeMetadata() {
        String ns = http.newNamespace("get");
        create(ns, "a", "x");
        JsonNode full = RawHttp.json(http.get(cms(ns) + "/a"));

        HttpResponse<String> r = http.get(cms(ns) + "/a", POM);

        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Type")).hasValue("application/json");
        JsonNode meta = partial(RawHttp.json(r), "meta.k8s.io/v1");
        assertThat(meta).isEqualTo(full.path("metadata"));
        assertThat(meta.path("managedFields")).isNotEmpty();
        assertThat(meta.path("annotations").path("note").asString()).isEqualTo("n");
    }

    @Test
    void getAsV1beta1PartialObjectMetadataHasV1beta1ApiVersion() {
        String ns = http.newNamespace("beta");
        JsonNode a = create(ns, "a", null);

        JsonNode p = RawHttp.json(
                http.get(cms(ns) + "/a", "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1beta1"));

        assertThat(partial(p, "meta.k8s.io/v1beta1")).isEqualTo(a.path("metadata"));
    }

    @Test
    void clusterScopedBuiltInIsServedAsPartialObjectMetadata() {
        String ns = http.newNamespace("cluster");
        JsonNode full = RawHttp.json(http.get("/api/v1/namespaces/" + ns));

        JsonNode one = RawHttp.json(http.get("/api/v1/namespaces/" + ns, POM));
        JsonNode list = RawHttp.json(
                http.get("/api/v1/namespaces?fieldSelector=" + enc("metadata.name=" + ns), CLIENT_GO_LIST));

        assertThat(partial(one, "meta.k8s.io/v1")).isEqualTo(full.path("metadata"));
        assertThat(list.path("kind").asString()).isEqualTo("PartialObjectMetadataList");
        assertThat(list.path("items")).hasSize(1);
        assertThat(partial(list.path("items").get(0), "meta.k8s.io/v1")).isEqualTo(full.path("metadata"));
    }

    @Test
    void listAsPartialObjectMetadataListKeepsPagingAndSelectors() {
        String ns = http.newNamespace("page");
        for (int i = 0; i < 5; i++) {
            create(ns, "c" + i, i < 3 ? "x" : "y");
        }
        String query = "?labelSelector=" + enc("app=x") + "&limit=2";
        JsonNode plain = RawHttp.json(http.get(cms(ns) + query));

        HttpResponse<String> r = http.get(cms(ns) + query, POM_LIST);

        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Type")).hasValue("application/json");
        JsonNode first = RawHttp.json(r);
        assertThat(first.propertyNames()).containsExactly("kind", "apiVersion", "metadata", "items");
        assertThat(first.path("kind").asString()).isEqualTo("PartialObjectMetadataList");
        assertThat(first.path("apiVersion").asString()).isEqualTo("meta.k8s.io/v1");
        JsonNode listMeta = first.path("metadata");
        assertThat(listMeta.propertyNames()).containsExactly("resourceVersion", "continue");
        assertThat(listMeta.path("resourceVersion").asString()).isNotEmpty();
        assertThat(first.path("items")).hasSize(2);
        for (JsonNode item : first.path("items")) {
            assertThat(partial(item, "meta.k8s.io/v1")
                            .path("labels")
                            .path("app")
                            .asString())
                    .isEqualTo("x");
        }
        assertThat(itemMetadata(first)).isEqualTo(itemMetadata(plain));

        JsonNode second = RawHttp.json(http.get(
                cms(ns) + query + "&continue=" + enc(listMeta.path("continue").asString()), POM_LIST));
        assertThat(second.path("metadata").propertyNames()).containsExactly("resourceVersion");
        assertThat(second.path("items")).hasSize(1);
        List<String> names = new ArrayList<>();
        for (JsonNode m : itemMetadata(first)) {
            names.add(m.path("name").asString());
        }
        names.add(partial(second.path("items").get(0), "meta.k8s.io/v1")
                .path("name")
                .asString());
        assertThat(names).containsExactlyInAnyOrder("c0", "c1", "c2");

        JsonNode unselected = RawHttp.json(http.get(cms(ns) + "?limit=2", POM_LIST));
        assertThat(unselected.path("metadata").propertyNames())
                .containsExactly("resourceVersion", "continue", "remainingItemCount");
        assertThat(unselected.path("metadata").path("remainingItemCount").asLong())
                .isEqualTo(3);
        assertThat(itemMetadata(unselected)).isEqualTo(itemMetadata(RawHttp.json(http.get(cms(ns) + "?limit=2"))));
    }

    @Test
    void listAsPartialObjectMetadataListHonoursFieldSelectorAndExactResourceVersion() {
        String ns = http.newNamespace("exact");
        create(ns, "a", "x");
        JsonNode b = create(ns, "b", "x");
        HttpResponse<String> changed = http.patch(
                cms(ns) + "/b", "application/merge-patch+json", "{\"metadata\":{\"labels\":{\"app\":\"z\"}}}");
        assertThat(changed.statusCode()).isEqualTo(200);
        String query = "?fieldSelector=" + enc("metadata.name=b") + "&resourceVersion=" + rv(b)
                + "&resourceVersionMatch=Exact";
        JsonNode plain = RawHttp.json(http.get(cms(ns) + query));

        JsonNode list = RawHttp.json(http.get(cms(ns) + query, POM_LIST));

        assertThat(list.path("metadata").path("resourceVersion").asString()).isEqualTo(rv(b));
        assertThat(list.path("items")).hasSize(1);
        JsonNode meta = partial(list.path("items").get(0), "meta.k8s.io/v1");
        assertThat(meta.path("labels").path("app").asString()).isEqualTo("x");
        assertThat(meta).isEqualTo(b.path("metadata"));
        assertThat(itemMetadata(list)).isEqualTo(itemMetadata(plain));
    }

    @Test
    void listAsV1beta1PartialObjectMetadataListHasV1beta1ItemsAndEmptyOneHasNullItems() {
        String ns = http.newNamespace("list");
        create(ns, "a", null);
        String beta = "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1beta1";

        JsonNode list = RawHttp.json(http.get(cms(ns), beta));
        HttpResponse<String> empty = http.get(cms(ns) + "?labelSelector=" + enc("app=none"), POM_LIST);

        assertThat(list.path("apiVersion").asString()).isEqualTo("meta.k8s.io/v1beta1");
        assertThat(partial(list.path("items").get(0), "meta.k8s.io/v1beta1")
                        .path("name")
                        .asString())
                .isEqualTo("a");
        assertThat(empty.statusCode()).isEqualTo(200);
        assertThat(empty.body())
                .contains("\"kind\":\"PartialObjectMetadataList\"")
                .endsWith(",\"items\":null}");
        assertThat(RawHttp.json(empty).path("items").isNull()).isTrue();
    }

    @Test
    void bigListAsPartialObjectMetadataListStaysOneDocument() {
        String ns = http.newNamespace("big");
        StringBuilder data = new StringBuilder();
        for (int i = 0; i < 2000; i++) {
            data.append('x');
        }
        for (int i = 0; i < 60; i++) {
            HttpResponse<String> r = http.post(
                    cms(ns), "{\"metadata\":{\"name\":\"c" + i + "\",\"annotations\":{\"a\":\"" + data + "\"}}}");
            assertThat(r.statusCode()).isEqualTo(201);
        }

        JsonNode list = RawHttp.json(http.get(cms(ns), POM_LIST));

        assertThat(list.path("items")).hasSize(60);
        for (JsonNode item : list.path("items")) {
            assertThat(partial(item, "meta.k8s.io/v1")
                            .path("annotations")
                            .path("a")
                            .asString())
                    .hasSize(2000);
        }
    }

    @Test
    void watchAsPartialObjectMetadataSendsAddedModifiedDeletedAsMetadataOnly() {
        String ns = http.newNamespace("watch");
        JsonNode a = create(ns, "a", null);
        try (RawHttp.Lines w = http.watch(cms(ns) + "?watch=true&resourceVersion=" + rv(a), CLIENT_GO_ONE)) {
            assertThat(w.response.statusCode()).isEqualTo(200);
            assertThat(w.response.headers().firstValue("Content-Type")).hasValue("application/json");
            JsonNode b = create(ns, "b", "x");
            HttpResponse<String> patched = http.patch(
                    cms(ns) + "/b",
                    "application/merge-patch+json",
                    "{\"data\":{\"k\":\"w\"},\"metadata\":{\"labels\":{\"app\":\"y\"}}}");
            assertThat(patched.statusCode()).isEqualTo(200);
            HttpResponse<String> deleted = http.delete(cms(ns) + "/b");
            assertThat(deleted.statusCode()).isEqualTo(200);

            JsonNode added = w.next();
            assertThat(added.path("type").asString()).isEqualTo("ADDED");
            assertThat(partial(added.path("object"), "meta.k8s.io/v1")).isEqualTo(b.path("metadata"));
            JsonNode modified = w.next();
            assertThat(modified.path("type").asString()).isEqualTo("MODIFIED");
            assertThat(partial(modified.path("object"), "meta.k8s.io/v1"))
                    .isEqualTo(RawHttp.json(patched).path("metadata"));
            JsonNode gone = w.next();
            assertThat(gone.path("type").asString()).isEqualTo("DELETED");
            assertThat(partial(gone.path("object"), "meta.k8s.io/v1")
                            .path("name")
                            .asString())
                    .isEqualTo("b");
        }
    }

    @Test
    void watchBookmarkAsPartialObjectMetadataCarriesOnlyResourceVersion() {
        String ns = http.newNamespace("bm");
        JsonNode a = create(ns, "a", null);
        try (RawHttp.Lines w = http.watch(
                cms(ns) + "?watch=1&allowWatchBookmarks=true&timeoutSeconds=3&resourceVersion=" + rv(a), POM)) {
            JsonNode b = w.next();

            assertThat(b.path("type").asString()).isEqualTo("BOOKMARK");
            JsonNode meta = partial(b.path("object"), "meta.k8s.io/v1");
            assertThat(meta.propertyNames()).containsExactly("resourceVersion");
            assertThat(Long.parseLong(meta.path("resourceVersion").asString()))
                    .isGreaterThanOrEqualTo(Long.parseLong(rv(a)));
        }
    }

    @Test
    void watchListEndsInitialEventsWithPartialObjectMetadataBookmark() {
        String ns = http.newNamespace("wl");
        JsonNode a = create(ns, "a", null);
        JsonNode b = create(ns, "b", null);
        try (RawHttp.Lines w = http.watch(
                cms(ns) + "?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true",
                POM)) {
            List<JsonNode> initial = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                JsonNode e = w.next();
                assertThat(e.path("type").asString()).isEqualTo("ADDED");
                initial.add(partial(e.path("object"), "meta.k8s.io/v1"));
            }
            JsonNode end = w.next();

            assertThat(initial).containsExactlyInAnyOrder(a.path("metadata"), b.path("metadata"));
            assertThat(end.path("type").asString()).isEqualTo("BOOKMARK");
            JsonNode meta = partial(end.path("object"), "meta.k8s.io/v1");
            assertThat(meta.propertyNames()).containsExactly("resourceVersion", "annotations");
            assertThat(meta.path("annotations")
                            .path("k8s.io/initial-events-end")
                            .asString())
                    .isEqualTo("true");
            assertThat(meta.path("annotations")).hasSize(1);
        }
    }

    /**
     * A watch of one object (kube-apiserver's legacy {@code watch/} path with the name, and the collection's
     * watch with a {@code metadata.name} field selector, as client-go's metadata informer asks it) sends that
     * object's events only, as PartialObjectMetadata: the initial ADDED from resourceVersion 0, then its
     * MODIFIED while the change of another object, made first, is left out. A named GET with {@code ?watch=1}
     * would be a get, not a watch.
     */
    @Test
    void watchOfOneObjectAsPartialObjectMetadataSeesOnlyThatObject() {
        String ns = http.newNamespace("one");
        JsonNode a = create(ns, "a", null).path("metadata");
        create(ns, "b", null);
        List<String> watches = List.of(
                "/api/v1/watch/namespaces/" + ns + "/configmaps/a?resourceVersion=0",
                cms(ns) + "?watch=1&resourceVersion=0&fieldSelector=" + enc("metadata.name=a"));
        int round = 0;
        for (String path : watches) {
            round++;
            try (RawHttp.Lines w = http.watch(path, POM)) {
                JsonNode e = w.next();
                assertThat(e.path("type").asString()).as(path).isEqualTo("ADDED");
                assertThat(partial(e.path("object"), "meta.k8s.io/v1")).isEqualTo(a);
                String note = "{\"metadata\":{\"annotations\":{\"round\":\"" + round + "\"}}}";
                assertThat(http.patch(cms(ns) + "/b", "application/merge-patch+json", note)
                                .statusCode())
                        .isEqualTo(200);
                HttpResponse<String> patched = http.patch(cms(ns) + "/a", "application/merge-patch+json", note);
                assertThat(patched.statusCode()).isEqualTo(200);

                JsonNode next = w.next();
                assertThat(next.path("type").asString()).as(path).isEqualTo("MODIFIED");
                a = RawHttp.json(patched).path("metadata");
                assertThat(partial(next.path("object"), "meta.k8s.io/v1")).isEqualTo(a);
            }
        }
    }

    @Test
    void watchOverWebSocketHonoursPartialObjectMetadata() throws Exception {
        String ns = http.newNamespace("ws");
        JsonNode a = create(ns, "a", null);
        LinkedBlockingQueue<String> messages = new LinkedBlockingQueue<>();
        HttpClient client = HttpClient.newBuilder()
                .sslContext(server.clientConfig().sslContext())
                .build();
        WebSocket ws = client.newWebSocketBuilder()
                .header("Authorization", "Bearer " + server.token())
                .header("Accept", CLIENT_GO_ONE)
                .buildAsync(
                        URI.create(server.url().toString().replace("https", "wss") + cms(ns)
                                + "?watch=true&allowWatchBookmarks=true&resourceVersion=0"),
                        new WebSocket.Listener() {
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
            JsonNode added = message(messages);
            assertThat(added.path("type").asString()).isEqualTo("ADDED");
            assertThat(partial(added.path("object"), "meta.k8s.io/v1")).isEqualTo(a.path("metadata"));
            JsonNode b = create(ns, "b", null);
            JsonNode next = message(messages);
            while (next.path("type").asString().equals("BOOKMARK")) {
                assertThat(partial(next.path("object"), "meta.k8s.io/v1").propertyNames())
                        .containsExactly("resourceVersion");
                next = message(messages);
            }
            assertThat(next.path("type").asString()).isEqualTo("ADDED");
            assertThat(partial(next.path("object"), "meta.k8s.io/v1")).isEqualTo(b.path("metadata"));
            JsonNode bookmark = message(messages);
            assertThat(bookmark.path("type").asString()).isEqualTo("BOOKMARK");
            assertThat(partial(bookmark.path("object"), "meta.k8s.io/v1").propertyNames())
                    .containsExactly("resourceVersion");
        } finally {
            ws.abort();
        }
    }

    @Test
    void customResourcesAreServedAsPartialObjectMetadataInEveryServedVersion() {
        String ns = http.newNamespace("crd");
        String widgets = "/apis/example.com/v1/namespaces/" + ns + "/widgets";
        HttpResponse<String> created = http.post(
                widgets,
                "{\"apiVersion\":\"example.com/v1\",\"kind\":\"Widget\",\"metadata\":{\"name\":\"w1\","
                        + "\"labels\":{\"tier\":\"x\"}},\"spec\":{\"replicas\":1}}");
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        http.post(widgets, CrdFixtures.object("example.com/v1", "Widget", "w2", "{\"replicas\":2}"));
        JsonNode w1 = RawHttp.json(created);
        String beta = "/apis/example.com/v1beta1/namespaces/" + ns + "/widgets";

        JsonNode one = RawHttp.json(http.get(beta + "/w1", CLIENT_GO_ONE));
        JsonNode list = RawHttp.json(http.get(widgets + "?labelSelector=" + enc("tier=x"), CLIENT_GO_LIST));

        assertThat(partial(one, "meta.k8s.io/v1")).isEqualTo(w1.path("metadata"));
        assertThat(list.path("kind").asString()).isEqualTo("PartialObjectMetadataList");
        assertThat(list.path("items")).hasSize(1);
        assertThat(partial(list.path("items").get(0), "meta.k8s.io/v1")).isEqualTo(w1.path("metadata"));
        try (RawHttp.Lines w = http.watch(beta + "?watch=1&resourceVersion=0", CLIENT_GO_ONE)) {
            List<String> names = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                JsonNode e = w.next();
                assertThat(e.path("type").asString()).isEqualTo("ADDED");
                names.add(
                        partial(e.path("object"), "meta.k8s.io/v1").path("name").asString());
            }
            assertThat(names).containsExactlyInAnyOrder("w1", "w2");
            // the initial events were those two: the next one is the ADDED of an object created after them
            assertThat(http.post(widgets, CrdFixtures.object("example.com/v1", "Widget", "w3", "{\"replicas\":3}"))
                            .statusCode())
                    .isEqualTo(201);
            JsonNode later = w.next();
            assertThat(later.path("type").asString()).isEqualTo("ADDED");
            assertThat(partial(later.path("object"), "meta.k8s.io/v1")
                            .path("name")
                            .asString())
                    .isEqualTo("w3");
        }
        assertNotAcceptable(
                http.get(beta + "/w1", POM_LIST),
                "you requested PartialObjectMetadataList, but the requested object is not a list "
                        + "(*unstructured.Unstructured)");
        assertNotAcceptable(
                http.get(beta, POM),
                "you requested PartialObjectMetadata, but the requested object is a list "
                        + "(*unstructured.UnstructuredList)");
    }

    @Test
    void clusterScopedCustomResourcesAreServedAsPartialObjectMetadata() {
        HttpResponse<String> created = http.post(
                "/apis/example.com/v1/gadgets", CrdFixtures.object("example.com/v1", "Gadget", "g1", "{\"size\":1}"));
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        JsonNode g1 = RawHttp.json(created);

        JsonNode one = RawHttp.json(http.get("/apis/example.com/v1/gadgets/g1", POM));
        JsonNode list = RawHttp.json(http.get(
                "/apis/example.com/v1/gadgets?fieldSelector=" + enc("metadata.name=g1"),
                "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1beta1"));

        assertThat(partial(one, "meta.k8s.io/v1")).isEqualTo(g1.path("metadata"));
        assertThat(list.path("apiVersion").asString()).isEqualTo("meta.k8s.io/v1beta1");
        assertThat(partial(list.path("items").get(0), "meta.k8s.io/v1beta1")).isEqualTo(g1.path("metadata"));
    }

    @Test
    void acceptFallbacksPickTheFirstRangeThisServerCanProduce() {
        String ns = http.newNamespace("accept");
        JsonNode a = create(ns, "a", null);

        JsonNode clientGoGet = RawHttp.json(http.get(cms(ns) + "/a", CLIENT_GO_ONE));
        JsonNode clientGoList = RawHttp.json(http.get(cms(ns), CLIENT_GO_LIST));
        JsonNode unknownVersionThenJson = RawHttp.json(http.get(
                cms(ns) + "/a", "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v9,application/json"));
        JsonNode jsonFirst = RawHttp.json(http.get(cms(ns) + "/a", "application/json, " + POM));
        JsonNode higherQ = RawHttp.json(http.get(cms(ns) + "/a", "application/json;q=0.5, " + POM));
        JsonNode betaFirst = RawHttp.json(http.get(
                cms(ns) + "/a",
                "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1beta1, " + POM + ", application/json"));
        JsonNode wildcard = RawHttp.json(http.get(cms(ns) + "/a", "*/*;as=PartialObjectMetadata;g=meta.k8s.io;v=v1"));

        assertThat(partial(clientGoGet, "meta.k8s.io/v1")).isEqualTo(a.path("metadata"));
        assertThat(clientGoList.path("kind").asString()).isEqualTo("PartialObjectMetadataList");
        assertThat(partial(clientGoList.path("items").get(0), "meta.k8s.io/v1")).isEqualTo(a.path("metadata"));
        assertThat(unknownVersionThenJson.path("kind").asString()).isEqualTo("ConfigMap");
        assertThat(jsonFirst.path("kind").asString()).isEqualTo("ConfigMap");
        assertThat(partial(higherQ, "meta.k8s.io/v1")).isEqualTo(a.path("metadata"));
        assertThat(partial(betaFirst, "meta.k8s.io/v1beta1")).isEqualTo(a.path("metadata"));
        assertThat(partial(wildcard, "meta.k8s.io/v1")).isEqualTo(a.path("metadata"));
    }

    @Test
    void acceptWithNothingProducibleIs406NotAcceptable() {
        String ns = http.newNamespace("none");
        create(ns, "a", null);
        List<String> unproducible = List.of(
                "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v9",
                "application/json;as=Foo;g=meta.k8s.io;v=v1",
                "application/json;as=PartialObjectMetadata",
                "application/json;g=meta.k8s.io;v=v1",
                "application/json;as=PartialObjectMetadata;g=example.com;v=v1",
                "application/vnd.kubernetes.protobuf;as=PartialObjectMetadata;g=meta.k8s.io;v=v1",
                POM + ";stream=events");

        for (String accept : unproducible) {
            assertNotAcceptable(http.get(cms(ns) + "/a", accept), "only the following media types are accepted");
            assertNotAcceptable(http.get(cms(ns), accept), "only the following media types are accepted");
            assertNotAcceptable(
                    http.get(cms(ns) + "?watch=1&resourceVersion=0", accept),
                    "only the following media types are accepted");
        }
    }

    @Test
    void partialObjectMetadataListOfOneObjectIs406EvenWithAFallback() {
        String ns = http.newNamespace("one");
        create(ns, "a", null);

        assertNotAcceptable(
                http.get(cms(ns) + "/a", POM_LIST),
                "you requested PartialObjectMetadataList, but the requested object is not a list (*core.ConfigMap)");
        assertNotAcceptable(
                http.get(cms(ns) + "/a", CLIENT_GO_LIST),
                "you requested PartialObjectMetadataList, but the requested object is not a list (*core.ConfigMap)");
        assertNotAcceptable(
                http.get("/api/v1/namespaces/" + ns, POM_LIST),
                "you requested PartialObjectMetadataList, but the requested object is not a list (*core.Namespace)");
        assertThat(http.get(cms(ns) + "/missing", POM_LIST).statusCode()).isEqualTo(404);
    }

    @Test
    void partialObjectMetadataOfAListIs406EvenWithAFallback() {
        String ns = http.newNamespace("list");

        assertNotAcceptable(
                http.get(cms(ns), POM),
                "you requested PartialObjectMetadata, but the requested object is a list (*core.ConfigMapList)");
        assertNotAcceptable(
                http.get(cms(ns), CLIENT_GO_ONE),
                "you requested PartialObjectMetadata, but the requested object is a list (*core.ConfigMapList)");
        assertNotAcceptable(
                http.get("/apis/apps/v1/namespaces/" + ns + "/deployments", POM),
                "you requested PartialObjectMetadata, but the requested object is a list (*apps.DeploymentList)");
        assertThat(http.get(cms(ns) + "?labelSelector=" + enc("a in ("), POM).statusCode())
                .isEqualTo(400);
    }

    @Test
    void watchAskingPartialObjectMetadataListEndsWhereItsFirstEventWouldBe() {
        String ns = http.newNamespace("wlist");
        create(ns, "a", null);
        long start = System.nanoTime();
        try (RawHttp.Lines w = http.watch(cms(ns) + "?watch=1&resourceVersion=0&timeoutSeconds=60", POM_LIST)) {
            assertThat(w.response.statusCode()).isEqualTo(200);
            assertThat(w.next()).isNull();
        }
        assertThat(Duration.ofNanos(System.nanoTime() - start))
                .as("ended at the first event, long before the watch's 60 s")
                .isLessThan(Duration.ofSeconds(30));
    }

    @Test
    void writesAnswerInTheNegotiatedMetadataForm() {
        String ns = http.newNamespace("write");
        HttpResponse<String> created = http.send(http.req(cms(ns))
                .header("Content-Type", "application/json")
                .header("Accept", POM)
                .POST(HttpRequest.BodyPublishers.ofString(
                        "{\"metadata\":{\"name\":\"a\",\"labels\":{\"app\":\"x\"}},\"data\":{\"k\":\"v\"}}"))
                .build());
        HttpResponse<String> notAList = http.send(http.req(cms(ns))
                .header("Content-Type", "application/json")
                .header("Accept", POM_LIST)
                .POST(HttpRequest.BodyPublishers.ofString("{\"metadata\":{\"name\":\"b\"}}"))
                .build());
        HttpResponse<String> collection = http.send(http.req(cms(ns) + "?labelSelector=" + enc("app=x"))
                .header("Accept", POM_LIST)
                .DELETE()
                .build());

        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        assertThat(partial(RawHttp.json(created), "meta.k8s.io/v1").path("name").asString())
                .isEqualTo("a");
        assertNotAcceptable(notAList, "(*core.ConfigMap)");
        assertThat(http.get(cms(ns) + "/b").statusCode()).isEqualTo(200); // as on kube-apiserver, written first
        assertThat(collection.statusCode()).as(collection.body()).isEqualTo(200);
        JsonNode gone = RawHttp.json(collection);
        assertThat(gone.path("kind").asString()).isEqualTo("PartialObjectMetadataList");
        assertThat(partial(gone.path("items").get(0), "meta.k8s.io/v1")
                        .path("name")
                        .asString())
                .isEqualTo("a");
    }
}
