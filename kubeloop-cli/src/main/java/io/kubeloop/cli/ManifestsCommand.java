package io.kubeloop.cli;

import io.kubeloop.api.Scheme;
import io.kubeloop.api.yaml.KubeYaml;
import io.kubeloop.codegen.BundleWebhook;
import io.kubeloop.codegen.CrdGenerator;
import io.kubeloop.codegen.OperatorBundle;
import io.kubeloop.controller.rbac.RbacManifests;
import io.kubeloop.controller.webhook.TypedWebhooks;
import io.kubeloop.samples.samplecontroller.Foo;
import io.kubeloop.samples.samplecontroller.FooCrd;
import io.kubeloop.samples.samplecontroller.FooV1;
import io.kubeloop.samples.samplecontroller.SampleController;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code kubeloop manifests}: the deployable bundle of a controller ({@link OperatorBundle}) — its CRDs,
 * Namespace, ServiceAccount, the RBAC its declarations need (with leader election), a Deployment of two
 * replicas running it with leader election, probes and metrics, a metrics Service and a PodDisruptionBudget —
 * as multi-document YAML on stdout, or written with {@code --output-dir} as a kustomize directory or a Helm
 * chart. Nothing is sent to a cluster.
 *
 * <p>Two kinds of controller: the built-in {@code sample-controller} (with {@code --webhooks}, Foo's
 * defaulting, validating and conversion webhooks, served by the controller's pods behind a Service with a
 * cert-manager certificate), or a user's own, from compiled classes: {@code --classpath} with the classes,
 * {@code --controllers} naming the classes whose public static {@code addTo(Manager)} adds the operator's
 * controllers (their reconcilers' {@code @Permission}s and watches make the RBAC), {@code --crd-classes} the
 * {@code @Kind} records whose CRDs it serves — the inputs of the Maven goal
 * {@code io.kubeloop:kubeloop-maven-plugin:manifests}, which writes the same bundle.
 *
 * <p>Not thread-safe: picocli runs it once on the main thread.
 */
@Command(
        name = "manifests",
        description = {
            "Print the deployable bundle of a controller (CRDs, Namespace, RBAC, Deployment, Service,"
                    + " PodDisruptionBudget) as YAML, or write it as a kustomize directory or a Helm chart:"
                    + " the built-in sample-controller, or your own from its compiled classes"
                    + " (--classpath, --controllers, --crd-classes, --name, --image).",
        },
        footer = {
            "",
            "The embedded API server's simulated kubelets run any image, even one that does not exist: a"
                    + " Deployment of this bundle turning Running there proves the manifests and the RBAC, not"
                    + " the image. Try the image in a real cluster (kind, minikube) before relying on it."
        })
final class ManifestsCommand implements Callable<Integer> {

    /** The name of the built-in controller this command knows. */
    static final String SAMPLE_CONTROLLER = "sample-controller";

    /**
     * The sample-controller's own container arguments in its pods, before the bundle's flags of leader election,
     * metrics and probes ({@link OperatorBundle#containerArgs()}).
     */
    static final List<String> SAMPLE_ARGS = List.of("sample-controller", "--no-install-crd");

    /** Where the sample-controller runs unless {@code --namespace} says otherwise. */
    static final String SAMPLE_NAMESPACE = "sample-controller-system";

    /** The sample-controller's image unless {@code --image} says otherwise. */
    static final String SAMPLE_IMAGE = "kubeloop/sample-controller:latest";

    /** The line every written bundle ends with: what a run on the embedded server does not prove. */
    static final String ANY_IMAGE_RUNS = "note: the embedded API server's simulated kubelets run any image, even"
            + " one that does not exist; a Running Deployment there proves the manifests and RBAC, not the image";

    /** Output forms of {@code --output}. */
    enum Output {
        yaml,
        kustomize,
        helm
    }

    @Spec
    CommandSpec spec;

    @Parameters(
            index = "0",
            arity = "0..1",
            paramLabel = "CONTROLLER",
            description = "The built-in controller: sample-controller. Leave it out for your own (--controllers).")
    String controller;

    @Option(
            names = "--controllers",
            paramLabel = "CLASS",
            split = ",",
            description = "Your operator: classes with a public static addTo(io.kubeloop.controller.Manager) adding"
                    + " its controllers, loaded from --classpath.")
    List<String> controllers = List.of();

    @Option(
            names = "--classpath",
            paramLabel = "PATH",
            description = "With --controllers: where your compiled classes are (e.g. target/classes), entries"
                    + " separated by the platform's path separator; kubeloop's own classes come with the command.")
    String classpath;

    @Option(
            names = "--crd-classes",
            paramLabel = "CLASS",
            split = ",",
            description = "With --controllers: the @Kind records whose CRDs your operator serves.")
    List<String> crdClasses = List.of();

    @Option(
            names = "--name",
            paramLabel = "NAME",
            description = "With --controllers: your operator's name (Deployment, Service, RBAC prefix, chart).")
    String name;

    @Option(
            names = "--leader-election-id",
            paramLabel = "ID",
            description = "With --controllers: the Lease its replicas elect a leader with (default: --name; empty"
                    + " for no leader election).")
    String leaderElectionId;

    @Option(
            names = "--arg",
            paramLabel = "ARG",
            description = "With --controllers: one argument of the container (repeat it) before the flags the bundle"
                    + " always passes (leader election, metrics, probes), e.g. a subcommand.")
    List<String> args = List.of();

    @Option(
            names = "--webhook",
            paramLabel = "SPEC",
            description = "With --controllers: a webhook your operator serves (repeat it): mutating:PATH:GROUP/VERSION/"
                    + "RESOURCE, validating:PATH:GROUP/VERSION/RESOURCE or conversion:CRD_NAME.")
    List<String> webhookSpecs = List.of();

    @Option(
            names = "--namespace",
            paramLabel = "NS",
            description = "The namespace the controller runs in (default: " + SAMPLE_NAMESPACE
                    + " for the sample-controller, NAME-system for yours).")
    String namespace;

    @Option(
            names = "--image",
            paramLabel = "IMAGE",
            description = "The container image (required for yours; the sample-controller's default: " + SAMPLE_IMAGE
                    + ", built with the Jib profile).")
    String image;

    @Option(
            names = "--replicas",
            paramLabel = "N",
            defaultValue = "2",
            description = "Copies of the controller; leader election keeps one active (default: ${DEFAULT-VALUE}).")
    int replicas;

    @Option(
            names = "--webhooks",
            description = "sample-controller only: add Foo's defaulting, validating and conversion webhooks (a v1"
                    + " version of the CRD), served by the controller with a certificate from cert-manager.")
    boolean webhooks;

    @Option(
            names = "--output",
            paramLabel = "FORM",
            defaultValue = "yaml",
            description = "yaml (on stdout), kustomize or helm (into --output-dir) (default: ${DEFAULT-VALUE}).")
    Output output;

    @Option(
            names = "--output-dir",
            paramLabel = "DIR",
            description = "Where --output kustomize or helm writes its files.")
    Path outputDir;

    @Override
    public Integer call() {
        if (output != Output.yaml && outputDir == null) {
            throw new IllegalArgumentException(
                    "--output " + output + " writes files: name the directory with --output-dir");
        }
        OperatorBundle bundle = controllers.isEmpty() ? builtInBundle() : ownBundle();
        PrintWriter out = spec.commandLine().getOut();
        switch (output) {
            case yaml -> out.print(bundle.yaml());
            case kustomize -> {
                List<Path> files = bundle.writeKustomize(outputDir);
                out.println("wrote " + files.size() + " files to " + outputDir + "; apply with: kubectl apply -k "
                        + outputDir);
                out.println(ANY_IMAGE_RUNS);
            }
            case helm -> {
                List<Path> files = bundle.writeHelmChart(outputDir);
                out.println("wrote a Helm chart of " + files.size() + " files to " + outputDir
                        + "; install with: helm install " + bundle.name() + " " + outputDir + " -n "
                        + bundle.namespace() + " --create-namespace");
                out.println(ANY_IMAGE_RUNS);
            }
        }
        out.flush();
        return 0;
    }

    /** The sample-controller's bundle, after checking that no option of a user's operator was given. */
    private OperatorBundle builtInBundle() {
        if (controller == null) {
            throw new IllegalArgumentException("name the controller: sample-controller, or your own with"
                    + " --controllers CLASS --classpath PATH --name NAME --image IMAGE");
        }
        if (!controller.equals(SAMPLE_CONTROLLER)) {
            throw new IllegalArgumentException("unknown controller \"" + controller + "\": the built-in one is "
                    + SAMPLE_CONTROLLER + "; for your own controllers name their classes with --controllers"
                    + " (or use the Maven goal io.kubeloop:kubeloop-maven-plugin:manifests)");
        }
        for (var own : List.of(
                new Given("--classpath", classpath != null),
                new Given("--crd-classes", !crdClasses.isEmpty()),
                new Given("--name", name != null),
                new Given("--leader-election-id", leaderElectionId != null),
                new Given("--arg", !args.isEmpty()),
                new Given("--webhook", !webhookSpecs.isEmpty()))) {
            if (own.given()) {
                throw new IllegalArgumentException(own.option() + " is for your own controllers (--controllers);"
                        + " the sample-controller's bundle is fixed");
            }
        }
        OperatorBundle bundle = sampleControllerBundle(
                namespace == null ? SAMPLE_NAMESPACE : namespace, image == null ? SAMPLE_IMAGE : image, replicas);
        return webhooks ? withFooWebhooks(bundle) : bundle;
    }

    /** An option and whether it was given. */
    private record Given(String option, boolean given) {}

    /** The bundle of the user's operator named by {@code --controllers}, from the classes on {@code --classpath}. */
    private OperatorBundle ownBundle() {
        if (controller != null) {
            throw new IllegalArgumentException(
                    "name either the built-in " + controller + " or your own controllers with --controllers, not both");
        }
        if (webhooks) {
            throw new IllegalArgumentException(
                    "--webhooks adds the sample-controller's webhooks; name yours with --webhook SPEC");
        }
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("--controllers needs --name: the operator's name");
        }
        if (image == null || image.isBlank()) {
            throw new IllegalArgumentException("--controllers needs --image: the operator's container image");
        }
        if (classpath == null || classpath.isBlank()) {
            throw new IllegalArgumentException(
                    "--controllers needs --classpath: where the compiled classes are, e.g. target/classes");
        }
        return OwnOperatorBundle.of(new OwnOperatorBundle.Inputs(
                classpath,
                controllers,
                crdClasses,
                name,
                namespace == null ? name + "-system" : namespace,
                image,
                replicas,
                leaderElectionId == null ? name : leaderElectionId,
                args,
                webhookSpecs));
    }

    /**
     * The sample-controller's bundle: the Foo CRD, the RBAC its manager declares (controllers, Events, leader
     * election in {@code namespace}), and a Deployment running {@link #SAMPLE_ARGS} electing a leader on the Lease
     * {@link SampleController#NAME}.
     */
    static OperatorBundle sampleControllerBundle(String namespace, String image, int replicas) {
        List<ObjectNode> rbac = RbacManifests.forControllers(
                        List.of(SampleController.class), SAMPLE_CONTROLLER, namespace, SampleController.NAME)
                .objects()
                .stream()
                .map(o -> o.node().deepCopy())
                .toList();
        return OperatorBundle.of(SAMPLE_CONTROLLER, namespace, image)
                .withReplicas(replicas)
                .withCrds(List.of(KubeYaml.readAll(FooCrd.yaml()).getFirst().node()))
                .withRbac(rbac)
                .withArgs(SAMPLE_ARGS)
                .withLeaderElectionId(SampleController.NAME);
    }

    /**
     * {@code bundle} with Foo's webhooks: the Foo CRD in v1alpha1 (stored) and v1, converted by the
     * controller's {@code /convert}; the defaulting and validating webhooks of v1alpha1 Foos; the
     * controller serving them on {@link OperatorBundle#WEBHOOK_PORT}.
     */
    static OperatorBundle withFooWebhooks(OperatorBundle bundle) {
        String group = "samplecontroller.k8s.io";
        TypedWebhooks<Foo> paths = TypedWebhooks.forType(
                Foo.class, Scheme.builder().register(Foo.class).build());
        List<String> args = new ArrayList<>(bundle.args());
        args.add("--webhook-bind-address=:" + OperatorBundle.WEBHOOK_PORT);
        args.add("--webhook-cert-dir=" + OperatorBundle.WEBHOOK_CERT_DIR);
        return bundle.withCrds(CrdGenerator.crds(List.of(Foo.class, FooV1.class)))
                .withArgs(args)
                .withWebhooks(List.of(
                        BundleWebhook.mutating(paths.mutatePath(), group, "v1alpha1", "foos"),
                        BundleWebhook.validating(paths.validatePath(), group, "v1alpha1", "foos"),
                        BundleWebhook.conversion(FooCrd.NAME)));
    }
}
