package io.kubeloop.apiserver.internal.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kubeloop.apiserver.EmbeddedApiServer;
import io.kubeloop.apiserver.ServerOptions;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** Garbage collection by ownerReferences, over real HTTPS against an embedded server. */
class GarbageCollectionTest {

    /** The server these tests share: started before the first, closed after the last. */
    @AutoClose
    private static EmbeddedApiServer shared;

    private static final Duration GC_WAIT = Duration.ofSeconds(10);

    static EmbeddedApiServer server;
    static RawHttp http;

    @BeforeAll
    static void connect() {
        EmbeddedApiServer embedded = shared = EmbeddedApiServer.start(ServerOptions.defaults());
        server = embedded;
        http = new RawHttp(embedded);
    }

    /** An ownerReference (JSON) to {@code owner}. */
    static String ref(JsonNode owner, boolean block) {
        return "{\"apiVersion\":\"" + owner.path("apiVersion").asString() + "\",\"kind\":\""
                + owner.path("kind").asString()
                + "\",\"name\":\"" + owner.path("metadata").path("name").asString() + "\",\"uid\":\""
                + owner.path("metadata").path("uid").asString() + "\"" + (block ? ",\"blockOwnerDeletion\":true" : "")
                + "}";
    }

    private static String refs(String... refs) {
        return "[" + String.join(",", refs) + "]";
    }

    static JsonNode post(String path, String body) {
        HttpResponse<String> r = http.post(path, body);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
        return RawHttp.json(r);
    }

    private static JsonNode configMap(String ns, String name, String ownerRefs, String finalizers) {
        return post(
                "/api/v1/namespaces/" + ns + "/configmaps",
                "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{"
                        + "\"name\":\"" + name + "\"" + (ownerRefs == null ? "" : ",\"ownerReferences\":" + ownerRefs)
                        + (finalizers == null ? "" : ",\"finalizers\":" + finalizers) + "}}");
    }

    private static String cmPath(String ns, String name) {
        return "/api/v1/namespaces/" + ns + "/configmaps/" + name;
    }

    static void awaitGone(String path) {
        await().atMost(GC_WAIT)
                .pollInterval(Duration.ofMillis(20))
                .until(() -> http.get(path).statusCode() == 404);
    }

    static JsonNode get(String path) {
        HttpResponse<String> r = http.get(path);
        assertThat(r.statusCode()).as(path + ": " + r.body()).isEqualTo(200);
        return RawHttp.json(r);
    }

    /** Gives the collector time to act on anything it might wrongly act on; used before asserting that nothing happened. */
    private static void settle() {
        // a marker object whose owner never existed: once it is collected, the collector has worked through
        // everything queued before it
        String ns = "default";
        String name = "settle-" + UUID.randomUUID();
        configMap(
                ns,
                name,
                refs("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"name\":\"nobody\",\"uid\":\"" + UUID.randomUUID()
                        + "\"}"),
                null);
        awaitGone(cmPath(ns, name));
    }

    private static List<String> ownerUids(JsonNode o) {
        List<String> out = new ArrayList<>();
        o.path("metadata")
                .path("ownerReferences")
                .forEach(r -> out.add(r.path("uid").asString()));
        return out;
    }

    @Test
    void backgroundDeletionCollectsTheDependentsOfTheDeletedOwner() {
        String ns = http.newNamespace("gc");
        JsonNode owner = configMap(ns, "owner", null, null);
        configMap(ns, "dep1", refs(ref(owner, false)), null);
        configMap(ns, "dep2", refs(ref(owner, true)), null);
        assertThat(http.delete(cmPath(ns, "owner"), "{\"propagationPolicy\":\"Background\"}")
                        .statusCode())
                .isEqualTo(200);
        assertThat(http.get(cmPath(ns, "owner")).statusCode()).isEqualTo(404); // the owner goes at once
        awaitGone(cmPath(ns, "dep1"));
        awaitGone(cmPath(ns, "dep2"));
    }

