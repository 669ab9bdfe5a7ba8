package io.kubeloop.apiserver.internal.http;

import static io.kubeloop.apiserver.internal.http.RbacUsers.created;
import static io.kubeloop.apiserver.internal.http.RbacUsers.rule;
import static org.assertj.core.api.Assertions.assertThat;

import io.kubeloop.apiserver.AdmissionPlugin;
import io.kubeloop.apiserver.BuiltinControllerMode;
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
 * The {@code OwnerReferencesPermissionEnforcement} admission plugin, enabled with
 * {@link ServerOptions#withAdmissionPlugin}, as kube-apiserver enforces it (OpenShift enables it): a new
 * reference with {@code blockOwnerDeletion: true} needs {@code update} on the owner's {@code finalizers}
 * (namespaced owners in the object's namespace, cluster-scoped ones cluster-wide; an unknown owner kind is
 * refused; whoever may update every {@code finalizers} cluster-wide is not checked per owner), and an update
 * that changes an object's references needs {@code delete} on it (a create does not). Off by default. All over
 * HTTPS as token-file users whose Roles grant what each case names.
 */
class OwnerReferencesPermissionEnforcementTest {

    @TempDir
    static Path dir;

    static EmbeddedApiServer server;
    static RawHttp admin;
    static RbacUsers users;

    @BeforeAll
    static void start() {
        server = EmbeddedApiServer.start(ServerOptions.defaults()
                .withCluster(SimulatedCluster.off())
                .withBuiltinControllers(BuiltinControllerMode.OFF) // owners here are made up: no garbage collector
                .withAdmissionPlugin(AdmissionPlugin.OWNER_REFERENCES_PERMISSION_ENFORCEMENT)
                .withTokenAuthFile(RbacUsers.tokenFile(
                        dir, List.of("ctl", "plain", "adopter", "mapper", "finalizer", "nsowner", "applier"))));
        admin = new RawHttp(server);
        users = new RbacUsers(server);
        CrdFixtures.install(admin, CrdFixtures.FOO);
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    private static String reference(String apiVersion, String kind, String name, Boolean block) {
        return "{\"apiVersion\":\"" + apiVersion + "\",\"kind\":\"" + kind + "\",\"name\":\"" + name
                + "\",\"uid\":\"uid-" + name + "\",\"controller\":true"
                + (block == null ? "" : ",\"blockOwnerDeletion\":" + block) + "}";
    }

    private static String deployment(String name, String ownerReference) {
        return "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{\"name\":\"" + name + "\""
                + (ownerReference == null ? "" : ",\"ownerReferences\":[" + ownerReference + "]")
                + "},\"spec\":{\"selector\":{\"matchLabels\":{\"app\":\"x\"}},\"template\":{\"metadata\":{\"labels\":"
                + "{\"app\":\"x\"}},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"nginx\"}]}}}}";
    }

    private static String refusal(HttpResponse<String> r) {
        assertThat(r.statusCode()).as(r.body()).isEqualTo(403);
        JsonNode status = RawHttp.json(r);
        assertThat(status.path("reason").asString()).isEqualTo("Forbidden");
        return status.path("message").asString();
    }

    @Test
    void aControllerReferenceThatBlocksOwnerDeletionNeedsUpdateOnTheOwnersFinalizers() {
        String ns = admin.newNamespace("owners");
        users.grant(ns, "ctl", rule("apps", "deployments", "create"));
        RawHttp ctl = users.as("ctl");
        String deployments = "/apis/apps/v1/namespaces/" + ns + "/deployments";
        String child = deployment("web", reference("samplecontroller.k8s.io/v1alpha1", "Foo", "web", true));

        assertThat(refusal(ctl.post(deployments, child)))
                .isEqualTo("deployments.apps \"web\" is forbidden: cannot set blockOwnerDeletion if an ownerReference "
                        + "refers to a resource you can't set finalizers on: , <nil>");

        users.grant(ns, "ctl", rule("samplecontroller.k8s.io", "foos/finalizers", "update", "other"));
        assertThat(refusal(ctl.post(deployments, child)))
                .as("by the owner's name")
                .contains("you can't set finalizers on");
        users.grant(ns, "ctl", rule("samplecontroller.k8s.io", "foos/finalizers", "update"));
        created(ctl.post(deployments, child));
    }

    @Test
    void aReferenceThatDoesNotBlockNeedsNothingMoreThanTheCreate() {
        String ns = admin.newNamespace("owners");
        users.grant(ns, "plain", rule("apps", "deployments", "create"));
        String deployments = "/apis/apps/v1/namespaces/" + ns + "/deployments";
        created(users.as("plain")
                .post(deployments, deployment("a", reference("samplecontroller.k8s.io/v1alpha1", "Foo", "a", null))));
        created(users.as("plain")
                .post(deployments, deployment("b", reference("samplecontroller.k8s.io/v1alpha1", "Foo", "b", false))));
    }

    @Test
    void changingTheReferencesOfAnExistingObjectNeedsDeleteOnItAsAnAdoptionDoes() {
        String ns = admin.newNamespace("owners");
        String deployments = "/apis/apps/v1/namespaces/" + ns + "/deployments";
        created(admin.post(deployments, deployment("orphan", null)));
        users.grant(
                ns,
                "adopter",
                rule("apps", "deployments", "get,update,patch"),
                rule("samplecontroller.k8s.io", "foos/finalizers", "update"));
        RawHttp adopter = users.as("adopter");
        String adopt = "{\"metadata\":{\"ownerReferences\":["
                + reference("samplecontroller.k8s.io/v1alpha1", "Foo", "orphan", true) + "]}}";

        assertThat(refusal(adopter.patch(deployments + "/orphan", "application/merge-patch+json", adopt)))
                .isEqualTo("deployments.apps \"orphan\" is forbidden: cannot set an ownerRef on a resource you can't "
                        + "delete: , <nil>");

        users.grant(ns, "adopter", rule("apps", "deployments", "delete"));
        HttpResponse<String> adopted = adopter.patch(deployments + "/orphan", "application/merge-patch+json", adopt);
        assertThat(adopted.statusCode()).as(adopted.body()).isEqualTo(200);

        created(admin.post(
                deployments, deployment("kept", reference("samplecontroller.k8s.io/v1alpha1", "Foo", "kept", true))));
        users.grant(ns, "plain", rule("apps", "deployments", "patch"));
        HttpResponse<String> labelled = users.as("plain")
                .patch(
                        deployments + "/kept",
                        "application/merge-patch+json",
                        "{\"metadata\":{\"labels\":{\"tier\":\"web\"}}}");
        assertThat(labelled.statusCode())
                .as("an update keeping the references needs neither delete nor finalizers")
                .isEqualTo(200);
    }

    @Test
    void anUnknownOwnerKindIsRefusedNamingTheMappingNotFound() {
        String ns = admin.newNamespace("owners");
        users.grant(ns, "mapper", rule("apps", "deployments", "create"));
        HttpResponse<String> r = users.as("mapper")
                .post(
                        "/apis/apps/v1/namespaces/" + ns + "/deployments",
                        deployment("d", reference("example.com/v1", "Nothing", "n", true)));
        assertThat(refusal(r))
                .isEqualTo("deployments.apps \"d\" is forbidden: cannot set blockOwnerDeletion in this case because "
                        + "cannot find RESTMapping for APIVersion example.com/v1 Kind Nothing: no matches for kind "
                        + "\"Nothing\" in version \"example.com/v1\"");
    }

    @Test
    void whoMayUpdateEveryFinalizersSubresourceClusterWideIsNotCheckedPerOwner() {
        String ns = admin.newNamespace("owners");
        users.grant(ns, "finalizer", rule("apps", "deployments", "create"));
        users.grantClusterWide("finalizer", rule("*", "*/finalizers", "update"));
        created(users.as("finalizer")
                .post(
                        "/apis/apps/v1/namespaces/" + ns + "/deployments",
                        deployment("d", reference("example.com/v1", "Nothing", "n", true))));
    }

    @Test
    void aClusterScopedOwnersFinalizersAreAuthorizedClusterWide() {
        String ns = admin.newNamespace("owners");
        users.grant(ns, "nsowner", rule("apps", "deployments", "create"), rule("", "namespaces/finalizers", "update"));
        String deployments = "/apis/apps/v1/namespaces/" + ns + "/deployments";
        String child = deployment("d", reference("v1", "Namespace", ns, true));
        assertThat(refusal(users.as("nsowner").post(deployments, child))).contains("can't set finalizers on");

        users.grantClusterWide("nsowner", rule("", "namespaces/finalizers", "update", ns));
        created(users.as("nsowner").post(deployments, child));
    }

    @Test
    void anApplyThatCreatesIsACreateToThePluginSoItNeedsNoDelete() {
        String ns = admin.newNamespace("owners");
        users.grant(
                ns,
                "applier",
                rule("apps", "deployments", "create,patch"),
                rule("samplecontroller.k8s.io", "foos/finalizers", "update"));
        HttpResponse<String> r = users.as("applier")
                .patch(
                        "/apis/apps/v1/namespaces/" + ns + "/deployments/web?fieldManager=ctl",
                        "application/apply-patch+yaml",
                        deployment("web", reference("samplecontroller.k8s.io/v1alpha1", "Foo", "web", true)));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
    }

    @Test
    void offByDefaultABlockingReferenceNeedsOnlyTheCreate(@TempDir Path own) {
        try (EmbeddedApiServer plain = EmbeddedApiServer.start(ServerOptions.defaults()
                .withCluster(SimulatedCluster.off())
                .withBuiltinControllers(BuiltinControllerMode.OFF)
                .withTokenAuthFile(RbacUsers.tokenFile(own, List.of("ctl"))))) {
            RawHttp plainAdmin = new RawHttp(plain);
            String ns = plainAdmin.newNamespace("owners");
            RbacUsers plainUsers = new RbacUsers(plain);
            plainUsers.grant(ns, "ctl", rule("apps", "deployments", "create"));
            created(plainUsers
                    .as("ctl")
                    .post(
                            "/apis/apps/v1/namespaces/" + ns + "/deployments",
                            deployment("web", reference("samplecontroller.k8s.io/v1alpha1", "Foo", "web", true))));
        }
    }
}
