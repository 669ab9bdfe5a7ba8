package io.kubeloop.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.yaml.KubeYaml;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code kubeloop manifests}: the sample-controller's bundle, as YAML, kustomize or Helm, and its errors. */
class ManifestsCommandTest {

    @TempDir
    Path dir;

    private record Run(int exit, String out, String err) {}

    private static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = Main.run(new PrintWriter(out), new PrintWriter(err), args);
        return new Run(exit, out.toString(), err.toString());
    }

    /** The Deployment's (only) container. */
    private static tools.jackson.databind.JsonNode container(DynamicObject deployment) {
        return deployment
                .node()
                .path("spec")
                .path("template")
                .path("spec")
                .path("containers")
                .get(0);
    }

    /** The API approval of upstream's sample-controller, which the Foo CRD carries. */
    private static final String UNAPPROVED = "unapproved, experimental-only; please get an approval from Kubernetes"
            + " API reviewers if you're trying to develop a CRD in the *.k8s.io or *.kubernetes.io groups";

    @Test
    void printsTheSampleControllersBundleInApplyOrder() {
        Run r = run(
                "manifests", "sample-controller", "--namespace", "ops", "--image", "example/sc:2", "--replicas", "3");
        assertThat(r.exit()).as(r.err()).isZero();
        List<DynamicObject> objects = KubeYaml.readAll(r.out());
        assertThat(objects)
                .extracting(DynamicObject::kind)
                .containsExactly(
                        "CustomResourceDefinition",
                        "Namespace",
                        "ServiceAccount",
                        "ClusterRole",
                        "ClusterRoleBinding",
                        "Role",
                        "RoleBinding",
                        "Deployment",
                        "Service",
                        "PodDisruptionBudget");
        assertThat(objects.getFirst().metadata().annotations())
                .as("samplecontroller.k8s.io is a protected group")
                .containsEntry("api-approved.kubernetes.io", UNAPPROVED);
        DynamicObject deployment = objects.get(7);
        assertThat(deployment.metadata().namespace()).isEqualTo("ops");
        assertThat(deployment.node().path("spec").path("replicas").asInt()).isEqualTo(3);
        assertThat(container(deployment).path("image").asString()).isEqualTo("example/sc:2");
        assertThat(objects.get(5).node().toString())
                .as("the leader-election Role")
                .contains("\"leases\"");
    }

    @Test
    void withWebhooksTheBundleServesFoosWebhooksWithACertManagerCertificateAndATwoVersionCrd() {
        Run r = run("manifests", "sample-controller", "--namespace", "ops", "--webhooks");
        assertThat(r.exit()).as(r.err()).isZero();
        List<DynamicObject> objects = KubeYaml.readAll(r.out());
        assertThat(objects)
                .extracting(DynamicObject::kind)
                .contains("Issuer", "Certificate", "MutatingWebhookConfiguration", "ValidatingWebhookConfiguration");
        DynamicObject crd = objects.getFirst();
        assertThat(crd.node().path("spec").path("versions").toString())
                .contains("\"name\":\"v1alpha1\",\"served\":true,\"storage\":true")
                .contains("\"name\":\"v1\",\"served\":true,\"storage\":false");
        assertThat(crd.node().path("spec").path("conversion").path("strategy").asString())
                .isEqualTo("Webhook");
        assertThat(crd.metadata().annotations()).containsEntry("api-approved.kubernetes.io", UNAPPROVED);
        DynamicObject deployment = objects.stream()
                .filter(o -> o.kind().equals("Deployment"))
                .findFirst()
                .orElseThrow();
        assertThat(container(deployment).path("args").toString())
                .contains(
                        "\"--webhook-bind-address=:9443\"",
                        "\"--webhook-cert-dir=/tmp/k8s-webhook-server/serving-certs\"");
        DynamicObject mutating = objects.stream()
                .filter(o -> o.kind().equals("MutatingWebhookConfiguration"))
                .findFirst()
                .orElseThrow();
        assertThat(mutating.node().toString()).contains("\"path\":\"/mutate-samplecontroller-k8s-io-v1alpha1-foo\"");
    }

    @Test
    void writesAKustomizeDirectoryOrAHelmChart() throws Exception {
        Run k = run(
                "manifests",
                "sample-controller",
                "--output",
                "kustomize",
                "--output-dir",
                dir.resolve("k").toString());
        assertThat(k.exit()).as(k.err()).isZero();
        assertThat(k.out()).contains("apply with: kubectl apply -k " + dir.resolve("k"));
        assertThat(dir.resolve("k/kustomization.yaml")).exists();
        Run h = run(
                "manifests",
                "sample-controller",
                "--output",
                "helm",
                "--output-dir",
                dir.resolve("h").toString());
        assertThat(h.exit()).as(h.err()).isZero();
        assertThat(Files.readString(dir.resolve("h/values.yaml"))).contains("replicaCount: 2");
        assertThat(dir.resolve("h/crds/foos.samplecontroller.k8s.io.yaml")).exists();
    }

    @Test
    void anUnknownControllerOrAMissingOutputDirectoryIsOneLine() {
        Run unknown = run("manifests", "other-controller");
        assertThat(unknown.exit()).isEqualTo(1);
        assertThat(unknown.err())
                .isEqualTo("error: unknown controller \"other-controller\": the built-in one is sample-controller; "
                        + "for your own controllers use the Maven goal io.kubeloop:kubeloop-maven-plugin:manifests\n");
        Run noDir = run("manifests", "sample-controller", "--output", "helm");
        assertThat(noDir.exit()).isEqualTo(1);
        assertThat(noDir.err()).isEqualTo("error: --output helm writes files: name the directory with --output-dir\n");
    }

    @Test
    void theMavenGoalWritesTheSameBundleForTheSameImage() throws Exception {
        Path built = Path.of("..", "kubeloop-samples", "target", "manifests", "sample-controller.yaml");
        assumeTrue(Files.exists(built), "kubeloop-samples is not built: its manifests goal output is missing");
        String image = KubeYaml.readAll(Files.readString(built)).stream()
                .filter(o -> o.kind().equals("Deployment"))
                .findFirst()
                .orElseThrow()
                .node()
                .path("spec")
                .path("template")
                .path("spec")
                .path("containers")
                .get(0)
                .path("image")
                .asString();
        Run r = run("manifests", "sample-controller", "--image", image);
        assertThat(r.out()).isEqualTo(Files.readString(built));
    }
}