    @Test
    void dependentWithALiveOwnerStaysAndOnlyLosesTheDanglingReference() {
        String ns = http.newNamespace("gc");
        JsonNode a = configMap(ns, "a", null, null);
        JsonNode b = configMap(ns, "b", null, null);
        configMap(ns, "dep", refs(ref(a, false), ref(b, false)), null);
        assertThat(http.delete(cmPath(ns, "a")).statusCode()).isEqualTo(200);
        await().atMost(GC_WAIT).until(() -> ownerUids(get(cmPath(ns, "dep"))).size() == 1);
        settle();
        assertThat(ownerUids(get(cmPath(ns, "dep"))))
                .containsExactly(b.path("metadata").path("uid").asString());
    }

    @Test
    void dependentOfAnOwnerThatNeverExistedIsCollected() {
        String ns = http.newNamespace("gc");
        configMap(
                ns,
                "orphaned",
                refs("{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"name\":\"ghost\",\"uid\":\""
                        + UUID.randomUUID() + "\"}"),
                null);
        awaitGone(cmPath(ns, "orphaned"));
    }

    @Test
    void ownerWithTheSameNameButAnotherUidCountsAsVanished() {
        String ns = http.newNamespace("gc");
        configMap(ns, "owner", null, null);
        configMap(
                ns,
                "dep",
                refs("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"name\":\"owner\",\"uid\":\"" + UUID.randomUUID()
                        + "\"}"),
                null);
        awaitGone(cmPath(ns, "dep"));
        assertThat(http.get(cmPath(ns, "owner")).statusCode()).isEqualTo(200);
    }

    @Test
    void dependentWithALiveOwnerIsKept() {
        String ns = http.newNamespace("gc");
        JsonNode owner = configMap(ns, "owner", null, null);
        configMap(ns, "dep", refs(ref(owner, true)), null);
        settle();
        assertThat(ownerUids(get(cmPath(ns, "dep"))))
                .containsExactly(owner.path("metadata").path("uid").asString());
    }

    @Test
    void namespacedOwnerDoesNotOwnDependentsInAnotherNamespace() {
        String ns1 = http.newNamespace("gc");
        String ns2 = http.newNamespace("gc");
        JsonNode owner = configMap(ns1, "owner", null, null);
        configMap(ns2, "dep", refs(ref(owner, false)), null);
        awaitGone(cmPath(ns2, "dep"));
        assertThat(http.get(cmPath(ns1, "owner")).statusCode()).isEqualTo(200);
    }

    @Test
    void clusterScopedOwnerOwnsNamespacedDependents() {
        String ns = http.newNamespace("gc");
        JsonNode node =
                post("/api/v1/nodes", "{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"gc-node\"}}");
        configMap(ns, "dep", refs(ref(node, false)), null);
        settle();
        assertThat(http.get(cmPath(ns, "dep")).statusCode()).isEqualTo(200);
        assertThat(http.delete("/api/v1/nodes/gc-node").statusCode()).isEqualTo(200);
        awaitGone(cmPath(ns, "dep"));
    }

    @Test
    void foregroundDeletionRemovesAThreeLevelChainBottomUpBeforeTheOwner() {
        String ns = http.newNamespace("gc");
        JsonNode deploy = post("/apis/apps/v1/namespaces/" + ns + "/deployments", Workloads.deployment("web", null));
        JsonNode rs = post(
                "/apis/apps/v1/namespaces/" + ns + "/replicasets", Workloads.replicaSet("web-1", ref(deploy, true)));
        // the pod holds a finalizer, so the chain stops at the bottom until it is removed
        post(
                "/api/v1/namespaces/" + ns + "/pods",
                Workloads.pod("web-1-a", ref(rs, true), "[\"example.com/hold\"]", null));
        String deployPath = "/apis/apps/v1/namespaces/" + ns + "/deployments/web";
        String rsPath = "/apis/apps/v1/namespaces/" + ns + "/replicasets/web-1";
        String podPath = "/api/v1/namespaces/" + ns + "/pods/web-1-a";
        // the collector decides how to delete the ReplicaSet from the dependents it has observed (as
        // kube-controller-manager's does): let it observe the pod before the chain's deletion starts
        settle();

        JsonNode deleting = RawHttp.json(http.delete(deployPath, "{\"propagationPolicy\":\"Foreground\"}"));
        assertThat(deleting.path("metadata").path("finalizers").toString()).contains("foregroundDeletion");
        assertThat(deleting.path("metadata").path("deletionTimestamp").isMissingNode())
                .isFalse();
        // the ReplicaSet is deleted in the foreground too (its owner waits and it has dependents); the pod is marked
        await().atMost(GC_WAIT)
                .until(() -> get(podPath).path("metadata").has("deletionTimestamp")
                        && get(rsPath)
                                .path("metadata")
                                .path("finalizers")
                                .toString()
                                .contains("foregroundDeletion"));
        settle();
        assertThat(http.get(deployPath).statusCode()).isEqualTo(200);
        assertThat(http.get(rsPath).statusCode()).isEqualTo(200);

        assertThat(http.patch(podPath, "application/merge-patch+json", "{\"metadata\":{\"finalizers\":null}}")
                        .statusCode())
                .isEqualTo(200);
        awaitGone(podPath);
        awaitGone(rsPath);
        awaitGone(deployPath);
    }

