package io.kubeloop.apiserver.internal.http;

import static io.kubeloop.apiserver.internal.http.RbacUsers.created;
import static io.kubeloop.apiserver.internal.http.RbacUsers.rule;
import static org.assertj.core.api.Assertions.assertThat;

import io.kubeloop.api.json.KubeJson;
import io.kubeloop.apiserver.EmbeddedApiServer;
import io.kubeloop.apiserver.ServerOptions;
import io.kubeloop.apiserver.SimulatedCluster;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * A write whose verb is {@code patch} or {@code update} but which creates its object is authorized as
 * {@code create} too, as kube-apiserver authorizes it when its registry is about to create (and only then):
 * a server-side apply of a missing object, and a PUT of a missing object of a kind whose strategy allows
 * create-on-update (Leases, Services, Endpoints, Events, LimitRanges, the RBAC kinds; never a custom
 * resource). The refusal is apimachinery's {@code NewForbidden} of the resource and name with the authorizer's
 * reason ({@code ""} for RBAC without errors): {@code configmaps "web" is forbidden: }. It comes after the
 * object is validated and before validating admission, which sees a CREATE. Every other patch of a missing
 * object, and any write of a subresource of one, is a 404 whatever the rights. All over HTTPS, as users of
 * the token file whose Roles grant exactly what each case names.
 */
class CreateOnUpdateAuthorizationTest {

