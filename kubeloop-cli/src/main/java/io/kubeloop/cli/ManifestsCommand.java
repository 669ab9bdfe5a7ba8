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
 * {@code kubeloop manifests CONTROLLER}: the deployable bundle of a controller ({@link OperatorBundle}) —
 * its CRDs, Namespace, ServiceAccount, the RBAC its declarations need (with leader election), a Deployment of
 * two replicas running it with leader election, probes and metrics, a metrics Service and a
 * PodDisruptionBudget — as multi-document YAML on stdout, or written with {@code --output-dir} as a kustomize
 * directory or a Helm chart. With {@code --webhooks} the bundle also carries Foo's webhooks (defaulting,
 * validation, and a v1 version of the CRD converted by the controller's conversion webhook), served by the
 * controller's pods behind a Service with a cert-manager certificate. The built-in controller is
 * {@code sample-controller}; users' own controllers use
 * the Maven goal {@code io.kubeloop:kubeloop-maven-plugin:manifests}. Nothing is sent to a cluster.
 *
 * <p>Not thread-safe: picocli runs it once on the main thread.
 */
@Command(
        name = "manifests",
        description = "Print the deployable bundle of a controller (CRDs, Namespace, RBAC, Deployment, Service,"
                + " PodDisruptionBudget) as YAML, or write it as a kustomize directory or a Helm chart.")
final class ManifestsCommand implements Callable<Integer> {

    /** The name of the built-in controller this command knows. */
    static final String SAMPLE_CONTROLLER = "sample-controller";

    /**
     * The sample-controller's own container arguments in its pods, before the bundle's flags of leader election,
     * metrics and probes ({@link OperatorBundle#containerArgs()}).
     */
    static final List<String> SAMPLE_ARGS = List.of("sample-controller", "--no-install-crd");

    /** Output forms of {@code --output}. */
    enum Output {
        yaml,
        kustomize,
        helm
    }

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "CONTROLLER", description = "The controller: sample-controller.")
    String controller;

    @Option(
            names = "--namespace",
            paramLabel = "NS",
            defaultValue = "sample-controller-system",
            description = "The namespace the controller runs in (default: ${DEFAULT-VALUE}).")
    String namespace;

    @Option(
            names = "--image",
            paramLabel = "IMAGE",
            defaultValue = "kubeloop/sample-controller:latest",
            description = "The container image (default: ${DEFAULT-VALUE}; build it with the Jib profile).")
    String image;

    @Option(
            names = "--replicas",
            paramLabel = "N",
            defaultValue = "2",
            description = "Copies of the controller; leader election keeps one active (default: ${DEFAULT-VALUE}).")
    int replicas;

    @Option(
            names = "--webhooks",
            description = "Add Foo's defaulting, validating and conversion webhooks (a v1 version of the CRD),"
                    + " served by the controller with a certificate from cert-manager.")
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
        if (!controller.equals(SAMPLE_CONTROLLER)) {
            throw new IllegalArgumentException("unknown controller \"" + controller + "\": the built-in one is "
                    + SAMPLE_CONTROLLER + "; for your own controllers use the Maven goal"
                    + " io.kubeloop:kubeloop-maven-plugin:manifests");
        }
        if (output != Output.yaml && outputDir == null) {
            throw new IllegalArgumentException(
                    "--output " + output + " writes files: name the directory with --output-dir");
        }
        OperatorBundle bundle = sampleControllerBundle(namespace, image, replicas);
        if (webhooks) {
            bundle = withFooWebhooks(bundle);
        }
        PrintWriter out = spec.commandLine().getOut();
        switch (output) {
            case yaml -> out.print(bundle.yaml());
            case kustomize -> {
                List<Path> files = bundle.writeKustomize(outputDir);
                out.println("wrote " + files.size() + " files to " + outputDir + "; apply with: kubectl apply -k "
                        + outputDir);
            }
            case helm -> {
                List<Path> files = bundle.writeHelmChart(outputDir);
                out.println("wrote a Helm chart of " + files.size() + " files to " + outputDir
                        + "; install with: helm install " + SAMPLE_CONTROLLER + " " + outputDir + " -n " + namespace
                        + " --create-namespace");
            }
        }
        out.flush();
        return 0;
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