    @Test
    void foregroundOwnerDoesNotWaitForNonBlockingDependents() {
        String ns = http.newNamespace("gc");
        JsonNode owner = configMap(ns, "owner", null, null);
        configMap(ns, "dep", refs(ref(owner, false)), "[\"example.com/hold\"]");
        http.delete(cmPath(ns, "owner"), "{\"propagationPolicy\":\"Foreground\"}");
        awaitGone(cmPath(ns, "owner"));
        await().atMost(GC_WAIT)
                .until(() -> get(cmPath(ns, "dep")).path("metadata").has("deletionTimestamp"));
    }

    @Test
    void orphanDeletionStripsTheReferencesThenTheOwnerGoes() {
        String ns = http.newNamespace("gc");
        JsonNode owner = configMap(ns, "owner", null, null);
        JsonNode other = configMap(ns, "other", null, null);
        configMap(ns, "dep1", refs(ref(owner, true)), null);
        configMap(ns, "dep2", refs(ref(owner, false), ref(other, false)), null);
        JsonNode deleting = RawHttp.json(http.delete(cmPath(ns, "owner"), "{\"propagationPolicy\":\"Orphan\"}"));
        assertThat(deleting.path("metadata").path("finalizers").toString()).contains("\"orphan\"");
        awaitGone(cmPath(ns, "owner"));
        assertThat(get(cmPath(ns, "dep1")).path("metadata").has("ownerReferences"))
                .isFalse();
        assertThat(ownerUids(get(cmPath(ns, "dep2"))))
                .containsExactly(other.path("metadata").path("uid").asString());
        settle();
        assertThat(http.get(cmPath(ns, "dep1")).statusCode()).isEqualTo(200);
    }

    @Test
    void deprecatedOrphanDependentsTrueOrphans() {
        String ns = http.newNamespace("gc");
        JsonNode owner = configMap(ns, "owner", null, null);
        configMap(ns, "dep", refs(ref(owner, false)), null);
        assertThat(http.delete(cmPath(ns, "owner") + "?orphanDependents=true").statusCode())
                .isEqualTo(200);
        awaitGone(cmPath(ns, "owner"));
        settle();
        assertThat(get(cmPath(ns, "dep")).path("metadata").has("ownerReferences"))
                .isFalse();
    }

    @Test
    void deletingAnObjectWithMultipleOwnersNeedsAllOfThemGone() {
        String ns = http.newNamespace("gc");
        JsonNode a = configMap(ns, "a", null, null);
        JsonNode b = configMap(ns, "b", null, null);
        configMap(ns, "dep", refs(ref(a, true), ref(b, true)), null);
        http.delete(cmPath(ns, "a"));
        await().atMost(GC_WAIT).until(() -> ownerUids(get(cmPath(ns, "dep"))).size() == 1);
        http.delete(cmPath(ns, "b"));
        awaitGone(cmPath(ns, "dep"));
    }

    @Test
    void deploymentDeletedInBackgroundTakesItsReplicaSetAndPods() {
        String ns = http.newNamespace("gc");
        JsonNode deploy = post("/apis/apps/v1/namespaces/" + ns + "/deployments", Workloads.deployment("web", null));
        JsonNode rs = post(
                "/apis/apps/v1/namespaces/" + ns + "/replicasets", Workloads.replicaSet("web-1", ref(deploy, true)));
        for (String p : List.of("a", "b", "c")) {
            post("/api/v1/namespaces/" + ns + "/pods", Workloads.pod("web-1-" + p, ref(rs, true), null, null));
        }
        assertThat(http.delete(
                                "/apis/apps/v1/namespaces/" + ns + "/deployments/web",
                                "{\"propagationPolicy\":\"Background\"}")
                        .statusCode())
                .isEqualTo(200);
        awaitGone("/apis/apps/v1/namespaces/" + ns + "/replicasets/web-1");
        await().atMost(GC_WAIT)
                .until(() ->
                        get("/api/v1/namespaces/" + ns + "/pods").path("items").isEmpty());
    }

