package io.kubeloop.apiserver.internal.http;

import static io.kubeloop.apiserver.internal.http.RbacUsers.created;
import static io.kubeloop.apiserver.internal.http.RbacUsers.rule;
import static org.assertj.core.api.Assertions.assertThat;

import io.kubeloop.apiserver.EmbeddedApiServer;
import io.kubeloop.apiserver.ServerOptions;
import io.kubeloop.apiserver.SimulatedCluster;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The verb each request is authorized as, over HTTPS as users whose Roles grant one verb, as kube-apiserver's
 * request-info resolver and RBAC storage decide it: a named GET with {@code ?watch=true} is a {@code get}
 * (and answered as one), the legacy {@code watch/} paths and a collection's {@code ?watch=true} are
 * {@code watch}es, a field selector on {@code metadata.name} names the object, a DELETE of a collection is a
 * {@code deletecollection}, {@code escalate} is authorized on the name in the URL (none for a create), binding a
 * missing role without {@code bind} is a 404, a role's update that changes only owner references or finalizers
 * is not checked for escalation, and a path ending in {@code watch/} is kube-apiserver's plain-text 500.
 */
class RequestVerbAuthorizationTest {

    @TempDir
    static Path dir;

    static EmbeddedApiServer server;
    static RawHttp admin;
    static RbacUsers users;

