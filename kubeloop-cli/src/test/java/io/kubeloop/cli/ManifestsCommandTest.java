package io.kubeloop.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.yaml.KubeYaml;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.spi.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

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
    private static JsonNode container(DynamicObject deployment) {
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
        assertThat(k.out())
                .contains("apply with: kubectl apply -k " + dir.resolve("k"))
                .contains("simulated kubelets run any image, even one that does not exist");
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
                        + "for your own controllers name their classes with --controllers"
                        + " (or use the Maven goal io.kubeloop:kubeloop-maven-plugin:manifests)\n");
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

    /** Compiles a small operator of a user's, outside the command's class path: its classes directory. */
    private Path compileShelfOperator() throws IOException {
        Path src = Files.createDirectories(dir.resolve("src/com/example/shelf"));
        Files.writeString(src.resolve("Book.java"), """
                package com.example.shelf;

                import io.kubeloop.api.Kind;
                import io.kubeloop.api.KubernetesObject;
                import io.kubeloop.api.ObjectMeta;
                import io.kubeloop.api.crd.CustomResource;

                @Kind(group = "shelf.example.com", version = "v1")
                @CustomResource(status = true)
                public record Book(String apiVersion, String kind, ObjectMeta metadata, Spec spec, Status status)
                        implements KubernetesObject {
                    public record Spec(String title) {}

                    public record Status(Boolean shelved) {}
                }
                """);
        Files.writeString(src.resolve("ShelfOperator.java"), """
                package com.example.shelf;

                import io.fabric8.kubernetes.api.model.ConfigMap;
                import io.kubeloop.controller.Controller;
                import io.kubeloop.controller.ControllerBuilder;
                import io.kubeloop.controller.Manager;
                import io.kubeloop.controller.Result;
                import io.kubeloop.controller.rbac.Permission;

                public final class ShelfOperator {
                    private ShelfOperator() {}

                    @Permission(groups = "", resources = "configmaps", verbs = {"create", "update"})
                    @Permission(groups = "shelf.example.com", resources = "books/status", verbs = "update")
                    static final class Shelver implements io.kubeloop.controller.Reconciler {
                        @Override
                        public Result reconcile(io.kubeloop.controller.Request request,
                                io.kubeloop.controller.ReconcileContext context) {
                            return Result.done();
                        }
                    }

                    public static Controller addTo(Manager manager) {
                        return ControllerBuilder.forResource(Book.class)
                                .owns(ConfigMap.class)
                                .named("shelver")
                                .build(manager, new Shelver());
                    }
                }
                """);
        Path classes = dir.resolve("classes");
        int rc = ToolProvider.findFirst("javac")
                .orElseThrow()
                .run(
                        System.out,
                        System.err,
                        "-d",
                        classes.toString(),
                        "-classpath",
                        System.getProperty("java.class.path"),
                        src.resolve("Book.java").toString(),
                        src.resolve("ShelfOperator.java").toString());
        assertThat(rc).isZero();
        return classes;
    }

    @Test
    void writesTheBundleOfAUsersOwnControllersFromTheirCompiledClasses() throws IOException {
        Path classes = compileShelfOperator();

        Run r = run(
                "manifests",
                "--classpath",
                classes.toString(),
                "--controllers",
                "com.example.shelf.ShelfOperator",
                "--crd-classes",
                "com.example.shelf.Book",
                "--name",
                "shelf-operator",
                "--image",
                "registry.example.com/shelf:1.0",
                "--arg=serve",
                "--arg=--metrics-bind-address=:9090");

        assertThat(r.exit()).as(r.err()).isZero();
        List<DynamicObject> objects = KubeYaml.readAll(r.out());
        assertThat(objects)
                .extracting(DynamicObject::kind)
                .startsWith("CustomResourceDefinition", "Namespace", "ServiceAccount", "ClusterRole")
                .contains("Deployment", "Service", "PodDisruptionBudget");
        assertThat(objects.getFirst().metadata().name()).isEqualTo("books.shelf.example.com");
        assertThat(objects.get(1).metadata().name())
                .as("the namespace's default")
                .isEqualTo("shelf-operator-system");
        String clusterRole = objects.stream()
                .filter(o -> o.kind().equals("ClusterRole"))
                .findFirst()
                .orElseThrow()
                .node()
                .toString();
        assertThat(clusterRole)
                .as("the reconciler's @Permissions and the watches of Books and ConfigMaps")
                .contains("\"books/status\"", "\"configmaps\"", "\"books\"", "\"create\"", "\"watch\"");
        assertThat(objects.stream()
                        .filter(o -> o.kind().equals("Role"))
                        .map(o -> o.node().toString()))
                .as("leader election in the operator's namespace")
                .anySatisfy(role -> assertThat(role).contains("\"leases\"", "\"shelf-operator-system\""));
        DynamicObject deployment = objects.stream()
                .filter(o -> o.kind().equals("Deployment"))
                .findFirst()
                .orElseThrow();
        assertThat(deployment.metadata().name()).isEqualTo("shelf-operator");
        assertThat(container(deployment).path("image").asString()).isEqualTo("registry.example.com/shelf:1.0");
        assertThat(container(deployment).path("args").toString())
                .as("the own arguments first, then the entry point's flags they do not set")
                .isEqualTo("[\"serve\",\"--metrics-bind-address=:9090\",\"--leader-elect\","
                        + "\"--leader-election-id=shelf-operator\",\"--health-probe-bind-address=:8081\"]");
    }

    @Test
    void badInputForAUsersControllersIsOneLine() throws IOException {
        Path classes = compileShelfOperator();
        String cp = classes.toString();
        String[] own = {"--name", "shelf", "--image", "shelf:1"};

        assertOneLine(
                run("manifests"),
                "error: name the controller: sample-controller, or your own with --controllers CLASS"
                        + " --classpath PATH --name NAME --image IMAGE");
        assertOneLine(
                run(concat(new String[] {"manifests", "--controllers", "com.example.shelf.ShelfOperator"}, own)),
                "error: --controllers needs --classpath: where the compiled classes are, e.g. target/classes");
        assertOneLine(
                run("manifests", "--classpath", cp, "--controllers", "com.example.shelf.ShelfOperator", "--name", "s"),
                "error: --controllers needs --image: the operator's container image");
        assertOneLine(
                run(concat(
                        new String[] {
                            "manifests", "--classpath", dir.resolve("nope").toString(), "--controllers", "A"
                        },
                        own)),
                "error: --classpath: " + dir.resolve("nope") + " does not exist");
        assertOneLine(
                run(concat(new String[] {"manifests", "--classpath", cp, "--controllers", "com.example.Missing"}, own)),
                "error: class com.example.Missing not found in --classpath " + cp);
        assertOneLine(
                run(concat(
                        new String[] {"manifests", "--classpath", cp, "--controllers", "com.example.shelf.Book"}, own)),
                "error: com.example.shelf.Book has no public static addTo(io.kubeloop.controller.Manager)");
        assertOneLine(
                run(concat(
                        new String[] {
                            "manifests",
                            "--classpath",
                            cp,
                            "--controllers",
                            "com.example.shelf.ShelfOperator",
                            "--webhook",
                            "mutating:nopath"
                        },
                        own)),
                "error: a webhook is mutating:PATH:GROUP/VERSION/RESOURCE, validating:PATH:GROUP/VERSION/RESOURCE"
                        + " or conversion:CRD_NAME, got \"mutating:nopath\"");
        assertOneLine(
                run("manifests", "sample-controller", "--controllers", "com.example.shelf.ShelfOperator"),
                "error: name either the built-in sample-controller or your own controllers with --controllers,"
                        + " not both");
        assertOneLine(
                run("manifests", "sample-controller", "--classpath", cp),
                "error: --classpath is for your own controllers (--controllers); the sample-controller's bundle"
                        + " is fixed");
    }

    private static String[] concat(String[] a, String[] b) {
        String[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    private static void assertOneLine(Run r, String line) {
        assertThat(r.exit()).as(r.out()).isEqualTo(1);
        assertThat(r.err()).isEqualTo(line + "\n");
    }

    @Test
    void theHelpSaysThatTheSimulatedKubeletsRunAnyImage() {
        Run r = run("manifests", "--help");
        assertThat(r.exit()).isZero();
        assertThat(r.out().replaceAll("\\s+", " "))
                .contains("--controllers=CLASS")
                .contains("simulated kubelets run any image, even one that does not exist");
    }
}