    @Test
    void batchV1JobDeletedWithoutOptionsOrphansItsPods() {
        String ns = http.newNamespace("gc");
        JsonNode job = post("/apis/batch/v1/namespaces/" + ns + "/jobs", Workloads.job("once"));
        post("/api/v1/namespaces/" + ns + "/pods", Workloads.pod("once-x", ref(job, true), null, null));
        // the collector orphans the dependents it knows: let it see the Pod before the Job goes, or the
        // Pod is a dependent of a Job already gone (as with kube-controller-manager)
        settle();
        JsonNode deleting = RawHttp.json(http.delete("/apis/batch/v1/namespaces/" + ns + "/jobs/once"));
        assertThat(deleting.path("metadata").path("finalizers").toString()).contains("\"orphan\"");
        awaitGone("/apis/batch/v1/namespaces/" + ns + "/jobs/once");
        settle();
        assertThat(get("/api/v1/namespaces/" + ns + "/pods/once-x")
                        .path("metadata")
                        .has("ownerReferences"))
                .isFalse();

        JsonNode job2 = post("/apis/batch/v1/namespaces/" + ns + "/jobs", Workloads.job("twice"));
        post("/api/v1/namespaces/" + ns + "/pods", Workloads.pod("twice-x", ref(job2, true), null, null));
        http.delete("/apis/batch/v1/namespaces/" + ns + "/jobs/twice", "{\"propagationPolicy\":\"Background\"}");
        awaitGone("/api/v1/namespaces/" + ns + "/pods/twice-x");
    }

    @Test
    void repeatedDeleteWithAnotherPolicySwapsThePolicyFinalizer() {
        String ns = http.newNamespace("gc");
        configMap(ns, "owner", null, "[\"example.com/hold\"]");
        JsonNode first = RawHttp.json(http.delete(cmPath(ns, "owner"), "{\"propagationPolicy\":\"Foreground\"}"));
        assertThat(first.path("metadata").path("finalizers").toString()).contains("foregroundDeletion");
        JsonNode second = RawHttp.json(http.delete(cmPath(ns, "owner"), "{\"propagationPolicy\":\"Orphan\"}"));
        assertThat(second.path("metadata").path("finalizers").toString())
                .contains("\"orphan\"")
                .doesNotContain("foregroundDeletion");
        assertThat(second.path("metadata").path("deletionTimestamp"))
                .isEqualTo(first.path("metadata").path("deletionTimestamp"));
    }

    @Test
    void customResourcesOwnAndAreOwned() {
        String ns = http.newNamespace("gc");
        CrdFixtures.install(http, CrdFixtures.simple("gc.example.com", "things", "Thing"));
        String things = "/apis/gc.example.com/v1/namespaces/" + ns + "/things";
        JsonNode thing = post(things, CrdFixtures.object("gc.example.com/v1", "Thing", "t1", "{}"));
        configMap(ns, "owned-by-thing", refs(ref(thing, true)), null);
        JsonNode cm = configMap(ns, "cm-owner", null, null);
        post(
                things,
                "{\"apiVersion\":\"gc.example.com/v1\",\"kind\":\"Thing\",\"metadata\":{\"name\":\"t2\","
                        + "\"ownerReferences\":" + refs(ref(cm, true)) + "},\"spec\":{}}");
        settle();
        assertThat(http.get(cmPath(ns, "owned-by-thing")).statusCode()).isEqualTo(200);

        http.delete(things + "/t1", "{\"propagationPolicy\":\"Foreground\"}");
        awaitGone(cmPath(ns, "owned-by-thing"));
        awaitGone(things + "/t1");
        http.delete(cmPath(ns, "cm-owner"));
        awaitGone(things + "/t2");
    }
}
