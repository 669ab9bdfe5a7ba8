package io.kubeloop.apiserver.internal.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubeloop.apiserver.EmbeddedApiServer;
import io.kubeloop.apiserver.ServerInternals;
import io.kubeloop.apiserver.ServerOptions;
import io.kubeloop.apiserver.internal.registry.NameRule;
import io.kubeloop.apiserver.internal.registry.ResourceDefinition;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * What the wired-in libraries serve, as kube-apiserver does — OpenAPI documents, JSON, merge and
 * strategic merge patches, server-side apply with managed fields and conflicts, field validation —
 * over real HTTPS with the default options.
 */
class WriteConformanceTest {

    /** The server these tests share: started before the first, closed after the last. */
    @AutoClose
    private static EmbeddedApiServer shared;

    private static final String APPLY = "application/apply-patch+yaml";
    private static final String MERGE = "application/merge-patch+json";
    private static final String SMP = "application/strategic-merge-patch+json";

    static EmbeddedApiServer server;
    static RawHttp http;

    @BeforeAll
    static void connect() {
        EmbeddedApiServer embedded = shared = EmbeddedApiServer.start(ServerOptions.defaults());
        server = embedded;
        http = new RawHttp(embedded);
    }

    private static HttpResponse<String> send(
            String method, String path, String contentType, String body, String userAgent) {
        HttpRequest.Builder b = http.req(path)
                .header("Content-Type", contentType)
                .method(method, HttpRequest.BodyPublishers.ofString(body));
        if (userAgent != null) {
            b.header("User-Agent", userAgent);
        }
        return http.send(b.build());
    }

    private static String deployment(String name, String extraSpec) {
        return "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{\"name\":\"" + name + "\"},\"spec\":{"
                + extraSpec
                + "\"replicas\":1,\"selector\":{\"matchLabels\":{\"app\":\"x\"}},\"template\":{\"metadata\":"
                + "{\"labels\":{\"app\":\"x\"}},\"spec\":{\"containers\":[{\"name\":\"a\",\"image\":\"a:1\"},"
                + "{\"name\":\"b\",\"image\":\"b:1\"}]}}}}";
    }

    private static List<String> managers(JsonNode o) {
        List<String> out = new ArrayList<>();
        o.path("metadata")
                .path("managedFields")
                .forEach(e -> out.add(
                        e.path("manager").asString() + "/" + e.path("operation").asString()));
        return out;
    }

    // ---- OpenAPI v3

    @Test
    void openApiV3RootUrlsCarryHashesAndTheCurrentHashIsImmutable() {
        HttpResponse<String> root = http.get("/openapi/v3");
        assertThat(root.statusCode()).isEqualTo(200);
        String url = RawHttp.json(root)
                .path("paths")
                .path("api/v1")
                .path("serverRelativeURL")
                .asString();
        assertThat(url).matches("/openapi/v3/api/v1\\?hash=[0-9A-F]{128}");
        HttpResponse<String> doc = http.get(url);
        assertThat(doc.statusCode()).isEqualTo(200);
        assertThat(doc.headers().firstValue("Cache-Control")).hasValue("public, immutable");
        assertThat(doc.headers().firstValue("ETag")).hasValue("\"" + url.substring(url.indexOf('=') + 1) + "\"");
        Instant expires = ZonedDateTime.parse(
                        doc.headers().firstValue("Expires").orElseThrow(), DateTimeFormatter.RFC_1123_DATE_TIME)
                .toInstant();
        assertThat(expires).isAfter(Instant.now().plusSeconds(364L * 24 * 3600));
        assertThat(RawHttp.json(doc).path("openapi").asString()).isEqualTo("3.0.0");
    }

    @Test
    void staleHashIs301ToTheCurrentUrlAndNoHashIsAPlain200() {
        String url = RawHttp.json(http.get("/openapi/v3"))
                .path("paths")
                .path("apis/apps/v1")
                .path("serverRelativeURL")
                .asString();
        HttpResponse<String> stale = http.get("/openapi/v3/apis/apps/v1?hash=0123");
        assertThat(stale.statusCode()).isEqualTo(301);
        assertThat(stale.headers().firstValue("Location")).hasValue(url);
        HttpResponse<String> plain = http.get("/openapi/v3/apis/apps/v1");
        assertThat(plain.statusCode()).isEqualTo(200);
        assertThat(plain.headers().firstValue("Cache-Control")).isEmpty();
        assertThat(http.get("/openapi/v3/apis/nope/v1").statusCode()).isEqualTo(404);
    }