    private static final String APPLY = "application/apply-patch+yaml";

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
                        dir, List.of("alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi"))));
        admin = new RawHttp(server);
        users = new RbacUsers(server);
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    private static String configMap(String name) {
        return "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"" + name
                + "\"},\"data\":{\"a\":\"b\"}}";
    }

    private static HttpResponse<String> apply(RawHttp as, String path, String body) {
        return as.patch(path + "?fieldManager=ctl", APPLY, body);
    }

    @Test
    void anApplyThatCreatesIsRefusedWithoutCreateWithKubeApiserversStatusAndCreatesNothing() {
        String ns = admin.newNamespace("apply");
        users.grant(ns, "alice", rule("", "configmaps", "get,patch"));
        RawHttp alice = users.as("alice");

        HttpResponse<String> refused = apply(alice, "/api/v1/namespaces/" + ns + "/configmaps/web", configMap("web"));

        assertThat(refused.statusCode()).isEqualTo(403);
        assertThat(RawHttp.json(refused))
                .isEqualTo(KubeJson.mapper()
                        .readTree("{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\","
                                + "\"message\":\"configmaps \\\"web\\\" is forbidden: \",\"reason\":\"Forbidden\","
                                + "\"details\":{\"name\":\"web\",\"kind\":\"configmaps\"},\"code\":403}"));
        assertThat(admin.get("/api/v1/namespaces/" + ns + "/configmaps/web").statusCode())
                .isEqualTo(404);
    }

    @Test
    void anApplyToAnExistingObjectNeedsOnlyPatchAndWithCreateTheFirstApplyCreates() {
        String ns = admin.newNamespace("apply");
        users.grant(ns, "bob", rule("", "configmaps", "get,patch"));
        RawHttp bob = users.as("bob");
        created(admin.createConfigMap(ns, "existing", "{}"));

        HttpResponse<String> changed =
                apply(bob, "/api/v1/namespaces/" + ns + "/configmaps/existing", configMap("existing"));
        assertThat(changed.statusCode()).as(changed.body()).isEqualTo(200);

        users.grant(ns, "bob", rule("", "configmaps", "create"));
        HttpResponse<String> made = apply(bob, "/api/v1/namespaces/" + ns + "/configmaps/web", configMap("web"));
        assertThat(made.statusCode()).as(made.body()).isEqualTo(201);
        assertThat(RawHttp.json(made).path("data").path("a").asString()).isEqualTo("b");
    }

    @Test
    void theRefusalCarriesTheAuthorizersReasonWhenRbacMetErrors() {
        String ns = admin.newNamespace("apply");
        users.grant(ns, "carol", rule("", "configmaps", "patch"));
        created(admin.post(
                "/apis/rbac.authorization.k8s.io/v1/namespaces/" + ns + "/rolebindings",
                "{\"metadata\":{\"name\":\"dangling\"},\"roleRef\":{\"apiGroup\":\"rbac.authorization.k8s.io\","
                        + "\"kind\":\"ClusterRole\",\"name\":\"gone\"},\"subjects\":[{\"kind\":\"User\","
                        + "\"apiGroup\":\"rbac.authorization.k8s.io\",\"name\":\"carol\"}]}"));

        HttpResponse<String> refused =
                apply(users.as("carol"), "/api/v1/namespaces/" + ns + "/configmaps/web", configMap("web"));

        assertThat(refused.statusCode()).isEqualTo(403);
        assertThat(RawHttp.json(refused).path("message").asString())
                .isEqualTo("configmaps \"web\" is forbidden: RBAC: clusterrole.rbac.authorization.k8s.io \"gone\" "
                        + "not found");
    }

    @Test
    void theCreateIsAuthorizedAfterValidationAndBeforeValidatingAdmissionWhichSeesACreate() {
        String ns = admin.newNamespace("apply", "operation", "shown");
        created(admin.post(
                "/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies",
                "{\"metadata\":{\"name\":\"show-operation\"},\"spec\":{\"matchConstraints\":{\"resourceRules\":[{"
                        + "\"apiGroups\":[\"\"],\"apiVersions\":[\"v1\"],\"operations\":[\"CREATE\",\"UPDATE\"],"
                        + "\"resources\":[\"configmaps\"]}],\"namespaceSelector\":{\"matchLabels\":{\"operation\":"
                        + "\"shown\"}}},\"validations\":[{\"expression\":\"false\",\"messageExpression\":"
                        + "\"'operation ' + request.operation\"}]}}"));
        created(admin.post(
                "/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings",
                "{\"metadata\":{\"name\":\"show-operation\"},\"spec\":{\"policyName\":\"show-operation\","
                        + "\"validationActions\":[\"Deny\"]}}"));
        users.grant(ns, "dave", rule("", "configmaps", "patch"));
        String path = "/api/v1/namespaces/" + ns + "/configmaps/";

        HttpResponse<String> invalid = apply(users.as("dave"), path + "Bad_Name", configMap("Bad_Name"));
        assertThat(invalid.statusCode()).as("validation first").isEqualTo(422);

        HttpResponse<String> unauthorized = apply(users.as("dave"), path + "web", configMap("web"));
        assertThat(unauthorized.statusCode())
                .as("then the create authorization")
                .isEqualTo(403);
        assertThat(RawHttp.json(unauthorized).path("message").asString())
                .isEqualTo("configmaps \"web\" is forbidden: ");

        users.grant(ns, "dave", rule("", "configmaps", "create"));
        HttpResponse<String> admitted = apply(users.as("dave"), path + "web", configMap("web"));
        assertThat(RawHttp.json(admitted).path("message").asString())
                .as("then validating admission, which sees a CREATE")
                .contains("operation CREATE");
    }

    @Test
    void anyOtherPatchOfAMissingObjectIsNotFoundWhateverTheRights() {
        String ns = admin.newNamespace("patch");
        users.grant(ns, "erin", rule("", "configmaps", "patch"));
        String path = "/api/v1/namespaces/" + ns + "/configmaps/web";
        for (String type : List.of("application/merge-patch+json", "application/strategic-merge-patch+json")) {
            HttpResponse<String> r = users.as("erin").patch(path, type, "{\"data\":{\"a\":\"b\"}}");
            assertThat(r.statusCode()).as(type).isEqualTo(404);
            assertThat(RawHttp.json(r).path("message").asString()).isEqualTo("configmaps \"web\" not found");
        }
        HttpResponse<String> json = users.as("erin")
                .patch(path, "application/json-patch+json", "[{\"op\":\"add\",\"path\":\"/data\",\"value\":{}}]");
        assertThat(json.statusCode()).isEqualTo(404);
    }

    @Test
    void aSubresourceOfAMissingObjectIsNeverCreatedByAnApplyOrAPut() {
        CrdFixtures.install(admin, CrdFixtures.simple("create.example.com", "things", "Thing"));
        String ns = admin.newNamespace("sub");
        String things = "/apis/create.example.com/v1/namespaces/" + ns + "/things/";
        String thing = "{\"apiVersion\":\"create.example.com/v1\",\"kind\":\"Thing\",\"metadata\":{\"name\":\"t\"},"
                + "\"status\":{\"phase\":\"x\"}}";

        HttpResponse<String> applied = apply(admin, things + "t/status", thing);
        assertThat(applied.statusCode()).isEqualTo(404);
        assertThat(RawHttp.json(applied).path("message").asString())
                .isEqualTo("things.create.example.com \"t\" not found");
        HttpResponse<String> deployment = apply(
                admin,
                "/apis/apps/v1/namespaces/" + ns + "/deployments/d/status",
                "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{\"name\":\"d\"}}");
        assertThat(deployment.statusCode()).isEqualTo(404);
        HttpResponse<String> leaseStatus = admin.put(
                "/api/v1/namespaces/" + ns + "/services/s/status",
                "{\"apiVersion\":\"v1\",\"kind\":\"Service\",\"metadata\":{\"name\":\"s\"}}");
        assertThat(leaseStatus.statusCode())
                .as("a Service creates on update, its status does not")
                .isEqualTo(404);
    }

    @Test
    void anApplyOfAMissingCustomResourceNeedsCreateOnItsResource() {
        CrdFixtures.install(admin, CrdFixtures.simple("apply.example.com", "gizmos", "Gizmo"));
        String ns = admin.newNamespace("cr");
        users.grant(ns, "frank", rule("apply.example.com", "gizmos", "get,patch"));
        String gizmo = "{\"apiVersion\":\"apply.example.com/v1\",\"kind\":\"Gizmo\",\"metadata\":{\"name\":\"g\"},"
                + "\"spec\":{\"size\":1}}";
        String path = "/apis/apply.example.com/v1/namespaces/" + ns + "/gizmos/g";

        HttpResponse<String> refused = apply(users.as("frank"), path, gizmo);
        assertThat(refused.statusCode()).isEqualTo(403);
        JsonNode status = RawHttp.json(refused);
        assertThat(status.path("message").asString()).isEqualTo("gizmos.apply.example.com \"g\" is forbidden: ");
        assertThat(status.path("details").path("group").asString()).isEqualTo("apply.example.com");
        assertThat(status.path("details").path("kind").asString()).isEqualTo("gizmos");

        users.grant(ns, "frank", rule("apply.example.com", "gizmos", "create"));
        assertThat(apply(users.as("frank"), path, gizmo).statusCode()).isEqualTo(201);
    }

    @Test
    void aPutOfAMissingLeaseCreatesItAndNeedsCreateToo() {
        String ns = admin.newNamespace("lease");
        users.grant(ns, "grace", rule("coordination.k8s.io", "leases", "get,update"));
        String path = "/apis/coordination.k8s.io/v1/namespaces/" + ns + "/leases/leader";
        String lease =
                "{\"apiVersion\":\"coordination.k8s.io/v1\",\"kind\":\"Lease\",\"metadata\":{\"name\":\"leader\","
                        + "\"resourceVersion\":\"12\"},\"spec\":{\"holderIdentity\":\"me\"}}";

        HttpResponse<String> refused = users.as("grace").put(path, lease);
        assertThat(refused.statusCode()).isEqualTo(403);
        assertThat(RawHttp.json(refused).path("message").asString())
                .isEqualTo("leases.coordination.k8s.io \"leader\" is forbidden: ");
        assertThat(admin.get(path).statusCode()).isEqualTo(404);

        users.grant(ns, "grace", rule("coordination.k8s.io", "leases", "create"));
        HttpResponse<String> made = users.as("grace").put(path, lease);
        assertThat(made.statusCode()).as(made.body()).isEqualTo(201);
        JsonNode stored = RawHttp.json(admin.get(path));
        assertThat(stored.path("spec").path("holderIdentity").asString()).isEqualTo("me");
        assertThat(stored.path("metadata").path("uid").asString()).isNotEmpty();
        assertThat(stored.path("metadata").path("creationTimestamp").asString()).isNotEmpty();

        HttpResponse<String> again = users.as("grace")
                .put(
                        path,
                        "{\"apiVersion\":\"coordination.k8s.io/v1\",\"kind\":\"Lease\",\"metadata\":{\"name\":\"leader\"},"
                                + "\"spec\":{\"holderIdentity\":\"you\"}}");
        assertThat(again.statusCode()).as("an update of the existing Lease").isEqualTo(200);
    }

    @Test
    void aPutOfAMissingObjectWithAUidMeetsNoPreconditionAndIsAConflict() {
        String ns = admin.newNamespace("lease");
        HttpResponse<String> r = admin.put(
                "/apis/coordination.k8s.io/v1/namespaces/" + ns + "/leases/l",
                "{\"apiVersion\":\"coordination.k8s.io/v1\",\"kind\":\"Lease\",\"metadata\":{\"name\":\"l\",\"uid\":\"u-1\"}}");
        assertThat(r.statusCode()).isEqualTo(409);
        assertThat(RawHttp.json(r).path("message").asString())
                .isEqualTo(
                        "Operation cannot be fulfilled on leases.coordination.k8s.io \"l\": Precondition failed: UID "
                                + "in precondition: u-1, UID in object meta: ");
    }

    @Test
    void kindsWithoutCreateOnUpdateAnswerAPutOfAMissingObjectWithNotFoundCustomResourcesIncluded() {
        String ns = admin.newNamespace("put");
        HttpResponse<String> cm = admin.put("/api/v1/namespaces/" + ns + "/configmaps/web", configMap("web"));
        assertThat(cm.statusCode()).isEqualTo(404);
        assertThat(RawHttp.json(cm).path("message").asString()).isEqualTo("configmaps \"web\" not found");

        CrdFixtures.install(admin, CrdFixtures.simple("put.example.com", "doodads", "Doodad"));
        String doodad =
                "{\"apiVersion\":\"put.example.com/v1\",\"kind\":\"Doodad\",\"metadata\":{\"name\":\"d\"},\"spec\":{}}";
        HttpResponse<String> cr = admin.put("/apis/put.example.com/v1/namespaces/" + ns + "/doodads/d", doodad);
        assertThat(cr.statusCode())
                .as("not found before the resourceVersion a custom resource's update needs")
                .isEqualTo(404);
        assertThat(RawHttp.json(cr).path("message").asString()).isEqualTo("doodads.put.example.com \"d\" not found");
    }

    @Test
    void aServiceAndAClusterRoleCreateOnUpdateToo() {
        String ns = admin.newNamespace("put");
        HttpResponse<String> svc = admin.put(
                "/api/v1/namespaces/" + ns + "/services/web",
                "{\"apiVersion\":\"v1\",\"kind\":\"Service\",\"metadata\":{\"name\":\"web\"},"
                        + "\"spec\":{\"ports\":[{\"port\":80}]}}");
        assertThat(svc.statusCode()).as(svc.body()).isEqualTo(201);
        assertThat(RawHttp.json(svc).path("spec").path("clusterIP").asString()).isNotEmpty();

        users.grantClusterWide("heidi", rule("rbac.authorization.k8s.io", "clusterroles", "update"));
        String role = "{\"apiVersion\":\"rbac.authorization.k8s.io/v1\",\"kind\":\"ClusterRole\","
                + "\"metadata\":{\"name\":\"heidis\"},\"rules\":[]}";
        HttpResponse<String> refused =
                users.as("heidi").put("/apis/rbac.authorization.k8s.io/v1/clusterroles/heidis", role);
        assertThat(refused.statusCode()).isEqualTo(403);
        assertThat(RawHttp.json(refused).path("message").asString())
                .isEqualTo("clusterroles.rbac.authorization.k8s.io \"heidis\" is forbidden: ");
        users.grantClusterWide("heidi", rule("rbac.authorization.k8s.io", "clusterroles", "create"));
        assertThat(users.as("heidi")
                        .put("/apis/rbac.authorization.k8s.io/v1/clusterroles/heidis", role)
                        .statusCode())
                .isEqualTo(201);
    }
}
