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
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
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
 * write the rule allowed and says which.
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
            Kubectl kubectl = Kubectl.of("current", server.writeKubeconfig(dir.resolve("admin")), dir, NS);
            Path bundle = Files.writeString(
                    dir.resolve("bundle.yaml"),
                    ManifestsCommand.sampleControllerBundle(NS, "kubeloop/sample-controller:test", 2)
                            .yaml());
            ok(kubectl, "create", "namespace", NS);
            assertThat(ok(kubectl, "apply", "--server-side", "--dry-run=server", "-f", bundle.toString()))
                    .contains("deployment.apps/sample-controller serverside-applied (server dry run)");
            ok(kubectl, "apply", "--server-side", "-f", bundle.toString());
            String token = ok(kubectl, "create", "token", ACCOUNT, "-n", NS, "--duration=1h")
                    .strip();

            Path account = Files.createDirectories(dir.resolve("serviceaccount"));
            Files.writeString(account.resolve("token"), token);
            Files.writeString(account.resolve("ca.crt"), server.caPem());
            Files.writeString(account.resolve("namespace"), NS);
            Map<String, String> pod = new HashMap<>();
            pod.put("KUBERNETES_SERVICE_HOST", "127.0.0.1");
            pod.put("KUBERNETES_SERVICE_PORT", Integer.toString(server.url().getPort()));
            pod.put(ConfigEnvironment.SERVICE_ACCOUNT_DIR_VARIABLE, account.toString());
            pod.put("KUBECONFIG", null);
            pod.put("HOME", Files.createDirectories(dir.resolve("home")).toString());
            List<String> args = new ArrayList<>(ManifestsCommand.SAMPLE_ARGS);
            args.replaceAll(a -> a.startsWith("--metrics-bind-address") || a.startsWith("--health-probe-bind-address")
                    ? a.substring(0, a.indexOf('=') + 1) + "127.0.0.1:0"
                    : a);
            KubeClient admin = server.client();
            try (KubeloopProcess controller = KubeloopProcess.command(pod, args.toArray(String[]::new))) {
                controller.awaitOutput("leading: the controller runs", Duration.ofSeconds(90));

                admin.resource(Foo.class).inNamespace("default").create(Foo.of("default", "web", "web-nginx", 2));
                await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
                    Foo foo = admin.resource(Foo.class).inNamespace("default").get("web");
                    assertThat(foo.status()).isNotNull();
                    assertThat(foo.status().availableReplicas()).isEqualTo(2);
                });
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

    private static String ok(Kubectl kubectl, String... args) {
        Kubectl.Result r = kubectl.run(args);
        assertThat(r.exit())
                .as("kubectl " + String.join(" ", args) + ":\n" + r.out())
                .isZero();
        return r.out();
    }

    /** The audit log's writes by {@code user}: {@code "verb resource namespace name code"}. */
    private static List<String> writesBy(Path audit, String user) throws java.io.IOException {
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
