package io.kubeloop.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.errors.NotFoundException;
import io.kubeloop.api.yaml.KubeYaml;
import io.kubeloop.apiserver.EmbeddedApiServer;
import io.kubeloop.apiserver.ServerOptions;
import io.kubeloop.apiserver.SimulatedCluster;
import io.kubeloop.client.KubeClient;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code kubeloop manifests sample-controller --webhooks} and {@code kubeloop sample-controller
 * --webhook-bind-address} together, as on a cluster with cert-manager: the bundle's Foo CRD (v1alpha1 and v1,
 * converted by webhook), its webhook Service and its Mutating/ValidatingWebhookConfigurations are applied with
 * real kubectl, the CA put in where cert-manager's injector would, the Service's Endpoints pointed at the
 * running controller (what the endpoints controller does for its pod). Then kubectl's Foos get the defaulting
 * webhook's defaults, a bad Deployment name is refused with the validating webhook's message, a Foo reads back
 * in v1 through the conversion webhook, and the controller reconciles the defaulted Foo.
 */
@Timeout(180)
class SampleControllerWebhooksTest {

    private static final String NS = "foo-system";
    private static final String SERVICE = "sample-controller-webhook-service";

    @TempDir
    Path dir;

    @Test
    void theBundlesWebhooksServedByTheControllerDefaultValidateAndConvertFoos() throws Exception {
        try (EmbeddedApiServer server =
                EmbeddedApiServer.start(ServerOptions.defaults().withCluster(SimulatedCluster.off()))) {
            Path kubeconfig = server.writeKubeconfig(dir.resolve("kubeconfig"));
            Kubectl kubectl = Kubectl.of("current", kubeconfig, dir, "default");
            Path certs = dir.resolve("certs");
            String caBundle = server.writeServingCertificate(certs, List.of(SERVICE + "." + NS + ".svc"));
            int port = freePort();

            StringWriter manifests = new StringWriter();
            int exit = Main.run(
                    new PrintWriter(manifests),
                    new PrintWriter(new StringWriter()),
                    "manifests",
                    "sample-controller",
                    "--namespace",
                    NS,
                    "--webhooks");
            assertThat(exit).isZero();
            List<DynamicObject> applied = new ArrayList<>();
            for (DynamicObject o : KubeYaml.readAll(manifests.toString())) {
                switch (o.kind()) {
                    case "CustomResourceDefinition", "Namespace" -> applied.add(o);
                    case "Service" -> {
                        if (o.metadata().name().equals(SERVICE)) {
                            applied.add(o);
                        }
                    }
                    case "MutatingWebhookConfiguration", "ValidatingWebhookConfiguration" ->
                        applied.add(withCaBundle(o, caBundle));
                    default -> {
                        // RBAC, Deployment, cert-manager's Issuer and Certificate: not needed in process
                    }
                }
            }
            assertThat(applied)
                    .extracting(DynamicObject::kind)
                    .contains("MutatingWebhookConfiguration", "ValidatingWebhookConfiguration", "Service");
            applied.replaceAll(o -> o.kind().equals("CustomResourceDefinition") ? withCaBundle(o, caBundle) : o);
            String endpoints = """
                    {"apiVersion": "v1", "kind": "Endpoints", "metadata": {"name": "%s", "namespace": "%s"},
                     "subsets": [{"addresses": [{"ip": "127.0.0.1"}],
                                  "ports": [{"name": "webhook-server", "port": %d}]}]}""".formatted(SERVICE, NS, port);
            StringBuilder yaml = new StringBuilder();
            for (DynamicObject o : applied) {
                yaml.append("---\n").append(KubeYaml.write(o));
            }
            yaml.append("---\n")
                    .append(KubeYaml.write(KubeYaml.readAll(endpoints).getFirst()));
            Path file = Files.writeString(dir.resolve("webhooks.yaml"), yaml);
            Kubectl.Result apply = Kubectl.of("current", kubeconfig, dir, NS).run("apply", "-f", file.toString());
            assertThat(apply.exit()).as(apply.out()).isZero();
            Kubectl.Result established = kubectl.run(
                    "wait", "--for=condition=Established", "crd/foos.samplecontroller.k8s.io", "--timeout=60s");
            assertThat(established.exit()).as(established.out()).isZero();

            InProcessCommand controller = InProcessCommand.start(
                    "sample-controller",
                    "--kubeconfig",
                    kubeconfig.toString(),
                    "--cache-dir",
                    dir.resolve("cache").toString(),
                    "--no-install-crd",
                    "--webhook-bind-address=127.0.0.1:" + port,
                    "--webhook-cert-dir=" + certs);
            try {
                await().atMost(Duration.ofSeconds(60))
                        .until(() -> controller.out().toString().contains("sample-controller running"));
                assertThat(controller.out().toString())
                        .contains("webhooks on https://127.0.0.1:" + port
                                + ": Foo defaulting, validation and v1alpha1/v1 conversion");

                Path web = Files.writeString(dir.resolve("web.yaml"), """
                        apiVersion: samplecontroller.k8s.io/v1alpha1
                        kind: Foo
                        metadata: {name: web}
                        spec: {}
                        """);
                Kubectl.Result created = kubectl.run("create", "-f", web.toString());
                assertThat(created.exit()).as(created.out()).isZero();
                Kubectl.Result read =
                        kubectl.run("get", "foos.v1alpha1.samplecontroller.k8s.io", "web", "-o", "jsonpath={.spec}");
                assertThat(read.out())
                        .as("defaulted by the mutating webhook")
                        .isEqualTo("{\"deploymentName\":\"web\",\"replicas\":1}");
                Kubectl.Result v1 =
                        kubectl.run("get", "foos.v1.samplecontroller.k8s.io", "web", "-o", "jsonpath={.spec}");
                assertThat(v1.out())
                        .as("converted by the webhook")
                        .isEqualTo("{\"deployment\":\"web\",\"replicas\":1}");

                Path bad = Files.writeString(dir.resolve("bad.yaml"), """
                        apiVersion: samplecontroller.k8s.io/v1alpha1
                        kind: Foo
                        metadata: {name: bad}
                        spec: {deploymentName: Not_A_Label}
                        """);
                Kubectl.Result refused = kubectl.run("create", "-f", bad.toString());
                assertThat(refused.exit()).isNotZero();
                assertThat(refused.out())
                        .contains("admission webhook")
                        .contains("denied the request: spec.deploymentName: Invalid value: \"Not_A_Label\": must be a"
                                + " DNS-1123 label");

                KubeClient client = server.client();
                await().atMost(Duration.ofSeconds(30)).until(() -> deploymentExists(client, "web"));
            } finally {
                controller.stop();
            }
            assertThat(controller.exit().get()).as(controller.err().toString()).isZero();
        }
    }

    /** What cert-manager's CA injector does for {@code cert-manager.io/inject-ca-from}. */
    private static DynamicObject withCaBundle(DynamicObject o, String caBundle) {
        return o.edit(n -> {
            if (o.kind().equals("CustomResourceDefinition")) {
                JsonNode config =
                        n.path("spec").path("conversion").path("webhook").path("clientConfig");
                assertThat(config.path("service").path("name").asString()).isEqualTo(SERVICE);
                ((ObjectNode) config).put("caBundle", caBundle);
            } else {
                for (JsonNode webhook : n.path("webhooks")) {
                    ((ObjectNode) webhook.path("clientConfig")).put("caBundle", caBundle);
                }
            }
        });
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private static boolean deploymentExists(KubeClient client, String name) {
        try {
            return client.resource(Deployment.class).inNamespace("default").get(name) != null;
        } catch (NotFoundException e) {
            return false;
        }
    }
}
