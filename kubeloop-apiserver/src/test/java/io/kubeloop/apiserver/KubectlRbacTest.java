package io.kubeloop.apiserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.kubeloop.api.json.KubeJson;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;

/**
 * Identities and RBAC through real kubectl, as on a cluster: an administrator creates a ServiceAccount, a
 * token for it ({@code kubectl create token}), a Role and a RoleBinding; the ServiceAccount is refused
 * with kube-apiserver's 403 message until bound, then allowed exactly what the Role grants;
 * {@code kubectl auth can-i} (with {@code --as} and {@code --list}) and {@code auth whoami} answer; users of
 * the token file and of client certificates are who they claim; impersonation and escalation are refused
 * to those without the right; the audit log names who did what. Skipped without kubectl.
 */
class KubectlRbacTest {

    @TempDir
    static Path dir;

    static EmbeddedApiServer server;
    static Kubectl admin;
    static Path audit;

    @BeforeAll
    static void start() throws IOException {
        assumeTrue(Kubectl.onPath().isPresent(), "no kubectl on PATH: RBAC kubectl tests skipped");
        Path tokens = Files.writeString(
                dir.resolve("tokens.csv"), "# static users\nalice-token,alice,uid-alice,\"devs,qa\"\n");
        audit = dir.resolve("audit/audit.log");
        server = EmbeddedApiServer.start(
                ServerOptions.defaults().withTokenAuthFile(tokens).withAuditLog(audit));
        admin = kubectl("admin", server.kubeconfig());
        admin.ok("create", "namespace", "team");
        admin.ok("create", "serviceaccount", "robot", "-n", "team");
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    private static Kubectl kubectl(String name, String kubeconfig) {
        try {
            Path file = Files.writeString(dir.resolve(name + ".kubeconfig"), kubeconfig);
            return new Kubectl(Kubectl.onPath().orElseThrow(), "PATH", file, dir.resolve("cache-" + name));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Kubectl robot() {
        String token = admin.ok("create", "token", "robot", "-n", "team").strip();
        return kubectl("robot", server.kubeconfig(token));
    }

    @Test
    void aServiceAccountIsRefusedWithKubeApiserversMessageUntilARoleBindingGrantsExactlyTheRole() {
        Kubectl robot = robot();
        Kubectl.Result refused = robot.run("get", "configmaps", "-n", "team");
        assertThat(refused.code()).isNotZero();
        assertThat(refused.out())
                .contains("Error from server (Forbidden): configmaps is forbidden: User "
                        + "\"system:serviceaccount:team:robot\" cannot list resource \"configmaps\" in API group \"\" "
                        + "in the namespace \"team\"");

        admin.ok("create", "role", "cm-reader", "--verb=get,list,watch", "--resource=configmaps", "-n", "team");
        admin.ok(
                "create",
                "rolebinding",
                "robot-reads",
                "--role=cm-reader",
                "--serviceaccount=team:robot",
                "-n",
                "team");
        admin.ok("create", "configmap", "settings", "--from-literal=a=b", "-n", "team");

        assertThat(robot.ok("get", "configmaps", "-n", "team", "-o", "name")).contains("configmap/settings");
        assertThat(robot.ok("get", "configmap", "settings", "-n", "team", "-o", "jsonpath={.data.a}"))
                .isEqualTo("b");
        Kubectl.Result write = robot.run("delete", "configmap", "settings", "-n", "team");
        assertThat(write.out())
                .contains("configmaps \"settings\" is forbidden: User \"system:serviceaccount:team:robot\" cannot "
                        + "delete resource \"configmaps\" in API group \"\" in the namespace \"team\"");
        Kubectl.Result elsewhere = robot.run("get", "configmaps", "-n", "default");
        assertThat(elsewhere.out()).contains("in the namespace \"default\"");
        Kubectl.Result cluster = robot.run("get", "namespaces");
        assertThat(cluster.out())
                .contains("cannot list resource \"namespaces\" in API group \"\" at the cluster scope");
    }

    static Stream<Path> everyKubectl() {
        List<Path> all = Kubectl.installed();
        return all.isEmpty() ? Stream.of(Path.of("kubectl-not-installed")) : all.stream();
    }

    @ParameterizedTest(name = "kubectl {0}")
    @MethodSource("everyKubectl")
    void everyKubectlShowsAServiceAccountsForbiddenGetAndAsksCanIForIt(Path binary) throws IOException {
        assumeTrue(Files.isExecutable(binary), "no kubectl installed: skipped");
        String version = Kubectl.versionOf(binary);
        String token = admin.ok("create", "token", "robot", "-n", "team").strip();
        Path config = Files.writeString(dir.resolve("robot-" + version + ".kubeconfig"), server.kubeconfig(token));
        Kubectl robot = new Kubectl(binary, version, config, dir.resolve("cache-robot-" + version));
        Kubectl.Result get = robot.run("get", "secret", "db-password", "-n", "team");
        assertThat(get.code()).isNotZero();
        assertThat(get.out())
                .contains("Error from server (Forbidden): secrets \"db-password\" is forbidden: User "
                        + "\"system:serviceaccount:team:robot\" cannot get resource \"secrets\" in API group \"\" in "
                        + "the namespace \"team\"");
        Kubectl asAdmin = new Kubectl(binary, version, admin.kubeconfig(), dir.resolve("cache-admin-" + version));
        Kubectl.Result canI =
                asAdmin.run("auth", "can-i", "get", "secrets", "-n", "team", "--as=system:serviceaccount:team:robot");
        assertThat(canI.code()).isEqualTo(1);
        assertThat(canI.out().strip()).isEqualTo("no");
    }

    @Test
    void authCanIAnswersForOneselfForOthersAndListsTheRules() {
        admin.ok(
                "create",
                "role",
                "lease-user",
                "--verb=get,update",
                "--resource=leases.coordination.k8s.io",
                "-n",
                "team");
        admin.ok(
                "create",
                "rolebinding",
                "robot-leases",
                "--role=lease-user",
                "--serviceaccount=team:robot",
                "-n",
                "team");
        String sa = "--as=system:serviceaccount:team:robot";
        assertThat(admin.ok("auth", "can-i", "update", "leases.coordination.k8s.io", "-n", "team", sa)
                        .strip())
                .isEqualTo("yes");
        Kubectl.Result no = admin.run("auth", "can-i", "delete", "leases.coordination.k8s.io", "-n", "team", sa);
        assertThat(no.code()).isEqualTo(1);
        assertThat(no.out().strip()).isEqualTo("no");
        assertThat(admin.ok("auth", "can-i", "create", "pods", "--all-namespaces")
                        .strip())
                .isEqualTo("yes");

        String list = admin.ok("auth", "can-i", "--list", "-n", "team", sa);
        assertThat(list).containsPattern("leases\\.coordination\\.k8s\\.io\\s+\\[\\]\\s+\\[\\]\\s+\\[get update\\]");
        assertThat(list)
                .containsPattern(
                        "selfsubjectaccessreviews\\.authorization\\.k8s\\.io\\s+\\[\\]\\s+\\[\\]\\s+\\[create\\]");

        Kubectl robot = robot();
        assertThat(robot.run("auth", "can-i", "update", "leases.coordination.k8s.io", "-n", "team")
                        .out()
                        .strip())
                .isEqualTo("yes");
        assertThat(robot.run("auth", "can-i", "list", "secrets", "-n", "team")
                        .out()
                        .strip())
                .isEqualTo("no");
    }

    @Test
    void whoamiNamesTheUserOfATokenFileLineOfAClientCertificateAndOfAServiceAccountToken() {
        Kubectl alice = kubectl("alice", server.kubeconfig("alice-token"));
        assertThat(alice.ok("auth", "whoami", "-o", "jsonpath={.status.userInfo.username} {.status.userInfo.groups}"))
                .isEqualTo("alice [\"devs\",\"qa\",\"system:authenticated\"]");
        Kubectl carol = kubectl("carol", server.clientCertificateKubeconfig("carol", List.of("ops")));
        assertThat(carol.ok("auth", "whoami", "-o", "jsonpath={.status.userInfo.username} {.status.userInfo.groups}"))
                .isEqualTo("carol [\"ops\",\"system:authenticated\"]");
        assertThat(carol.run("get", "pods").out())
                .contains("pods is forbidden: User \"carol\" cannot list resource \"pods\" in API group \"\" in the "
                        + "namespace \"default\"");
        assertThat(robot().ok("auth", "whoami", "-o", "jsonpath={.status.userInfo.username}"))
                .isEqualTo("system:serviceaccount:team:robot");
        Kubectl wrong = kubectl("wrong", server.kubeconfig("not-a-token"));
        assertThat(wrong.run("get", "pods").out()).contains("error: You must be logged in to the server");
    }

    @Test
    void impersonationNeedsTheImpersonateVerbAndAdminsMayImpersonateAnyone() {
        Kubectl alice = kubectl("alice-imp", server.kubeconfig("alice-token"));
        assertThat(alice.run("get", "--raw", "/api/v1/namespaces/default/pods", "--as=bob")
                        .out())
                .contains(
                        "Error from server (Forbidden): users \"bob\" is forbidden: User \"alice\" cannot impersonate resource \"users\" in API "
                                + "group \"\" at the cluster scope");
        assertThat(admin.run("get", "--raw", "/api/v1/namespaces/team/pods", "--as=bob", "--as-group=devs")
                        .out())
                .contains("pods is forbidden: User \"bob\" cannot list resource \"pods\"");
        admin.ok(
                "create",
                "clusterrole",
                "impersonator",
                "--verb=impersonate",
                "--resource=users",
                "--resource-name=bob");
        admin.ok("create", "clusterrolebinding", "alice-impersonates", "--clusterrole=impersonator", "--user=alice");
        assertThat(alice.ok("auth", "whoami", "--as=bob", "-o", "jsonpath={.status.userInfo.username}"))
                .isEqualTo("bob");
        assertThat(alice.run("get", "--raw", "/api/v1/namespaces/default/pods", "--as=carl")
                        .out())
                .contains("users \"carl\" is forbidden");
    }

    @Test
    void nobodyGrantsWhatTheyDoNotHoldButMayBindWhatTheyMayBind() {
        admin.ok("create", "namespace", "escalation");
        admin.ok(
                "create",
                "role",
                "role-admin",
                "--verb=create,get,list",
                "--resource=roles.rbac.authorization.k8s.io",
                "--resource=rolebindings.rbac.authorization.k8s.io",
                "-n",
                "escalation");
        admin.ok("create", "rolebinding", "alice-role-admin", "--role=role-admin", "--user=alice", "-n", "escalation");
        Kubectl alice = kubectl("alice-esc", server.kubeconfig("alice-token"));

        Kubectl.Result grant =
                alice.run("create", "role", "secret-reader", "--verb=get", "--resource=secrets", "-n", "escalation");
        assertThat(grant.code()).isNotZero();
        assertThat(grant.out())
                .contains("roles.rbac.authorization.k8s.io \"secret-reader\" is forbidden: user \"alice\" "
                        + "(groups=[\"devs\" \"qa\" \"system:authenticated\"]) is attempting to grant RBAC permissions "
                        + "not currently held:")
                .contains("{APIGroups:[\"\"], Resources:[\"secrets\"], Verbs:[\"get\"]}");
        assertThat(alice.ok(
                        "create",
                        "role",
                        "role-lister",
                        "--verb=list",
                        "--resource=roles.rbac.authorization.k8s.io",
                        "-n",
                        "escalation"))
                .contains("role.rbac.authorization.k8s.io/role-lister created");

        admin.ok("create", "role", "secret-reader", "--verb=get", "--resource=secrets", "-n", "escalation");
        Kubectl.Result bind = alice.run(
                "create", "rolebinding", "sneaky", "--role=secret-reader", "--user=alice", "-n", "escalation");
        assertThat(bind.out()).contains("is attempting to grant RBAC permissions not currently held");
        admin.ok(
                "create",
                "role",
                "binder",
                "--verb=bind",
                "--resource=roles.rbac.authorization.k8s.io",
                "--resource-name=secret-reader",
                "-n",
                "escalation");
        admin.ok("create", "rolebinding", "alice-binds", "--role=binder", "--user=alice", "-n", "escalation");
        assertThat(alice.ok(
                        "create", "rolebinding", "allowed", "--role=secret-reader", "--user=alice", "-n", "escalation"))
                .contains("rolebinding.rbac.authorization.k8s.io/allowed created");
    }

    @Test
    void theViewRoleTakesInAClusterRoleLabelledToAggregateIntoIt() {
        admin.ok("create", "clusterrole", "lease-viewer", "--verb=get,list", "--resource=leases.coordination.k8s.io");
        admin.ok("label", "clusterrole", "lease-viewer", "rbac.authorization.k8s.io/aggregate-to-view=true");
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            JsonNode view = KubeJson.mapper().readTree(admin.ok("get", "clusterrole", "view", "-o", "json"));
            List<String> resources = new ArrayList<>();
            view.path("rules").forEach(r -> r.path("resources").forEach(x -> resources.add(x.asString())));
            assertThat(resources).contains("leases", "pods", "deployments");
        });
        admin.ok("create", "rolebinding", "viewers-view", "--clusterrole=view", "--group=viewers", "-n", "team");
        assertThat(admin.ok(
                                "auth",
                                "can-i",
                                "list",
                                "leases.coordination.k8s.io",
                                "-n",
                                "team",
                                "--as=viewer",
                                "--as-group=viewers")
                        .strip())
                .isEqualTo("yes");
    }

    @Test
    void theAuditLogNamesTheUserVerbResourceAndCodeOfEachRequest() throws IOException {
        Kubectl alice = kubectl("alice-audit", server.kubeconfig("alice-token"));
        alice.run("get", "secrets", "-n", "team", "--request-timeout=5s");
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
            List<JsonNode> events = Files.readAllLines(audit).stream()
                    .map(l -> KubeJson.mapper().readTree(l))
                    .toList();
            assertThat(events)
                    .anySatisfy(e -> {
                        assertThat(e.path("user").path("username").asString()).isEqualTo("alice");
                        assertThat(e.path("verb").asString()).isEqualTo("list");
                        assertThat(e.path("objectRef").path("resource").asString())
                                .isEqualTo("secrets");
                        assertThat(e.path("objectRef").path("namespace").asString())
                                .isEqualTo("team");
                        assertThat(e.path("responseStatus").path("code").asInt())
                                .isEqualTo(403);
                        assertThat(e.path("kind").asString()).isEqualTo("Event");
                        assertThat(e.path("apiVersion").asString()).isEqualTo("audit.k8s.io/v1");
                    })
                    .anySatisfy(e -> {
                        assertThat(e.path("user").path("username").asString()).isEqualTo(EmbeddedApiServer.ADMIN_USER);
                        assertThat(e.path("user").path("groups").toString()).contains("system:masters");
                        assertThat(e.path("verb").asString()).isEqualTo("create");
                        assertThat(e.path("objectRef").path("resource").asString())
                                .isEqualTo("serviceaccounts");
                        assertThat(e.path("objectRef").path("name").asString()).isEqualTo("robot");
                        assertThat(e.path("responseStatus").path("code").asInt())
                                .isEqualTo(201);
                    });
        });
    }
}
