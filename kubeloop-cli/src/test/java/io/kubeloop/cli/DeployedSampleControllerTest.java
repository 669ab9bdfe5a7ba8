package io.kubeloop.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.GroupVersionResource;
import io.kubeloop.api.ResourceScope;
import io.kubeloop.api.errors.NotFoundException;
import io.kubeloop.api.json.KubeJson;
import io.kubeloop.apiserver.EmbeddedApiServer;
import io.kubeloop.apiserver.ServerOptions;
import io.kubeloop.client.KubeClient;
import io.kubeloop.client.ResourceClient;
import io.kubeloop.client.config.ConfigEnvironment;
import io.kubeloop.samples.samplecontroller.Foo;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The sample-controller deployed as on a cluster, on the embedded API server with RBAC enforced: its bundle
 * ({@code kubeloop manifests sample-controller}) applied with real kubectl (server-side, a server-side dry run
 * first), then the controller started as its Deployment's pod runs it — a separate process reaching the server
 * through the in-cluster path with its ServiceAccount's token (from the TokenRequest API) and the CA — reconciles
 * a Foo fully with exactly the generated permissions; with one generated rule removed, the server refuses the
 * write the rule allowed and says which. Two pods electing a leader: the leader SIGKILLed, the other leads after
 * the Lease runs out and reconciles, and the audit log (which names each pod's token) shows their writes never
 * overlap.
 */
@Timeout(240)
class DeployedSampleControllerTest {

    private static final String NS = "sample-controller-system";
    private static final String ACCOUNT = "sample-controller-controller-manager";
    private static final String USER = "system:serviceaccount:" + NS + ":" + ACCOUNT;

    @TempDir
    Path dir;

    @Test
    void theAppliedBundleLetsThePodReconcileAsItsServiceAccountAndARemovedRuleIsAForbiddenWrite() throws Exception {
        Path audit = dir.resolve("audit.log");
        try (EmbeddedApiServer server =
                EmbeddedApiServer.start(ServerOptions.defaults().withAuditLog(audit))) {
            Kubectl kubectl = applyBundle(server);
            KubeClient admin = server.client();
            try (KubeloopProcess controller = KubeloopProcess.command(pod(server, kubectl, "pod"), podArgs())) {
                controller.awaitOutput("leading: the controller runs", Duration.ofSeconds(90));

                admin.resource(Foo.class).inNamespace("default").create(Foo.of("default", "web", "web-nginx", 2));
                awaitReconciled(admin, "web");
                assertThat(writesBy(audit, USER))
                        .as("the controller's writes, as its ServiceAccount")
                        .contains("create deployments default web-nginx 201", "update foos default web 200")
                        .noneMatch(w -> w.endsWith(" 403"));

                // take "create" on Deployments away from the generated ClusterRole
                ResourceClient<DynamicObject> roles = admin.resource(
                        new GroupVersionResource("rbac.authorization.k8s.io", "v1", "clusterroles"),
                        ResourceScope.CLUSTER,
                        DynamicObject.class);
                DynamicObject role = roles.get("sample-controller-manager-role");
                roles.update(role.edit(n -> {
                    for (JsonNode rule : n.path("rules")) {
                        if (rule.path("resources").toString().contains("\"deployments\"")) {
                            ArrayNode verbs = ((ObjectNode) rule).putArray("verbs");
                            List.of("get", "list", "update", "watch").forEach(verbs::add);
                        }
                    }
                }));
                admin.resource(Foo.class).inNamespace("default").create(Foo.of("default", "api", "api-nginx", 1));
                await().atMost(Duration.ofSeconds(60))
                        .untilAsserted(() -> assertThat(writesBy(audit, USER))
                                .as("a refused create names no object: the body is never read")
                                .anyMatch(w -> w.startsWith("create deployments default ") && w.endsWith(" 403")));
                await().atMost(Duration.ofSeconds(30))
                        .untilAsserted(() -> assertThat(controller.stderrSoFar())
                                .contains("deployments.apps is forbidden: User \"" + USER
                                        + "\" cannot create resource \"deployments\" in API group \"apps\" in the "
                                        + "namespace \"default\""));
                assertThat(deploymentExists(admin, "api-nginx")).isFalse();
            }
        }
    }

    @Test
    void whenTheLeadingPodIsKilledTheOtherLeadsAfterTheLeaseAndNoTwoPodsEverWrite() throws Exception {
        Path audit = dir.resolve("audit.log");
        try (EmbeddedApiServer server =
                EmbeddedApiServer.start(ServerOptions.defaults().withAuditLog(audit))) {
            Kubectl kubectl = applyBundle(server);
            KubeClient admin = server.client();
            try (KubeloopProcess first = KubeloopProcess.command(pod(server, kubectl, "first"), podArgs())) {
                first.awaitOutput("leading: the controller runs", Duration.ofSeconds(90));
                try (KubeloopProcess second = KubeloopProcess.command(pod(server, kubectl, "second"), podArgs())) {
                    second.awaitOutput("waiting to lead", Duration.ofSeconds(90));
                    admin.resource(Foo.class).inNamespace("default").create(Foo.of("default", "one", "one-nginx", 1));
                    awaitReconciled(admin, "one");
                    assertThat(second.stdoutSoFar()).doesNotContain("leading: the controller runs");

                    long killed = System.nanoTime();
                    first.kill(Duration.ofSeconds(30));
                    second.awaitOutput("leading: the controller runs", Duration.ofSeconds(40));
                    assertThat(Duration.ofNanos(System.nanoTime() - killed))
                            .as("taken over once the Lease ran out: its duration (15 s) counted from when the"
                                    + " waiting pod last saw it renewed, at most one jittered retry period (up to"
                                    + " 4.4 s) after the renewal, plus one more to acquire it, and 2 s to print")
                            .isLessThan(
                                    Duration.ofSeconds(15).plusMillis(2 * 4400).plusSeconds(2));
                    admin.resource(Foo.class).inNamespace("default").create(Foo.of("default", "two", "two-nginx", 1));
                    awaitReconciled(admin, "two");
                }
            }
            List<Write> writes = controllerWrites(audit);
            List<String> tokens =
                    writes.stream().map(Write::credential).distinct().toList();
            assertThat(tokens).as("each pod wrote, with its own token").hasSize(2);
            Write lastOfFirst = writes.stream()
                    .filter(w -> w.credential().equals(tokens.get(0)))
                    .reduce((x, y) -> y)
                    .orElseThrow();
            Write firstOfSecond = writes.stream()
                    .filter(w -> w.credential().equals(tokens.get(1)))
                    .findFirst()
                    .orElseThrow();
            assertThat(firstOfSecond.received())
                    .as("the second pod wrote only after the first's last write was answered")
                    .isAfter(lastOfFirst.completed());
        }
    }

    /** The bundle applied to {@code server} with kubectl: a server-side dry run, then a server-side apply. */
    private Kubectl applyBundle(EmbeddedApiServer server) throws IOException {
        Kubectl kubectl = Kubectl.of("current", server.writeKubeconfig(dir.resolve("admin")), dir, NS);
        Path bundle = Files.writeString(
                dir.resolve("bundle.yaml"),
                ManifestsCommand.sampleControllerBundle(NS, "kubeloop/sample-controller:test", 2)
                        .yaml());
        ok(kubectl, "create", "namespace", NS);
        assertThat(ok(kubectl, "apply", "--server-side", "--dry-run=server", "-f", bundle.toString()))
                .contains("deployment.apps/sample-controller serverside-applied (server dry run)");
        ok(kubectl, "apply", "--server-side", "-f", bundle.toString());
        return kubectl;
    }

    /**
     * What a pod of the Deployment gets: a ServiceAccount directory with a fresh token ({@code kubectl create
     * token}), the CA and the namespace, and the in-cluster variables; no kubeconfig.
     */
    private Map<String, String> pod(EmbeddedApiServer server, Kubectl kubectl, String name) throws IOException {
        String token = ok(kubectl, "create", "token", ACCOUNT, "-n", NS, "--duration=1h")
                .strip();
        Path account = Files.createDirectories(dir.resolve(name + "-serviceaccount"));
        Files.writeString(account.resolve("token"), token);
        Files.writeString(account.resolve("ca.crt"), server.caPem());
        Files.writeString(account.resolve("namespace"), NS);
        Map<String, String> env = new HashMap<>();
        env.put("KUBERNETES_SERVICE_HOST", "127.0.0.1");
        env.put("KUBERNETES_SERVICE_PORT", Integer.toString(server.url().getPort()));
        env.put(ConfigEnvironment.SERVICE_ACCOUNT_DIR_VARIABLE, account.toString());
        env.put("KUBECONFIG", null);
        env.put("HOME", Files.createDirectories(dir.resolve(name + "-home")).toString());
        return env;
    }

    /** The Deployment's container arguments, with the metrics and probe servers on free loopback ports. */
    private static String[] podArgs() {
        List<String> args =
                new ArrayList<>(ManifestsCommand.sampleControllerBundle(NS, "kubeloop/sample-controller:test", 2)
                        .containerArgs());
        args.replaceAll(a -> a.startsWith("--metrics-bind-address") || a.startsWith("--health-probe-bind-address")
                ? a.substring(0, a.indexOf('=') + 1) + "127.0.0.1:0"
                : a);
        return args.toArray(String[]::new);
    }

    private static void awaitReconciled(KubeClient admin, String foo) {
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            Foo f = admin.resource(Foo.class).inNamespace("default").get(foo);
            assertThat(f.status()).isNotNull();
            assertThat(f.status().availableReplicas()).isEqualTo(f.spec().replicas());
        });
    }

    /** A write of the controller (Leases left out) in the audit log, with the token it came with. */
    private record Write(String credential, String what, Instant received, Instant completed) {}

    private static List<Write> controllerWrites(Path audit) throws IOException {
        List<Write> out = new ArrayList<>();
        for (String line : Files.readAllLines(audit)) {
            JsonNode e = KubeJson.mapper().readTree(line);
            String verb = e.path("verb").asString();
            if (e.path("user").path("username").asString().equals(USER)
                    && List.of("create", "update", "patch", "delete").contains(verb)
                    && !e.path("objectRef").path("resource").asString().equals("leases")) {
                out.add(new Write(
                        e.path("user")
                                .path("extra")
                                .path("authentication.kubernetes.io/credential-id")
                                .path(0)
                                .asString(),
                        verb + " " + e.path("objectRef").path("resource").asString(),
                        Instant.parse(e.path("requestReceivedTimestamp").asString()),
                        Instant.parse(e.path("stageTimestamp").asString())));
            }
        }
        return out;
    }

    private static String ok(Kubectl kubectl, String... args) {
        Kubectl.Result r = kubectl.run(args);
        assertThat(r.exit())
                .as("kubectl " + String.join(" ", args) + ":\n" + r.out())
                .isZero();
        return r.out();
    }

    /** The audit log's writes by {@code user}: {@code "verb resource namespace name code"}. */
    private static List<String> writesBy(Path audit, String user) throws IOException {
        List<String> out = new ArrayList<>();
        for (String line : Files.readAllLines(audit)) {
            JsonNode e = KubeJson.mapper().readTree(line);
            String verb = e.path("verb").asString();
            if (e.path("user").path("username").asString().equals(user)
                    && List.of("create", "update", "patch", "delete").contains(verb)) {
                JsonNode ref = e.path("objectRef");
                out.add(verb + " " + ref.path("resource").asString() + " "
                        + ref.path("namespace").asString() + " "
                        + ref.path("name").asString() + " "
                        + e.path("responseStatus").path("code").asInt());
            }
        }
        return out;
    }

    private static boolean deploymentExists(KubeClient client, String name) {
        try {
            return client.resource(Deployment.class).inNamespace("default").get(name) != null;
        } catch (NotFoundException e) {
            return false;
        }
    }
}
