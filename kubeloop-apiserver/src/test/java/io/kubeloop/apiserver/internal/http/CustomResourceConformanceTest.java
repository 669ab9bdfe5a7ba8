package io.kubeloop.apiserver.internal.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kubeloop.apiserver.EmbeddedApiServer;
import io.kubeloop.apiserver.ServerInternals;
import io.kubeloop.apiserver.ServerOptions;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * CustomResourceDefinitions as kube-apiserver serves them, over real HTTPS: establishing and
 * discovery, validation of the CRD itself, structural schemas and pruning, defaulting, the status and
 * scale subresources, additional printer columns, multiple versions and deletion of a CRD with its
 * objects.
 */
class CustomResourceConformanceTest {

    private static final String TABLE = "application/json;as=Table;v=v1;g=meta.k8s.io,application/json";
    private static final String CRDS = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
    private static final String FOO_V = "samplecontroller.k8s.io/v1alpha1";

    static EmbeddedApiServer server;
    static RawHttp http;

    @BeforeAll
    static void start() {
        server = EmbeddedApiServer.start(ServerOptions.defaults());
        http = new RawHttp(server);
        CrdFixtures.install(http, CrdFixtures.FOO);
        CrdFixtures.install(http, CrdFixtures.WIDGET);
        CrdFixtures.install(http, CrdFixtures.GADGET);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static String foos(String ns) {
        return "/apis/samplecontroller.k8s.io/v1alpha1/namespaces/" + ns + "/foos";
    }

    private static String widgets(String version, String ns) {
        return "/apis/example.com/" + version + "/namespaces/" + ns + "/widgets";
    }

    private static JsonNode createFoo(String ns, String name, String spec) {
        HttpResponse<String> r = http.post(foos(ns), CrdFixtures.object(FOO_V, "Foo", name, spec));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
        return RawHttp.json(r);
    }

    private static JsonNode createWidget(String ns, String name, String spec) {
        HttpResponse<String> r =
                http.post(widgets("v1", ns), CrdFixtures.object("example.com/v1", "Widget", name, spec));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
        return RawHttp.json(r);
    }

    private static List<String> columnNames(JsonNode table) {
        List<String> out = new ArrayList<>();
        table.path("columnDefinitions").forEach(c -> out.add(c.path("name").asString()));
        return out;
    }

    @Test
    void customResourceTableIsNamePlusPrinterColumnsOrNameAndAge() {
        String ns = http.newNamespace("crd");
        createWidget(ns, "w", "{\"replicas\":2,\"color\":\"red\"}");
        JsonNode t = RawHttp.json(http.get(widgets("v1", ns), TABLE));
        assertThat(columnNames(t)).containsExactly("Name", "Replicas", "Color", "Ready", "Age");
        assertThat(t.path("columnDefinitions").get(2).path("priority").asInt()).isEqualTo(1);
        JsonNode cells = t.path("rows").get(0).path("cells");
        assertThat(cells.get(0).asString()).isEqualTo("w");
        assertThat(cells.get(1).asInt()).isEqualTo(2);
        assertThat(cells.get(2).asString()).isEqualTo("red");
        assertThat(cells.get(3).isNull()).isTrue();
        assertThat(cells.get(4).asString()).matches("\\d+s");

        createFoo(ns, "f", "{\"replicas\":1}");
        JsonNode foos = RawHttp.json(http.get(foos(ns), TABLE));
        assertThat(columnNames(foos)).containsExactly("Name", "Age");
        assertThat(foos.path("rows").get(0).path("cells").size()).isEqualTo(2);
    }

    @Test
    void printerColumnFiltersSelectTheMatchingCondition() {
        String ns = http.newNamespace("crd");
        createWidget(ns, "w", "{\"replicas\":1}");
        JsonNode w = RawHttp.json(http.get(widgets("v1", ns) + "/w"));
        String status = "{\"apiVersion\":\"example.com/v1\",\"kind\":\"Widget\",\"metadata\":{\"name\":\"w\","
                + "\"resourceVersion\":\""
                + w.path("metadata").path("resourceVersion").asString() + "\"},"
                + "\"status\":{\"conditions\":[{\"type\":\"Synced\",\"status\":\"False\"},{\"type\":\"Ready\",\"status\":\"True\"}]}}";
        assertThat(http.put(widgets("v1", ns) + "/w/status", status).statusCode())
                .isEqualTo(200);
        JsonNode t = RawHttp.json(http.get(widgets("v1", ns) + "/w", TABLE));
        assertThat(t.path("rows").get(0).path("cells").get(3).asString()).isEqualTo("True");
    }

    @Test
    void putWithoutResourceVersionIs422ForCustomResources() {
        String ns = http.newNamespace("crd");
        createFoo(ns, "f", "{\"replicas\":1}");
        HttpResponse<String> r = http.put(foos(ns) + "/f", CrdFixtures.object(FOO_V, "Foo", "f", "{\"replicas\":2}"));
        assertThat(r.statusCode()).isEqualTo(422);
        assertThat(RawHttp.json(r).path("message").asString()).contains("metadata.resourceVersion");
    }

    @Test
    void labelOnlyChangeKeepsGenerationSpecChangeBumpsIt() {
        String ns = http.newNamespace("crd");
        JsonNode f = createFoo(ns, "f", "{\"replicas\":1}");
        assertThat(f.path("metadata").path("generation").asLong()).isEqualTo(1);
        JsonNode labelled = RawHttp.json(http.patch(
                foos(ns) + "/f", "application/merge-patch+json", "{\"metadata\":{\"labels\":{\"a\":\"b\"}}}"));
        assertThat(labelled.path("metadata").path("generation").asLong()).isEqualTo(1);
        JsonNode changed = RawHttp.json(
                http.patch(foos(ns) + "/f", "application/merge-patch+json", "{\"spec\":{\"replicas\":3}}"));
        assertThat(changed.path("metadata").path("generation").asLong()).isEqualTo(2);
    }

    @Test
    void statusSubresourceSplitsMainAndStatusWithoutGenerationBump() {
        String ns = http.newNamespace("crd");
        HttpResponse<String> created = http.post(
                foos(ns),
                "{\"apiVersion\":\"" + FOO_V + "\",\"kind\":\"Foo\","
                        + "\"metadata\":{\"name\":\"f\"},\"spec\":{\"replicas\":1},\"status\":{\"availableReplicas\":5}}");
        assertThat(RawHttp.json(created).has("status")).isFalse();
        JsonNode viaMain = RawHttp.json(
                http.patch(foos(ns) + "/f", "application/merge-patch+json", "{\"status\":{\"availableReplicas\":5}}"));
        assertThat(viaMain.has("status")).isFalse();
        JsonNode viaStatus = RawHttp.json(http.patch(
                foos(ns) + "/f/status",
                "application/merge-patch+json",
                "{\"spec\":{\"replicas\":7},\"status\":{\"availableReplicas\":2}}"));
        assertThat(viaStatus.path("status").path("availableReplicas").asInt()).isEqualTo(2);
        assertThat(viaStatus.path("spec").path("replicas").asInt()).isEqualTo(1);
        assertThat(viaStatus.path("metadata").path("generation").asLong()).isEqualTo(1);
    }

    @Test
    void strategicMergePatchOnCustomResourceIs415() {
        String ns = http.newNamespace("crd");
        createFoo(ns, "f", "{\"replicas\":1}");
        HttpResponse<String> r =
                http.patch(foos(ns) + "/f", "application/strategic-merge-patch+json", "{\"spec\":{\"replicas\":2}}");
        assertThat(r.statusCode()).isEqualTo(415);
        assertThat(RawHttp.json(r).path("reason").asString()).isEqualTo("UnsupportedMediaType");
    }

    @Test
    void newCrdIsNamesAcceptedAndEstablishedWithAcceptedNames() {
        JsonNode crd = CrdFixtures.awaitCondition(http, "foos.samplecontroller.k8s.io", "Established", "True");
        JsonNode names = CrdFixtures.condition(crd, "NamesAccepted").orElseThrow();
        assertThat(names.path("status").asString()).isEqualTo("True");
        assertThat(names.path("reason").asString()).isEqualTo("NoConflicts");
        assertThat(CrdFixtures.condition(crd, "Established")
                        .orElseThrow()
                        .path("reason")
                        .asString())
                .isEqualTo("InitialNamesAccepted");
        JsonNode accepted = crd.path("status").path("acceptedNames");
        assertThat(accepted.path("plural").asString()).isEqualTo("foos");
        assertThat(accepted.path("singular").asString()).isEqualTo("foo");
        assertThat(accepted.path("kind").asString()).isEqualTo("Foo");
        assertThat(accepted.path("listKind").asString()).isEqualTo("FooList");
        assertThat(crd.path("spec").path("names").path("singular").asString()).isEqualTo("foo");
        assertThat(crd.path("status").path("storedVersions").get(0).asString()).isEqualTo("v1alpha1");
    }

    @Test
    void clusterScopedCustomResourceUnderNamespacesIs404() {
        HttpResponse<String> created = http.post(
                "/apis/example.com/v1/gadgets", CrdFixtures.object("example.com/v1", "Gadget", "g55", "{\"size\":3}"));
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        assertThat(RawHttp.json(created).path("metadata").has("namespace")).isFalse();
        assertThat(http.get("/apis/example.com/v1/gadgets/g55").statusCode()).isEqualTo(200);
        assertThat(http.get("/apis/example.com/v1/namespaces/default/gadgets/g55")
                        .statusCode())
                .isEqualTo(404);
        assertThat(http.get("/apis/example.com/v1/namespaces/default/gadgets").statusCode())
                .isEqualTo(404);
        JsonNode t = RawHttp.json(http.get("/apis/example.com/v1/gadgets", TABLE));
        assertThat(columnNames(t)).containsExactly("Name", "Age");
    }

    @Test
    void schemaViolationIs422NamingTheFieldAndUnknownFieldsArePruned() {
        String ns = http.newNamespace("crd");
        HttpResponse<String> bad = http.post(
                foos(ns), CrdFixtures.object(FOO_V, "Foo", "bad", "{\"replicas\":\"three\",\"deploymentName\":7}"));
        assertThat(bad.statusCode()).isEqualTo(422);
        JsonNode status = RawHttp.json(bad);
        assertThat(status.path("reason").asString()).isEqualTo("Invalid");
        assertThat(status.path("details").path("causes").findValuesAsString("field"))
                .contains("spec.replicas", "spec.deploymentName");
        HttpResponse<String> tooMany =
                http.post(foos(ns), CrdFixtures.object(FOO_V, "Foo", "big", "{\"replicas\":11}"));
        assertThat(tooMany.statusCode()).isEqualTo(422);
        assertThat(RawHttp.json(tooMany).path("message").asString()).contains("spec.replicas");

        HttpResponse<String> pruned =
                http.post(foos(ns), CrdFixtures.object(FOO_V, "Foo", "ok", "{\"replicas\":1,\"extra\":true}"));
        assertThat(pruned.statusCode()).isEqualTo(201);
        assertThat(RawHttp.json(pruned).path("spec").has("extra")).isFalse();
        assertThat(pruned.headers().firstValue("Warning").orElse("")).contains("unknown field \\\"spec.extra\\\"");
        assertThat(RawHttp.json(http.get(foos(ns) + "/ok")).path("spec").has("extra"))
                .isFalse();
    }

    @Test
    void strictFieldValidationRejectsUnknownFieldsWith400() {
        String ns = http.newNamespace("crd");
        HttpResponse<String> r = http.post(
                foos(ns) + "?fieldValidation=Strict",
                CrdFixtures.object(FOO_V, "Foo", "s", "{\"replicas\":1,\"foo\":1}"));
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(RawHttp.json(r).path("message").asString())
                .isEqualTo("Foo in version \"v1alpha1\" cannot be handled as a Foo: strict decoding error: "
                        + "unknown field \"spec.foo\"");
    }

    @Test
    void schemaDefaultsAreAppliedOnWrite() {
        String ns = http.newNamespace("crd");
        JsonNode w = createWidget(ns, "d", "{\"replicas\":1}");
        assertThat(w.path("spec").path("color").asString()).isEqualTo("blue");
    }

    @Test
    void crdDeleteRemovesCustomResourcesThenItselfAndCreatesMeanwhileAre405() throws Exception {
        CrdFixtures.install(http, CrdFixtures.simple("delete.example.com", "things", "Thing"));
        String ns = http.newNamespace("crd");
        String things = "/apis/delete.example.com/v1/namespaces/" + ns + "/things";
        for (String n : List.of("a", "b")) {
            assertThat(http.post(things, CrdFixtures.object("delete.example.com/v1", "Thing", n, "{}"))
                            .statusCode())
                    .isEqualTo(201);
        }
        // "held" keeps a finalizer so the CRD stays terminating until we remove it
        assertThat(http.post(
                                things,
                                "{\"apiVersion\":\"delete.example.com/v1\",\"kind\":\"Thing\",\"metadata\":"
                                        + "{\"name\":\"held\",\"finalizers\":[\"example.com/hold\"]},\"spec\":{}}")
                        .statusCode())
                .isEqualTo(201);
        try (RawHttp.Lines watch = http.watch(things + "?watch=true&resourceVersion=0")) {
            assertThat(http.delete(CRDS + "/things.delete.example.com").statusCode())
                    .isEqualTo(200);
            JsonNode crd = CrdFixtures.awaitCondition(http, "things.delete.example.com", "Terminating", "True");
            assertThat(crd.path("metadata").path("finalizers").get(0).asString())
                    .isEqualTo("customresourcecleanup.apiextensions.k8s.io");
            HttpResponse<String> create =
                    http.post(things, CrdFixtures.object("delete.example.com/v1", "Thing", "c", "{}"));
            assertThat(create.statusCode()).isEqualTo(405);
            assertThat(RawHttp.json(create).path("message").asString())
                    .isEqualTo("create not allowed while custom resource definition is terminating");
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> http.get(things + "/a").statusCode() == 404
                            && http.get(things + "/b").statusCode() == 404);
            JsonNode held = RawHttp.json(http.get(things + "/held"));
            assertThat(held.path("metadata").has("deletionTimestamp")).isTrue();
            assertThat(http.get(CRDS + "/things.delete.example.com").statusCode())
                    .isEqualTo(200);
            JsonNode discovery = RawHttp.json(http.get("/apis/delete.example.com/v1"));
            List<String> verbs = new ArrayList<>();
            discovery.path("resources").get(0).path("verbs").forEach(v -> verbs.add(v.asString()));
            assertThat(verbs).containsExactly("delete", "deletecollection", "get", "list", "watch");
            assertThat(CrdFixtures.condition(crd, "Terminating")
                            .orElseThrow()
                            .path("reason")
                            .asString())
                    .isIn("InstanceDeletionPending", "InstanceDeletionInProgress");
            assertThat(CrdFixtures.condition(RawHttp.json(http.get(CRDS + "/things.delete.example.com")), "Terminating")
                            .orElseThrow()
                            .path("reason")
                            .asString())
                    .isEqualTo("InstanceDeletionInProgress");

            String release =
                    "{\"apiVersion\":\"delete.example.com/v1\",\"kind\":\"Thing\",\"metadata\":{\"name\":\"held\","
                            + "\"resourceVersion\":\""
                            + held.path("metadata").path("resourceVersion").asString()
                            + "\",\"finalizers\":[]},\"spec\":{}}";
            assertThat(http.put(things + "/held", release).statusCode()).isEqualTo(200);
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> http.get(CRDS + "/things.delete.example.com").statusCode() == 404);
            await().atMost(Duration.ofSeconds(10)).until(() -> http.get(things).statusCode() == 404);
            // the watch saw the objects go and then ended
            List<String> events = new ArrayList<>();
            for (JsonNode e = watch.next(); e != null; e = watch.next()) {
                events.add(e.path("type").asString() + " "
                        + e.path("object").path("metadata").path("name").asString());
            }
            assertThat(events).contains("DELETED a", "DELETED b", "DELETED held");
        }
        assertThat(http.get("/apis/delete.example.com/v1").statusCode()).isEqualTo(404);
    }

    @Test
    void conflictingNamesAreNotAcceptedAndNotServed() {
        // same group as widgets, kind Widget again -> KindConflict; listKind WidgetList -> conflicts too
        String clash = """
                {"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
                 "metadata":{"name":"otherwidgets.example.com"},
                 "spec":{"group":"example.com","scope":"Namespaced","names":{"kind":"Other","plural":"otherwidgets",
                   "listKind":"WidgetList"},
                   "versions":[{"name":"v1","served":true,"storage":true,
                     "schema":{"openAPIV3Schema":{"type":"object"}}}]}}
                """;
        assertThat(http.post(CRDS, clash).statusCode()).isEqualTo(201);
        JsonNode crd = CrdFixtures.awaitCondition(http, "otherwidgets.example.com", "NamesAccepted", "False");
        JsonNode names = CrdFixtures.condition(crd, "NamesAccepted").orElseThrow();
        assertThat(names.path("reason").asString()).isEqualTo("ListKindConflict");
        assertThat(names.path("message").asString()).isEqualTo("\"WidgetList\" is already in use");
        JsonNode established = CrdFixtures.condition(crd, "Established").orElseThrow();
        assertThat(established.path("status").asString()).isEqualTo("False");
        assertThat(established.path("reason").asString()).isEqualTo("NotAccepted");
        assertThat(http.get("/apis/example.com/v1/namespaces/default/otherwidgets")
                        .statusCode())
                .isEqualTo(404);
    }

    @Test
    void crdWithoutStructuralSchemaOrStorageVersionIs422WithCauses() {
        String bad = """
                {"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
                 "metadata":{"name":"bads.example.com"},
                 "spec":{"group":"example","scope":"Somewhere","names":{"kind":"Bad","plural":"Bads"},
                   "versions":[{"name":"v1","served":true,"storage":false,
                     "schema":{"openAPIV3Schema":{"type":"object","properties":{"spec":{"properties":{"a":{"type":"string"}}}}}}}]}}
                """;
        HttpResponse<String> r = http.post(CRDS, bad);
        assertThat(r.statusCode()).isEqualTo(422);
        JsonNode status = RawHttp.json(r);
        assertThat(status.path("details").path("kind").asString()).isEqualTo("CustomResourceDefinition");
        assertThat(status.path("details").path("causes").findValuesAsString("field"))
                .contains(
                        "metadata.name",
                        "spec.group",
                        "spec.scope",
                        "spec.names.plural",
                        "spec.versions",
                        "spec.versions[0].schema.openAPIV3Schema.properties[spec].type");
        assertThat(status.path("message").asString())
                .contains(
                        "must have exactly one version marked as storage version",
                        "should be a domain with at least one dot");
    }

    @Test
    void versionsAreServedWithApiVersionRewrittenAndUnservedOnes404() {
        String ns = http.newNamespace("crd");
        HttpResponse<String> viaBeta = http.post(
                widgets("v1beta1", ns), CrdFixtures.object("example.com/v1beta1", "Widget", "m", "{\"replicas\":1}"));
        assertThat(viaBeta.statusCode()).isEqualTo(201);
        assertThat(RawHttp.json(viaBeta).path("apiVersion").asString()).isEqualTo("example.com/v1beta1");
        JsonNode v1 = RawHttp.json(http.get(widgets("v1", ns) + "/m"));
        assertThat(v1.path("apiVersion").asString()).isEqualTo("example.com/v1");
        assertThat(v1.path("metadata").path("uid"))
                .isEqualTo(RawHttp.json(viaBeta).path("metadata").path("uid"));
        JsonNode list = RawHttp.json(http.get(widgets("v1beta1", ns)));
        assertThat(list.path("apiVersion").asString()).isEqualTo("example.com/v1beta1");
        assertThat(list.path("items").get(0).path("apiVersion").asString()).isEqualTo("example.com/v1beta1");
        assertThat(http.get(widgets("v1alpha1", ns)).statusCode()).isEqualTo(404);
        assertThat(ServerInternals.store(server)
                        .get("example.com/widgets", ns + "/m")
                        .orElseThrow()
                        .object()
                        .path("apiVersion")
                        .asString())
                .isEqualTo("example.com/v1");
        JsonNode group = RawHttp.json(http.get("/apis/example.com"));
        assertThat(group.path("versions").findValuesAsString("version")).containsExactly("v1", "v1beta1");
        assertThat(group.path("preferredVersion").path("version").asString()).isEqualTo("v1");
    }

    @Test
    void discoveryListsCustomResourcesWithNamesSubresourcesAndVerbs() {
        JsonNode rl = RawHttp.json(http.get("/apis/example.com/v1"));
        JsonNode widgets = null;
        List<String> names = new ArrayList<>();
        for (JsonNode r : rl.path("resources")) {
            names.add(r.path("name").asString());
            if (r.path("name").asString().equals("widgets")) {
                widgets = r;
            }
        }
        assertThat(names).contains("widgets", "widgets/status", "widgets/scale", "gadgets");
        assertThat(widgets).isNotNull();
        assertThat(widgets.path("shortNames").get(0).asString()).isEqualTo("wd");
        assertThat(widgets.path("categories").get(0).asString()).isEqualTo("all");
        assertThat(widgets.path("verbs")).hasSize(8);
        JsonNode agg =
                RawHttp.json(http.get("/apis", "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList"));
        JsonNode exampleGroup = null;
        for (JsonNode g : agg.path("items")) {
            if (g.path("metadata").path("name").asString().equals("samplecontroller.k8s.io")) {
                exampleGroup = g;
            }
        }
        assertThat(exampleGroup).isNotNull();
        JsonNode foo = exampleGroup.path("versions").get(0).path("resources").get(0);
        assertThat(foo.path("resource").asString()).isEqualTo("foos");
        assertThat(foo.path("responseKind").path("kind").asString()).isEqualTo("Foo");
        assertThat(foo.path("subresources").get(0).path("subresource").asString())
                .isEqualTo("status");
    }

    @Test
    void scaleSubresourceOfCustomResourceReadsAndWritesThroughItsPaths() {
        String ns = http.newNamespace("crd");
        createWidget(ns, "s", "{\"replicas\":2}");
        JsonNode w = RawHttp.json(http.get(widgets("v1", ns) + "/s"));
        String status = "{\"apiVersion\":\"example.com/v1\",\"kind\":\"Widget\",\"metadata\":{\"name\":\"s\","
                + "\"resourceVersion\":\""
                + w.path("metadata").path("resourceVersion").asString() + "\"},"
                + "\"status\":{\"replicas\":2,\"selector\":\"app=s\"}}";
        assertThat(http.put(widgets("v1", ns) + "/s/status", status).statusCode())
                .isEqualTo(200);
        JsonNode scale = RawHttp.json(http.get(widgets("v1", ns) + "/s/scale"));
        assertThat(scale.path("kind").asString()).isEqualTo("Scale");
        assertThat(scale.path("apiVersion").asString()).isEqualTo("autoscaling/v1");
        assertThat(scale.path("spec").path("replicas").asInt()).isEqualTo(2);
        assertThat(scale.path("status").path("replicas").asInt()).isEqualTo(2);
        assertThat(scale.path("status").path("selector").asString()).isEqualTo("app=s");
        JsonNode patched = RawHttp.json(http.patch(
                widgets("v1", ns) + "/s/scale", "application/merge-patch+json", "{\"spec\":{\"replicas\":5}}"));
        assertThat(patched.path("spec").path("replicas").asInt()).isEqualTo(5);
        JsonNode after = RawHttp.json(http.get(widgets("v1", ns) + "/s"));
        assertThat(after.path("spec").path("replicas").asInt()).isEqualTo(5);
        assertThat(after.path("metadata").path("generation").asLong()).isEqualTo(2);
        assertThat(after.path("status").path("replicas").asInt()).isEqualTo(2);
        String stale = "{\"apiVersion\":\"autoscaling/v1\",\"kind\":\"Scale\",\"metadata\":{\"name\":\"s\","
                + "\"resourceVersion\":\"1\"},\"spec\":{\"replicas\":1}}";
        assertThat(http.put(widgets("v1", ns) + "/s/scale", stale).statusCode()).isEqualTo(409);
        assertThat(http.get(foos("default") + "/x/scale").statusCode()).isEqualTo(404);
    }

    @Test
    void scaleSubresourceOfDeploymentWorks() {
        String ns = http.newNamespace("crd");
        String deployments = "/apis/apps/v1/namespaces/" + ns + "/deployments";
        String d = "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{\"name\":\"web\"},\"spec\":{"
                + "\"replicas\":1,\"selector\":{\"matchLabels\":{\"app\":\"web\"}},\"template\":{\"metadata\":{\"labels\":"
                + "{\"app\":\"web\"}},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"nginx\"}]}}}}";
        assertThat(http.post(deployments, d).statusCode()).isEqualTo(201);
        JsonNode scale = RawHttp.json(http.get(deployments + "/web/scale"));
        assertThat(scale.path("spec").path("replicas").asInt()).isEqualTo(1);
        assertThat(scale.path("status").path("selector").asString()).isEqualTo("app=web");
        String put = "{\"apiVersion\":\"autoscaling/v1\",\"kind\":\"Scale\",\"metadata\":{\"name\":\"web\"},"
                + "\"spec\":{\"replicas\":3}}";
        HttpResponse<String> r = http.put(deployments + "/web/scale", put);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        assertThat(RawHttp.json(r).path("spec").path("replicas").asInt()).isEqualTo(3);
        assertThat(RawHttp.json(http.get(deployments + "/web"))
                        .path("spec")
                        .path("replicas")
                        .asInt())
                .isEqualTo(3);
        HttpResponse<String> negative =
                http.patch(deployments + "/web/scale", "application/merge-patch+json", "{\"spec\":{\"replicas\":-1}}");
        assertThat(negative.statusCode()).isEqualTo(422);
    }

    @Test
    void watchOfCustomResourcesSeesWritesInTheWatchedVersion() {
        String ns = http.newNamespace("crd");
        try (RawHttp.Lines watch = http.watch(widgets("v1beta1", ns) + "?watch=true")) {
            createWidget(ns, "x", "{\"replicas\":1}");
            JsonNode e = watch.next();
            assertThat(e.path("type").asString()).isEqualTo("ADDED");
            assertThat(e.path("object").path("apiVersion").asString()).isEqualTo("example.com/v1beta1");
        }
    }
}