    @BeforeAll
    static void start() {
        server = EmbeddedApiServer.start(ServerOptions.defaults()
                .withCluster(SimulatedCluster.off())
                .withTokenAuthFile(RbacUsers.tokenFile(
                        dir, List.of("getter", "watcher", "named", "deleter", "escalator", "binder", "gc"))));
        admin = new RawHttp(server);
        users = new RbacUsers(server);
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    private static String forbiddenMessage(HttpResponse<String> r) {
        assertThat(r.statusCode()).as(r.body()).isEqualTo(403);
        return RawHttp.json(r).path("message").asString();
    }

    @Test
    void aNamedGetWithTheWatchParameterIsAGetAndIsAnsweredWithTheObject() {
        String ns = admin.newNamespace("verbs");
        created(admin.createConfigMap(ns, "web", "{\"a\":\"b\"}"));
        users.grant(ns, "getter", rule("", "configmaps", "get"));
        users.grant(ns, "watcher", rule("", "configmaps", "watch"));
        String path = "/api/v1/namespaces/" + ns + "/configmaps/web?watch=true";

        HttpResponse<String> got = users.as("getter").get(path);
        assertThat(got.statusCode()).isEqualTo(200);
        JsonNode body = RawHttp.json(got);
        assertThat(body.path("kind").asString())
                .as("the object, not a stream of events")
                .isEqualTo("ConfigMap");
        assertThat(body.path("data").path("a").asString()).isEqualTo("b");

        assertThat(forbiddenMessage(users.as("watcher").get(path)))
                .isEqualTo(
                        "configmaps \"web\" is forbidden: User \"watcher\" cannot get resource \"configmaps\" in API "
                                + "group \"\" in the namespace \"" + ns + "\"");
    }

    @Test
    void theLegacyWatchPathsAndTheWatchParameterOfACollectionAreWatches() {
        String ns = admin.newNamespace("verbs");
        users.grant(ns, "watcher", rule("", "configmaps", "watch"));
        RawHttp watcher = users.as("watcher");
        try (RawHttp.Lines w = watcher.watch("/api/v1/namespaces/" + ns + "/configmaps?watch=true&timeoutSeconds=1")) {
            assertThat(w.response.statusCode()).isEqualTo(200);
        }
        try (RawHttp.Lines w = watcher.watch("/api/v1/watch/namespaces/" + ns + "/configmaps?timeoutSeconds=1")) {
            assertThat(w.response.statusCode()).isEqualTo(200);
        }
        assertThat(forbiddenMessage(watcher.get("/api/v1/namespaces/" + ns + "/configmaps?watch=FALSE")))
                .contains("cannot list resource \"configmaps\"");
        try (RawHttp.Lines w =
                watcher.watch("/api/v1/namespaces/" + ns + "/configmaps?watch=%20false&timeoutSeconds=1")) {
            assertThat(w.response.statusCode())
                    .as("any value but false (any case) or 0 is a watch, nothing trimmed")
                    .isEqualTo(200);
        }
    }

    @Test
    void aWatchOrListNamingOneObjectIsAuthorizedOnThatName() {
        String ns = admin.newNamespace("verbs");
        created(admin.createConfigMap(ns, "web", "{}"));
        users.grant(ns, "named", rule("", "configmaps", "list,watch", "web"));
        RawHttp named = users.as("named");
        String cms = "/api/v1/namespaces/" + ns + "/configmaps";

        assertThat(named.get(cms + "?fieldSelector=metadata.name%3Dweb").statusCode())
                .isEqualTo(200);
        try (RawHttp.Lines w = named.watch(cms + "?watch=1&fieldSelector=metadata.name%3D%3Dweb&timeoutSeconds=1")) {
            assertThat(w.response.statusCode()).isEqualTo(200);
        }
        try (RawHttp.Lines w = named.watch("/api/v1/watch/namespaces/" + ns + "/configmaps/web?timeoutSeconds=1")) {
            assertThat(w.response.statusCode()).as("the legacy named watch").isEqualTo(200);
        }
        assertThat(forbiddenMessage(named.get(cms))).contains("cannot list resource \"configmaps\"");
        assertThat(forbiddenMessage(named.get(cms + "?fieldSelector=metadata.name%3Dweb&labelSelector=%3Dx")))
                .as("list options that do not decode name nothing")
                .contains("cannot list resource \"configmaps\"");
        assertThat(forbiddenMessage(named.get(cms + "?fieldSelector=metadata.name%3Dweb&limit=x")))
                .contains("cannot list resource \"configmaps\"");
    }

    @Test
    void aDeleteOfACollectionIsADeletecollection() {
        String ns = admin.newNamespace("verbs");
        created(admin.createConfigMap(ns, "web", "{}"));
        users.grant(ns, "deleter", rule("", "configmaps", "delete"));
        RawHttp deleter = users.as("deleter");
        assertThat(forbiddenMessage(deleter.delete("/api/v1/namespaces/" + ns + "/configmaps")))
                .isEqualTo("configmaps is forbidden: User \"deleter\" cannot deletecollection resource \"configmaps\" "
                        + "in API group \"\" in the namespace \"" + ns + "\"");
        assertThat(deleter.delete("/api/v1/namespaces/" + ns + "/configmaps/web")
                        .statusCode())
                .isEqualTo(200);
    }

    @Test
    void escalateIsAuthorizedOnTheNameInTheUrlSoACreateNeedsItOnEveryName() {
        String ns = admin.newNamespace("verbs");
        users.grant(
                ns,
                "escalator",
                rule("rbac.authorization.k8s.io", "roles", "create,update,get"),
                rule("rbac.authorization.k8s.io", "roles", "escalate", "power"));
        RawHttp escalator = users.as("escalator");
        String roles = "/apis/rbac.authorization.k8s.io/v1/namespaces/" + ns + "/roles";
        String power = "{\"apiVersion\":\"rbac.authorization.k8s.io/v1\",\"kind\":\"Role\",\"metadata\":{\"name\":"
                + "\"power\"},\"rules\":[" + rule("", "secrets", "get") + "]}";

        assertThat(forbiddenMessage(escalator.post(roles, power)))
                .startsWith("roles.rbac.authorization.k8s.io \"power\" is forbidden: user \"escalator\" (groups=")
                .contains("is attempting to grant RBAC permissions not currently held");
        created(admin.post(roles, "{\"metadata\":{\"name\":\"power\"},\"rules\":[]}"));
        HttpResponse<String> update = escalator.put(roles + "/power", power);
        assertThat(update.statusCode()).as(update.body()).isEqualTo(200);
    }

    @Test
    void bindingAMissingRoleWithoutBindIsNotFoundAndWithBindIsAllowed() {
        String ns = admin.newNamespace("verbs");
        users.grant(ns, "binder", rule("rbac.authorization.k8s.io", "rolebindings", "create"));
        RawHttp binder = users.as("binder");
        String bindings = "/apis/rbac.authorization.k8s.io/v1/namespaces/" + ns + "/rolebindings";
        String binding = "{\"metadata\":{\"name\":\"b\"},\"roleRef\":{\"apiGroup\":\"rbac.authorization.k8s.io\","
                + "\"kind\":\"Role\",\"name\":\"nope\"},\"subjects\":[{\"kind\":\"User\",\"apiGroup\":"
                + "\"rbac.authorization.k8s.io\",\"name\":\"x\"}]}";

        HttpResponse<String> missing = binder.post(bindings, binding);
        assertThat(missing.statusCode()).isEqualTo(404);
        JsonNode status = RawHttp.json(missing);
        assertThat(status.path("reason").asString()).isEqualTo("NotFound");
        assertThat(status.path("message").asString()).isEqualTo("roles.rbac.authorization.k8s.io \"nope\" not found");

        users.grant(ns, "binder", rule("rbac.authorization.k8s.io", "roles", "bind", "nope"));
        created(binder.post(bindings, binding));
    }

    @Test
    void changingOnlyARolesFinalizersIsNotCheckedForEscalation() {
        String ns = admin.newNamespace("verbs");
        users.grant(ns, "gc", rule("rbac.authorization.k8s.io", "roles", "get,patch"));
        String roles = "/apis/rbac.authorization.k8s.io/v1/namespaces/" + ns + "/roles";
        created(admin.post(roles, "{\"metadata\":{\"name\":\"big\"},\"rules\":[" + rule("", "secrets", "*") + "]}"));
        RawHttp gc = users.as("gc");

        HttpResponse<String> finalizer = gc.patch(
                roles + "/big",
                "application/merge-patch+json",
                "{\"metadata\":{\"finalizers\":[\"example.com/keep\"]}}");
        assertThat(finalizer.statusCode()).as(finalizer.body()).isEqualTo(200);
        assertThat(forbiddenMessage(gc.patch(
                        roles + "/big", "application/merge-patch+json", "{\"metadata\":{\"labels\":{\"a\":\"b\"}}}")))
                .contains("is attempting to grant RBAC permissions not currently held");
        admin.patch(roles + "/big", "application/merge-patch+json", "{\"metadata\":{\"finalizers\":null}}");
    }

    @Test
    void aPathEndingInTheWatchVerbIsKubeApiserversPlainTextInternalErrorBeforeAuthentication() throws Exception {
        try (HttpClient http = HttpClient.newBuilder()
                .sslContext(server.clientConfig().sslContext())
                .build()) {
            HttpResponse<String> r = http.send(
                    HttpRequest.newBuilder(URI.create(server.url() + "/api/v1/watch?x=1"))
                            .header("Authorization", "Bearer not-a-token")
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).isEqualTo(500);
            assertThat(r.headers().firstValue("Content-Type")).hasValue("text/plain; charset=utf-8");
            assertThat(r.headers().firstValue("X-Content-Type-Options")).hasValue("nosniff");
            assertThat(r.body())
                    .isEqualTo("Internal Server Error: \"/api/v1/watch?x=1\": failed to create RequestInfo: unable to "
                            + "determine kind and namespace from url, /api/v1/watch?x=1\n");
        }
    }
}