    @Test
    void documentsAreRebuiltWhenTheServedSetChanges() {
        JsonNode before = RawHttp.json(http.get("/openapi/v3")).path("paths");
        assertThat(before.has("apis/rebuild.example.com/v1")).isFalse();
        serveWidgets("rebuild.example.com");
        JsonNode after = RawHttp.json(http.get("/openapi/v3")).path("paths");
        String url = after.path("apis/rebuild.example.com/v1")
                .path("serverRelativeURL")
                .asString();
        assertThat(url).contains("?hash=");
        assertThat(after.path("api/v1")).isEqualTo(before.path("api/v1"));
        JsonNode doc = RawHttp.json(http.get(url));
        assertThat(doc.path("paths").toString())
                .contains("/apis/rebuild.example.com/v1/namespaces/{namespace}/widgets/{name}");
    }

    @Test
    void openApiV2IsServedAsJsonAndAsProtobufForKubectl127() {
        HttpResponse<String> json = http.get("/openapi/v2", "application/json");
        assertThat(json.statusCode()).isEqualTo(200);
        assertThat(RawHttp.json(json).path("swagger").asString()).isEqualTo("2.0");
        HttpResponse<String> proto =
                http.get("/openapi/v2", "application/com.github.proto-openapi.spec.v2@v1.0+protobuf");
        assertThat(proto.statusCode()).isEqualTo(200);
        assertThat(proto.headers().firstValue("Content-Type"))
                .hasValue("application/com.github.proto-openapi.spec.v2.v1.0+protobuf");
        assertThat(http.get("/openapi/v2", "application/xml").statusCode()).isEqualTo(406);
    }

    private static ResourceDefinition serveWidgets(String group) {
        ResourceDefinition def = new ResourceDefinition(
                group,
                "v1",
                "widgets",
                "Widget",
                null,
                null,
                List.of(),
                List.of(),
                true,
                ResourceDefinition.ALL_VERBS,
                Set.of(),
                NameRule.SUBDOMAIN,
                true,
                true,
                false,
                Set.of(),
                List.of(),
                null,
                null);
        ServerInternals.registry(server).resources().replace(group, "widgets", List.of(def));
        return def;
    }

    // ---- patches and server-side apply

    @Test
    void strategicMergePatchMergesContainersByName() {
        String ns = http.newNamespace("w");
        assertThat(http.post("/apis/apps/v1/namespaces/" + ns + "/deployments", deployment("d", ""))
                        .statusCode())
                .isEqualTo(201);
        HttpResponse<String> r = http.patch(
                "/apis/apps/v1/namespaces/" + ns + "/deployments/d",
                SMP,
                "{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"b\",\"image\":\"b:2\"}]}}}}");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        JsonNode containers =
                RawHttp.json(r).path("spec").path("template").path("spec").path("containers");
        assertThat(containers).hasSize(2);
        assertThat(containers.get(0).path("image").asString()).isEqualTo("a:1");
        assertThat(containers.get(1).path("image").asString()).isEqualTo("b:2");
        assertThat(RawHttp.json(r).path("metadata").path("generation").asInt()).isEqualTo(2);
    }

    @Test
    void jsonPatchFailingTestIs422WithTheRealServersMessage() {
        String ns = http.newNamespace("w");
        http.post("/api/v1/namespaces/" + ns + "/configmaps", "{\"metadata\":{\"name\":\"a\"},\"data\":{\"k\":\"v\"}}");
        HttpResponse<String> r = http.patch(
                "/api/v1/namespaces/" + ns + "/configmaps/a",
                "application/json-patch+json",
                "[{\"op\":\"test\",\"path\":\"/data/k\",\"value\":\"nope\"}]");
        assertThat(r.statusCode()).isEqualTo(422);
        assertThat(RawHttp.json(r).path("message").asString())
                .isEqualTo("the server rejected our request due to an error in our request");
        HttpResponse<String> ok = http.patch(
                "/api/v1/namespaces/" + ns + "/configmaps/a",
                "application/json-patch+json",
                "[{\"op\":\"test\",\"path\":\"/data/k\",\"value\":\"v\"},{\"op\":\"add\",\"path\":\"/data/n\",\"value\":\"1\"}]");
        assertThat(RawHttp.json(ok).path("data").path("n").asString()).isEqualTo("1");
    }

