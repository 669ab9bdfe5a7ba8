package io.kubeloop.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.GroupVersionResource;
import io.kubeloop.api.ObjectMeta;
import io.kubeloop.api.ResourceScope;
import io.kubeloop.api.errors.ConflictException;
import io.kubeloop.api.errors.NotFoundException;
import io.kubeloop.client.internal.http.TestApiServer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ResourceClientTest {

    record ConfigMap(String apiVersion, String kind, ObjectMeta metadata, Map<String, String> data) {}

    private static final GroupVersionResource CONFIGMAPS = new GroupVersionResource("", "v1", "configmaps");
    private static final GroupVersionResource CLUSTERROLES =
            new GroupVersionResource("rbac.authorization.k8s.io", "v1", "clusterroles");
    private static final String CM = "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"web\","
            + "\"namespace\":\"default\",\"resourceVersion\":\"7\"},\"data\":{\"k\":\"v\"}}";

    private final TestApiServer server = new TestApiServer();
    private final KubeClient client = KubeClient.create(
            server.config(), ClientOptions.builder().rateLimitingEnabled(false).build());
    private final ResourceClient<DynamicObject> configMaps =
            client.resource(CONFIGMAPS, ResourceScope.NAMESPACED, DynamicObject.class);

    @AfterEach
    void stop() {
        client.close();
        server.close();
    }

    @Test
    void getAddressesTheCorePathInTheDefaultNamespace() {
        server.reply("GET", "/api/v1/namespaces/default/configmaps/web", 200, CM);
        DynamicObject cm = configMaps.get("web");
        assertThat(cm.metadata().name()).isEqualTo("web");
        assertThat(cm.at("/data/k").orElseThrow().asString()).isEqualTo("v");
        assertThat(server.lastRequest().header("Accept")).isEqualTo("application/json");
    }

    @Test
    void clusterScopedGroupResourcesUseApisPathAndEncodedNames() {
        server.reply(
                "GET",
                "/apis/rbac.authorization.k8s.io/v1/clusterroles/system:a%20b%2Fc",
                200,
                "{\"kind\":\"ClusterRole\",\"metadata\":{\"name\":\"system:a b/c\"}}");
        var roles = client.resource(CLUSTERROLES, ResourceScope.CLUSTER, DynamicObject.class);
        assertThat(roles.namespace()).isEmpty();
        assertThat(roles.get("system:a b/c").metadata().name()).isEqualTo("system:a b/c");
        assertThatThrownBy(() -> roles.inNamespace("x"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("clusterroles.v1.rbac.authorization.k8s.io is cluster-scoped and has no namespaces");
    }

    @Test
    void openListOfGeneratedRecordsDecodesThePageAsItArrivesWithItsGeneratedReader() {
        server.reply(
                "GET",
                "/apis/example.com/v1/namespaces/default/items",
                200,
                "{\"kind\":\"ItemList\",\"apiVersion\":\"example.com/v1\",\"metadata\":{\"resourceVersion\":\"8\"},"
                        + "\"items\":[" + GeneratedModelWatchTest.item("a", ",\"size\":1") + ","
                        + "{\"metadata\":{\"name\":\"b\"},\"size\":\"2\"}]}");
        ResourceClient<GeneratedModelWatchTest.Item> items = client.resource(
                new GroupVersionResource("example.com", "v1", "items"),
                ResourceScope.NAMESPACED,
                GeneratedModelWatchTest.Item.class);
        try (ListStream<GeneratedModelWatchTest.Item> stream =
                items.openList(ListOptions.builder().build())) {
            assertThat(stream).isInstanceOf(ListDecoder.class);
            assertThat(stream.resourceVersion()).isEqualTo("8");
            var page = stream.read().items();
            assertThat(page).extracting(i -> i.metadata().name()).containsExactly("a", "b");
            assertThat(page).extracting(GeneratedModelWatchTest.Item::size).containsExactly(1L, 2L);
            assertThat(page.get(1).kind()).isEqualTo("Item");
        }
        assertThat(server.lastRequest().header("Accept")).isEqualTo("application/json");
    }

    @Test
    void openListOfTheMetadataClientAsksForPartialObjectMetadata() {
        server.reply(
                "GET",
                "/api/v1/namespaces/default/configmaps",
                200,
                "{\"kind\":\"PartialObjectMetadataList\",\"apiVersion\":\"meta.k8s.io/v1\",\"metadata\":{},"
                        + "\"items\":[{\"kind\":\"PartialObjectMetadata\",\"apiVersion\":\"meta.k8s.io/v1\","
                        + "\"metadata\":{\"name\":\"web\"}}]}");
        var metadata = client.metadataResource(CONFIGMAPS, ResourceScope.NAMESPACED);
        try (var stream = metadata.openList(ListOptions.builder().build())) {
            assertThat(stream.read().items())
                    .extracting(m -> m.metadata().name())
                    .containsExactly("web");
        }
        assertThat(server.lastRequest().header("Accept")).contains("as=PartialObjectMetadataList");
    }

    @Test
    void listSendsTheApiQueryParametersSortedAndEncoded() {
        server.reply(
                "GET",
                "/api/v1/configmaps",
                200,
                "{\"kind\":\"ConfigMapList\",\"apiVersion\":\"v1\",\"metadata\":{},\"items\":[]}");
        configMaps
                .inAnyNamespace()
                .list(ListOptions.builder()
                        .labelSelector("app=web,tier!=db")
                        .fieldSelector("metadata.name=web")
                        .limit(500)
                        .continueToken("tok")
                        .resourceVersion("10")
                        .resourceVersionMatch(ResourceVersionMatch.NOT_OLDER_THAN)
                        .timeout(Duration.ofMillis(29_500))
                        .allowWatchBookmarks(true)
                        .sendInitialEvents(true)
                        .build());
        assertThat(server.lastRequest().rawQuery())
                .isEqualTo(
                        "allowWatchBookmarks=true&continue=tok"
                                + "&fieldSelector=metadata.name%3Dweb&labelSelector=app%3Dweb%2Ctier%21%3Ddb&limit=500"
                                + "&resourceVersion=10&resourceVersionMatch=NotOlderThan&sendInitialEvents=true&timeoutSeconds=30");
    }

    @Test
    void listReadsMetadataAndFillsKindAndApiVersionOfBareItems() {
        server.reply(
                "GET",
                "/api/v1/namespaces/default/configmaps",
                200,
                "{\"kind\":\"ConfigMapList\",\"apiVersion\":\"v1\","
                        + "\"metadata\":{\"resourceVersion\":\"42\",\"continue\":\"next\",\"remainingItemCount\":3},"
                        + "\"items\":[{\"metadata\":{\"name\":\"a\"}},{\"metadata\":{\"name\":\"b\"}}]}");
        ObjectList<DynamicObject> list = configMaps.list();
        assertThat(list.resourceVersion()).isEqualTo("42");
        assertThat(list.continueToken()).isEqualTo("next");
        assertThat(list.remainingItemCount()).isEqualTo(3L);
        assertThat(list.items()).extracting(DynamicObject::kind).containsExactly("ConfigMap", "ConfigMap");
        assertThat(list.items()).extracting(DynamicObject::apiVersion).containsExactly("v1", "v1");
        ObjectList<ConfigMap> typed = client.resource(CONFIGMAPS, ResourceScope.NAMESPACED, ConfigMap.class)
                .list();
        assertThat(typed.items()).extracting(c -> c.metadata().name()).containsExactly("a", "b");
        assertThat(typed.items().get(0).kind()).isEqualTo("ConfigMap");
    }

    @Test
    void listAllFollowsContinueTokensAndKeepsTheFirstResourceVersion() {
        server.on("GET", "/api/v1/namespaces/default/configmaps", (r, ex) -> {
            String token = r.query().get("continue");
            String body = token == null
                    ? "{\"kind\":\"ConfigMapList\",\"apiVersion\":\"v1\",\"metadata\":{\"resourceVersion\":\"5\",\"continue\":\"p2\"},\"items\":[{\"metadata\":{\"name\":\"a\"}}]}"
                    : "{\"kind\":\"ConfigMapList\",\"apiVersion\":\"v1\",\"metadata\":{\"resourceVersion\":\"5\"},\"items\":[{\"metadata\":{\"name\":\"b\"}}]}";
            TestApiServer.respond(ex, 200, body, Map.of());
        });
        ObjectList<DynamicObject> all = configMaps.listAll(
                ListOptions.builder().limit(1).resourceVersion("0").build());
        assertThat(all.items()).extracting(o -> o.metadata().name()).containsExactly("a", "b");
        assertThat(all.resourceVersion()).isEqualTo("5");
        assertThat(all.hasMore()).isFalse();
        assertThat(server.requests())
                .extracting(TestApiServer.Recorded::rawQuery)
                .containsExactly("limit=1&resourceVersion=0", "continue=p2&limit=1");
    }

    @Test
    void createPostsToTheObjectsNamespaceWithWriteParameters() {
        server.reply("POST", "/api/v1/namespaces/other/configmaps", 201, CM);
        ConfigMap cm = new ConfigMap(
                "v1",
                "ConfigMap",
                ObjectMeta.builder().name("web").namespace("other").build(),
                Map.of("k", "v"));
        client.resource(CONFIGMAPS, ResourceScope.NAMESPACED, ConfigMap.class)
                .create(
                        cm,
                        WriteOptions.builder()
                                .dryRun(true)
                                .fieldManager("kubeloop")
                                .fieldValidation(FieldValidation.STRICT)
                                .build());
        TestApiServer.Recorded r = server.lastRequest();
        assertThat(r.rawQuery()).isEqualTo("dryRun=All&fieldManager=kubeloop&fieldValidation=Strict");
        assertThat(r.header("Content-Type")).isEqualTo("application/json");
        assertThat(r.bodyText()).contains("\"name\":\"web\"").contains("\"data\":{\"k\":\"v\"}");
    }

    @Test
    void anObjectNamespaceDifferentFromAnExplicitClientNamespaceIsRejected() {
        DynamicObject cm = DynamicObject.parse(CM);
        assertThatThrownBy(() -> configMaps.inNamespace("prod").create(cm, WriteOptions.none()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the object's namespace \"default\" differs from this client's namespace \"prod\"");
        assertThatThrownBy(() -> configMaps.inAnyNamespace().get("web"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("get of configmaps.v1 needs a namespace");
    }

    @Test
    void updatePutsTheObjectWithItsResourceVersionAndUpdateStatusUsesTheSubresource() {
        server.reply("PUT", "/api/v1/namespaces/default/configmaps/web", 200, CM);
        server.reply("PUT", "/api/v1/namespaces/default/configmaps/web/status", 200, CM);
        DynamicObject cm = DynamicObject.parse(CM);
        configMaps.update(cm, WriteOptions.none());
        assertThat(server.lastRequest().bodyText()).contains("\"resourceVersion\":\"7\"");
        configMaps.updateStatus(cm, WriteOptions.none());
        assertThat(server.lastRequest().path()).endsWith("/web/status");
    }

    @Test
    void staleUpdateSurfacesAsConflictException() {
        server.reply(
                "PUT",
                "/api/v1/namespaces/default/configmaps/web",
                409,
                TestApiServer.status(409, "Conflict", "Operation cannot be fulfilled"));
        assertThatThrownBy(() -> configMaps.update(DynamicObject.parse(CM), WriteOptions.none()))
                .isInstanceOf(ConflictException.class);
    }

    @Test
    void createOfAResourceTheServerDoesNotServeNamesVerbAndResourceInItsNotFound() {
        server.on("POST", "/apis/gateway.networking.k8s.io/v1/namespaces/default/gateways", (r, ex) -> {
            byte[] body = "404 page not found\n".getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
            ex.sendResponseHeaders(404, body.length);
            try (var out = ex.getResponseBody()) {
                out.write(body);
            }
            ex.close();
        });
        var gateways = client.resource(
                new GroupVersionResource("gateway.networking.k8s.io", "v1", "gateways"),
                ResourceScope.NAMESPACED,
                DynamicObject.class);

        assertThatThrownBy(() -> gateways.create(
                        DynamicObject.of("gateway.networking.k8s.io/v1", "Gateway", ObjectMeta.of("default", "g"))))
                .isInstanceOf(NotFoundException.class)
                .hasMessage("the server could not find the requested resource"
                        + " (post gateways.gateway.networking.k8s.io)");
    }

    @Test
    void missingObjectSurfacesAsNotFoundException() {
        assertThatThrownBy(() -> configMaps.get("nope")).isInstanceOf(NotFoundException.class);
    }

    @Test
    void patchSendsTheContentTypeOfEachPatchType() {
        server.reply("PATCH", "/api/v1/namespaces/default/configmaps/web", 200, CM);
        server.reply("PATCH", "/api/v1/namespaces/default/configmaps/web/status", 200, CM);
        for (PatchType type : PatchType.values()) {
            PatchOptions options = type == PatchType.APPLY ? PatchOptions.forceApply("kubeloop") : PatchOptions.none();
            configMaps.patch("web", type, "{}", options);
            assertThat(server.lastRequest().header("Content-Type")).isEqualTo(type.contentType());
        }
        assertThat(server.lastRequest().rawQuery()).isEqualTo("fieldManager=kubeloop&force=true");
        configMaps.patchStatus("web", PatchType.MERGE, Map.of("status", Map.of("phase", "Ready")), PatchOptions.none());
        assertThat(server.lastRequest().bodyText()).isEqualTo("{\"status\":{\"phase\":\"Ready\"}}");
    }

    @Test
    void applySendsItsFieldManagerAndForceApplyAlsoForce() {
        server.reply("PATCH", "/api/v1/namespaces/default/configmaps/web", 200, CM);
        configMaps.patch("web", PatchType.APPLY, "{}", PatchOptions.apply("kubeloop"));
        assertThat(server.lastRequest().rawQuery()).isEqualTo("fieldManager=kubeloop");
        configMaps.patch("web", PatchType.APPLY, "{}", PatchOptions.forceApply("kubeloop"));
        assertThat(server.lastRequest().rawQuery()).isEqualTo("fieldManager=kubeloop&force=true");
    }

    @Test
    void applyWithoutFieldManagerAndForceOnOtherPatchesAreRejected() {
        assertThatThrownBy(() -> configMaps.patch("web", PatchType.APPLY, "{}", PatchOptions.none()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("fieldManager");
        assertThatThrownBy(() -> configMaps.patch(
                        "web",
                        PatchType.MERGE,
                        "{}",
                        PatchOptions.builder().force(true).build()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("force");
        assertThat(server.requests()).isEmpty();
    }

    @Test
    void deleteSendsDeleteOptionsAndReturnsWhatTheServerReplied() {
        server.reply(
                "DELETE",
                "/api/v1/namespaces/default/configmaps/web",
                200,
                "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Success\",\"details\":{\"name\":\"web\"}}");
        server.reply("DELETE", "/api/v1/namespaces/default/configmaps/held", 200, CM);
        DeleteResult<DynamicObject> gone = configMaps.delete(
                "web",
                DeleteOptions.builder()
                        .propagationPolicy(PropagationPolicy.FOREGROUND)
                        .gracePeriodSeconds(0L)
                        .preconditionUid("u1")
                        .preconditionResourceVersion("7")
                        .dryRun(true)
                        .build());
        assertThat(gone)
                .isInstanceOfSatisfying(
                        DeleteResult.StatusReturned.class,
                        s -> assertThat(s.status().status()).isEqualTo("Success"));
        assertThat(server.lastRequest().bodyText())
                .isEqualTo("{\"kind\":\"DeleteOptions\",\"apiVersion\":\"v1\","
                        + "\"gracePeriodSeconds\":0,\"propagationPolicy\":\"Foreground\","
                        + "\"preconditions\":{\"uid\":\"u1\",\"resourceVersion\":\"7\"},\"dryRun\":[\"All\"]}");
        DeleteResult<DynamicObject> held = configMaps.delete("held", DeleteOptions.none());
        assertThat(held.returnedObject()).map(o -> o.metadata().name()).contains("web");
    }

    @Test
    void deleteCollectionSendsSelectorsToTheCollection() {
        server.reply(
                "DELETE", "/api/v1/namespaces/default/configmaps", 200, "{\"kind\":\"ConfigMapList\",\"items\":[]}");
        configMaps.deleteCollection(
                ListOptions.builder().labelSelector("app=web").build(),
                DeleteOptions.builder()
                        .propagationPolicy(PropagationPolicy.BACKGROUND)
                        .build());
        assertThat(server.lastRequest().rawQuery()).isEqualTo("labelSelector=app%3Dweb");
        assertThat(server.lastRequest().bodyText()).contains("\"propagationPolicy\":\"Background\"");
    }

    @Test
    void rawGetReturnsTheBodyOfAnyPath() {
        server.reply("GET", "/version", 200, "{\"major\":\"1\",\"minor\":\"32\"}");
        assertThat(new String(client.raw().get("/version"))).isEqualTo("{\"major\":\"1\",\"minor\":\"32\"}");
        assertThat(client.raw().get("/version", Map.class)).containsEntry("minor", "32");
        assertThat(client.namespace()).isEqualTo("default");
    }
}
