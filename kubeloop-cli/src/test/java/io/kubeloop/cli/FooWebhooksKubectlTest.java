package io.kubeloop.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.GroupVersionResource;
import io.kubeloop.api.ResourceScope;
import io.kubeloop.api.yaml.KubeYaml;
import io.kubeloop.apiserver.EmbeddedApiServer;
import io.kubeloop.apiserver.ServerOptions;
import io.kubeloop.apiserver.SimulatedCluster;
import io.kubeloop.client.KubeClient;
import io.kubeloop.controller.Manager;
import io.kubeloop.controller.webhook.WebhookServer;
import io.kubeloop.controller.webhook.WebhookServerOptions;
import io.kubeloop.samples.samplecontroller.FooCrd;
import io.kubeloop.samples.samplecontroller.FooWebhooks;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The sample's Foo webhooks end to end, through real kubectl: a Manager serves them over HTTPS (certificate
 * from the embedded server's CA), the Foo CRD gets a {@code v1} version converted by the webhook, and
 * mutating and validating webhook configurations point at the manager. kubectl's Foos get their defaults,
 * a bad Deployment name is refused with the webhook's message, many replicas draw a warning, and a Foo
 * written in v1alpha1 reads back in v1 (and the other way round); a Foo written in v1 goes to the v1alpha1
 * webhooks converted, as {@code matchPolicy: Equivalent} has it. Run with kubectl 1.27, 1.33 and the one
 * on the PATH (skipped when not installed).
 */
class FooWebhooksKubectlTest {

    @TempDir
    static Path dir;

    static EmbeddedApiServer server;
    static Manager manager;
    static Path kubeconfig;

    @BeforeAll
    static void start() throws IOException {
        server = EmbeddedApiServer.start(ServerOptions.defaults().withCluster(SimulatedCluster.off()));
        kubeconfig = server.writeKubeconfig(dir.resolve("kubeconfig"));
        String caBundle = server.writeServingCertificate(dir.resolve("certs"));
        KubeClient client = server.client();
        WebhookServer webhooks = WebhookServer.create(WebhookServerOptions.defaults()
                .withAddress(new InetSocketAddress("127.0.0.1", 0))
                .withCertDir(dir.resolve("certs")));
        FooWebhooks.registerWith(webhooks, client.scheme());
        manager = Manager.create(client);
        manager.add(webhooks);
        manager.start();
        String base = "https://127.0.0.1:" + webhooks.address().orElseThrow().getPort();

        ObjectNode crd = (ObjectNode) KubeYaml.readAll(FooCrd.yaml()).getFirst().node();
        ObjectNode spec = (ObjectNode) crd.path("spec");
        ArrayNode versions = (ArrayNode) spec.path("versions");
        ObjectNode v1 = (ObjectNode) versions.get(0).deepCopy();
        v1.put("name", "v1").put("storage", false);
        ObjectNode v1Spec = (ObjectNode)
                v1.path("schema").path("openAPIV3Schema").path("properties").path("spec");
        ObjectNode properties = (ObjectNode) v1Spec.path("properties");
        properties.set("deployment", properties.remove("deploymentName"));
        versions.add(v1);
        ObjectNode conversion = spec.putObject("conversion").put("strategy", "Webhook");
        ObjectNode webhook = conversion.putObject("webhook");
        webhook.putArray("conversionReviewVersions").add("v1");
        webhook.putObject("clientConfig").put("url", base + "/convert").put("caBundle", caBundle);
        client.resource(
                        new GroupVersionResource("apiextensions.k8s.io", "v1", "customresourcedefinitions"),
                        ResourceScope.CLUSTER,
                        DynamicObject.class)
                .create(DynamicObject.wrap(crd));
        FooCrd.install(client, Duration.ofSeconds(30));
        for (String kind : List.of("Mutating", "Validating")) {
            String path = kind.equals("Mutating") ? "mutate" : "validate";
            String config = """
                    {"apiVersion": "admissionregistration.k8s.io/v1", "kind": "%1$sWebhookConfiguration",
                     "metadata": {"name": "foo-%2$s"},
                     "webhooks": [{"name": "%2$s.foo.samplecontroller.k8s.io",
                       "clientConfig": {"url": "%3$s/%2$s-samplecontroller-k8s-io-v1alpha1-foo", "caBundle": "%4$s"},
                       "rules": [{"apiGroups": ["samplecontroller.k8s.io"], "apiVersions": ["v1alpha1"],
                                  "operations": ["CREATE", "UPDATE"], "resources": ["foos"]}],
                       "sideEffects": "None", "admissionReviewVersions": ["v1"]}]}
                    """.formatted(kind, path, base, caBundle);
            client.resource(
                            new GroupVersionResource(
                                    "admissionregistration.k8s.io",
                                    "v1",
                                    kind.toLowerCase(Locale.ROOT) + "webhookconfigurations"),
                            ResourceScope.CLUSTER,
                            DynamicObject.class)
                    .create(DynamicObject.parse(config));
        }
    }