    @Test
    void strategicMergePatchOnACustomResourceIs415() {
        serveWidgets("wire.example.com");
        String ns = http.newNamespace("w");
        HttpResponse<String> created = http.post(
                "/apis/wire.example.com/v1/namespaces/" + ns + "/widgets",
                "{\"apiVersion\":\"wire.example.com/v1\",\"kind\":\"Widget\",\"metadata\":{\"name\":\"w\"},\"spec\":{\"a\":1}}");
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        HttpResponse<String> r =
                http.patch("/apis/wire.example.com/v1/namespaces/" + ns + "/widgets/w", SMP, "{\"spec\":{\"a\":2}}");
        assertThat(r.statusCode()).isEqualTo(415);
        assertThat(RawHttp.json(r).path("reason").asString()).isEqualTo("UnsupportedMediaType");
        assertThat(http.patch(
                                "/apis/wire.example.com/v1/namespaces/" + ns + "/widgets/w",
                                MERGE,
                                "{\"spec\":{\"a\":2}}")
                        .statusCode())
                .isEqualTo(200);
    }

    @Test
    void applyOnAMissingObjectIs201WithAnApplyEntry() {
        String ns = http.newNamespace("w");
        HttpResponse<String> r = http.patch(
                "/api/v1/namespaces/" + ns + "/configmaps/a?fieldManager=alice",
                APPLY,
                "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata:\n  k: v\n");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
        JsonNode entry = RawHttp.json(r).path("metadata").path("managedFields").get(0);
        assertThat(entry.path("manager").asString()).isEqualTo("alice");
        assertThat(entry.path("operation").asString()).isEqualTo("Apply");
        assertThat(entry.path("fieldsV1").path("f:data").has("f:k")).isTrue();
        assertThat(http.patch("/api/v1/namespaces/" + ns + "/configmaps/b", APPLY, "{}")
                        .statusCode())
                .isEqualTo(422);
    }

    @Test
    void conflictingApplyIs409WithFieldManagerConflictAndForceTakesOver() {
        String ns = http.newNamespace("w");
        String path = "/api/v1/namespaces/" + ns + "/configmaps/a";
        String alice =
                "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"data\":{\"k\":\"1\"}}";
        assertThat(http.patch(path + "?fieldManager=alice", APPLY, alice).statusCode())
                .isEqualTo(201);
        String bob = alice.replace("\"1\"", "\"2\"");
        HttpResponse<String> conflict = http.patch(path + "?fieldManager=bob", APPLY, bob);
        assertThat(conflict.statusCode()).isEqualTo(409);
        JsonNode status = RawHttp.json(conflict);
        assertThat(status.path("reason").asString()).isEqualTo("Conflict");
        assertThat(status.path("message").asString())
                .isEqualTo("Apply failed with 1 conflict: conflict with \"alice\": .data.k");
        JsonNode cause = status.path("details").path("causes").get(0);
        assertThat(cause.path("reason").asString()).isEqualTo("FieldManagerConflict");
        assertThat(cause.path("field").asString()).isEqualTo(".data.k");
        assertThat(status.path("details").path("name").asString()).isEqualTo("a");
        assertThat(status.path("details").path("kind").asString()).isEqualTo("configmaps");

        HttpResponse<String> forced = http.patch(path + "?fieldManager=bob&force=true", APPLY, bob);
        assertThat(forced.statusCode()).isEqualTo(200);
        assertThat(RawHttp.json(forced).path("data").path("k").asString()).isEqualTo("2");
        assertThat(managers(RawHttp.json(forced))).containsExactly("bob/Apply");
    }

    @Test
    void applyConflictsWithTheUpdateEntryOfAnEarlierCreate() {
        String ns = http.newNamespace("w");
        String path = "/api/v1/namespaces/" + ns + "/configmaps";
        HttpResponse<String> created = send(
                "POST",
                path,
                "application/json",
                "{\"metadata\":{\"name\":\"a\"},\"data\":{\"k\":\"1\"}}",
                "kubectl/v1.32.4 (linux/amd64) kubernetes/59526cd");
        assertThat(managers(RawHttp.json(created))).containsExactly("kubectl/Update");
        String config =
                "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"data\":{\"k\":\"1\"}}";
        HttpResponse<String> same = http.patch(path + "/a?fieldManager=ssa", APPLY, config);
        assertThat(same.statusCode()).isEqualTo(200);
        assertThat(managers(RawHttp.json(same))).containsExactlyInAnyOrder("ssa/Apply", "kubectl/Update");
        HttpResponse<String> conflict =
                http.patch(path + "/a?fieldManager=ssa", APPLY, config.replace("\"1\"", "\"2\""));
        assertThat(conflict.statusCode()).isEqualTo(409);
        assertThat(RawHttp.json(conflict).path("message").asString())
                .isEqualTo("Apply failed with 1 conflict: conflict with \"kubectl\" using v1: .data.k");
    }

    @Test
    void nonApplyWritesMoveOwnershipToTheWriter() {
        String ns = http.newNamespace("w");
        String path = "/api/v1/namespaces/" + ns + "/configmaps/a";
        http.patch(
                path + "?fieldManager=alice",
                APPLY,
                "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"data\":{\"k\":\"1\"}}");
        HttpResponse<String> r = http.patch(path + "?fieldManager=carol", MERGE, "{\"data\":{\"k\":\"2\"}}");
        JsonNode o = RawHttp.json(r);
        assertThat(managers(o)).containsExactly("carol/Update");
        assertThat(o.path("metadata")
                        .path("managedFields")
                        .get(0)
                        .path("fieldsV1")
                        .path("f:data")
                        .has("f:k"))
                .isTrue();
    }

    @Test
    void applyOfAFieldTheBuiltInKindLacksIs500LikeTheRealFieldManager() {
        String ns = http.newNamespace("w");
        HttpResponse<String> r = http.patch(
                "/api/v1/namespaces/" + ns + "/configmaps/a?fieldManager=x",
                APPLY,
                "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\",\"namespace\":\"" + ns
                        + "\"},\"foo\":1}");
        assertThat(r.statusCode()).isEqualTo(500);
        assertThat(RawHttp.json(r).path("message").asString())
                .isEqualTo("failed to create typed patch object (" + ns
                        + "/a; /v1, Kind=ConfigMap): .foo: field not declared in schema");
    }

    // ---- field validation

    @Test
    void strictUnknownFieldOnCreateIs400() {
        String ns = http.newNamespace("w");
        HttpResponse<String> r = http.post(
                "/apis/apps/v1/namespaces/" + ns + "/deployments?fieldValidation=Strict",
                deployment("d", "\"foo\":1,"));
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(RawHttp.json(r).path("message").asString())
                .isEqualTo("Deployment in version \"v1\" cannot be "
                        + "handled as a Deployment: strict decoding error: unknown field \"spec.foo\"");
        assertThat(http.get("/apis/apps/v1/namespaces/" + ns + "/deployments/d").statusCode())
                .isEqualTo(404);
    }

    @Test
    void defaultValidationWarnsAndDropsTheUnknownField() {
        String ns = http.newNamespace("w");
        HttpResponse<String> r =
                http.post("/apis/apps/v1/namespaces/" + ns + "/deployments", deployment("d", "\"foo\":1,"));
        assertThat(r.statusCode()).isEqualTo(201);
        assertThat(r.headers().allValues("Warning")).containsExactly("299 - \"unknown field \\\"spec.foo\\\"\"");
        assertThat(RawHttp.json(r).path("spec").has("foo")).isFalse();
        HttpResponse<String> ignored = http.post(
                "/apis/apps/v1/namespaces/" + ns + "/deployments?fieldValidation=Ignore",
                deployment("e", "\"foo\":1,"));
        assertThat(ignored.statusCode()).isEqualTo(201);
        assertThat(ignored.headers().allValues("Warning")).isEmpty();
    }

    @Test
    void strictDuplicateFieldIsReportedBeforeUnknownOnes() {
        String ns = http.newNamespace("w");
        HttpResponse<String> r = http.post(
                "/api/v1/namespaces/" + ns + "/configmaps?fieldValidation=Strict",
                "{\"metadata\":{\"name\":\"a\"},\"data\":{\"k\":\"1\",\"k\":\"2\"},\"foo\":true}");
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(RawHttp.json(r).path("message").asString())
                .isEqualTo("ConfigMap in version \"v1\" cannot be handled "
                        + "as a ConfigMap: strict decoding error: duplicate field \"data.k\", unknown field \"foo\"");
    }

    @Test
    void strictUnknownFieldOnPatchIs422() {
        String ns = http.newNamespace("w");
        http.post("/api/v1/namespaces/" + ns + "/configmaps", "{\"metadata\":{\"name\":\"a\"}}");
        HttpResponse<String> r = http.patch(
                "/api/v1/namespaces/" + ns + "/configmaps/a?fieldValidation=Strict", MERGE, "{\"spec\":{\"x\":1}}");
        assertThat(r.statusCode()).isEqualTo(422);
        JsonNode status = RawHttp.json(r);
        assertThat(status.path("message").asString())
                .startsWith(" \"\" is invalid: patch: Invalid value: \"{")
                .endsWith("\": strict decoding error: unknown field \"spec\"");
        assertThat(status.path("details").path("causes").get(0).path("field").asString())
                .isEqualTo("patch");
    }
}