    @AfterAll
    static void stop() {
        if (manager != null) {
            manager.close();
        }
        if (server != null) {
            server.close();
        }
    }

    private static Path file(String name, String yaml) throws IOException {
        return Files.writeString(dir.resolve(name), yaml);
    }

    @ParameterizedTest(name = "kubectl {0}")
    @ValueSource(strings = {"1.27", "1.33", "current"})
    void fooWebhooksDefaultValidateAndConvertThroughKubectl(String version) throws IOException {
        String ns = "webhooks-" + version.replace(".", "-");
        Kubectl k = Kubectl.of(version, kubeconfig, dir, ns);
        assertThat(k.run("create", "namespace", ns).exit()).isZero();

        Kubectl.Result created =
                k.run("apply", "-f", file("foo-" + version + ".yaml", """
                apiVersion: samplecontroller.k8s.io/v1alpha1
                kind: Foo
                metadata: {name: defaulted}
                spec: {}
                """).toString());
        assertThat(created.exit()).as(created.out()).isZero();
        // kubectl reads the preferred version, v1: the defaults were set in v1alpha1 and converted
        assertThat(k.run("get", "foo", "defaulted", "-o", "jsonpath={.apiVersion} {.spec.deployment}/{.spec.replicas}")
                        .out())
                .isEqualTo("samplecontroller.k8s.io/v1 defaulted/1");
        assertThat(k.run(
                                "get",
                                "foos.v1alpha1.samplecontroller.k8s.io",
                                "defaulted",
                                "-o",
                                "jsonpath={.spec.deploymentName}/{.spec.replicas}")
                        .out())
                .isEqualTo("defaulted/1");

        Kubectl.Result refused =
                k.run("apply", "-f", file("bad-" + version + ".yaml", """
                apiVersion: samplecontroller.k8s.io/v1alpha1
                kind: Foo
                metadata: {name: bad}
                spec: {deploymentName: Bad_Name, replicas: 1}
                """).toString());
        assertThat(refused.exit()).isNotZero();
        assertThat(refused.out())
                .contains("admission webhook \"validate.foo.samplecontroller.k8s.io\" denied the request: "
                        + "spec.deploymentName: Invalid value: \"Bad_Name\": must be a DNS-1123 label");

        Kubectl.Result warned =
                k.run("apply", "-f", file("many-" + version + ".yaml", """
                apiVersion: samplecontroller.k8s.io/v1alpha1
                kind: Foo
                metadata: {name: many}
                spec: {deploymentName: many, replicas: 7}
                """).toString());
        assertThat(warned.exit()).as(warned.out()).isZero();
        assertThat(warned.out()).contains("Warning: spec.replicas: more than 5 replicas of many");

        assertThat(k.run(
                                "get",
                                "foos.v1.samplecontroller.k8s.io",
                                "many",
                                "-o",
                                "jsonpath={.apiVersion} {.spec.deployment}")
                        .out())
                .isEqualTo("samplecontroller.k8s.io/v1 many");

        // written in v1: the v1alpha1 webhooks see it converted (matchPolicy Equivalent), their patch comes back
        Kubectl.Result v1 =
                k.run("apply", "-f", file("v1-" + version + ".yaml", """
                apiVersion: samplecontroller.k8s.io/v1
                kind: Foo
                metadata: {name: written-in-v1}
                spec: {deployment: from-v1}
                """).toString());
        assertThat(v1.exit()).as(v1.out()).isZero();
        assertThat(k.run(
                                "get",
                                "foos.v1alpha1.samplecontroller.k8s.io",
                                "written-in-v1",
                                "-o",
                                "jsonpath={.spec.deploymentName}/{.spec.replicas}")
                        .out())
                .isEqualTo("from-v1/1");
        Kubectl.Result badV1 =
                k.run("apply", "-f", file("bad-v1-" + version + ".yaml", """
                apiVersion: samplecontroller.k8s.io/v1
                kind: Foo
                metadata: {name: bad-v1}
                spec: {deployment: Bad_V1, replicas: 1}
                """).toString());
        assertThat(badV1.exit()).isNotZero();
        assertThat(badV1.out()).contains("spec.deploymentName: Invalid value: \"Bad_V1\": must be a DNS-1123 label");
        assertThat(List.of(created, warned, v1))
                .allSatisfy(r -> assertThat(r.out()).doesNotContain("error"));
    }
}
