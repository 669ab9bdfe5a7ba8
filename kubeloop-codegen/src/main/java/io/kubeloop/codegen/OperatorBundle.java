package io.kubeloop.codegen;

import io.kubeloop.api.json.KubeJson;
import io.kubeloop.api.yaml.KubeYaml;
import io.kubeloop.codegen.internal.BundleObjects;
import io.kubeloop.codegen.internal.BundleWebhooks;
import io.kubeloop.codegen.internal.HelmChart;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Pattern;
import tools.jackson.databind.node.ObjectNode;

/**
 * Everything needed to run an operator in a cluster, as Kubernetes objects: its CRDs, a Namespace, its
 * ServiceAccount and RBAC (as the RBAC generator wrote them), a Deployment (replicas with leader election,
 * liveness and readiness on the manager's probes, a metrics port, resource requests, a container meeting the
 * "restricted" Pod Security Standard, JVM flags that follow the container's memory limit), a metrics Service
 * and a PodDisruptionBudget. Written as one multi-document YAML stream ({@link #yaml()}), as a directory for
 * {@code kubectl apply -k} ({@link #writeKustomize}) or as a Helm chart ({@link #writeHelmChart}).
 *
 * {@snippet :
 * OperatorBundle bundle = OperatorBundle.of("foo-operator", "foo-system", "ghcr.io/example/foo:1.0")
 *         .withCrds(CrdGenerator.crds(List.of(Foo.class)))
 *         .withRbac(rbacObjects);             // ServiceAccount, ClusterRole, bindings, leader-election Role
 * System.out.print(bundle.yaml());
 * }
 *
 * <p>The Deployment's container runs the operator's entry point (kubeloop-controller's {@code OperatorMain},
 * or any {@code main} reading the same flags) with the flags of kubebuilder's scaffolded {@code main.go}, which
 * {@link #containerArgs()} lists after the bundle's own {@link #args}: {@code --leader-elect} and
 * {@code --leader-election-id=ID} with a {@link #leaderElectionId}, {@code --metrics-bind-address=:8080} (port
 * {@code metrics}, {@value #METRICS_PORT}) and {@code --health-probe-bind-address=:8081} (port {@code probes},
 * {@value #PROBE_PORT}, where liveness asks {@code /healthz} and readiness {@code /readyz}); a flag already
 * among {@link #args} is not repeated. Its environment: {@code POD_NAMESPACE} (the Lease's namespace) from
 * {@code metadata.namespace}, and {@code WATCH_NAMESPACE} (the namespaces the cache holds, comma-separated;
 * empty for all) from the pod annotation {@value #WATCH_NAMESPACE_FIELD} that the Operator Lifecycle Manager
 * sets — empty, so every namespace, when the bundle is applied as it is, as its ClusterRole grants.
 *
 * <p>Immutable and thread-safe as long as the trees given to it are not changed afterwards (every output is
 * a new copy).
 *
 * @param name the operator's name: Deployment, Service, PodDisruptionBudget and labels
 * @param namespace where it runs
 * @param image its container image
 * @param replicas how many copies run (leader election keeps one active)
 * @param crds the CustomResourceDefinitions it serves
 * @param rbac its ServiceAccount and RBAC objects; the Deployment runs as the ServiceAccount among them
 *     (else one named {@code name})
 * @param args the container's arguments before the entry point's flags (see {@link #containerArgs()}), e.g. a
 *     subcommand
 * @param webhooks the webhooks it serves (see {@link #withWebhooks})
 * @param leaderElectionId the Lease its replicas elect a leader with, in {@link #namespace}; null for no leader
 *     election, which allows one replica only
 */
public record OperatorBundle(
        String name,
        String namespace,
        String image,
        int replicas,
        List<ObjectNode> crds,
        List<ObjectNode> rbac,
        List<String> args,
        List<BundleWebhook> webhooks,
        String leaderElectionId) {

    private static final Pattern DNS_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
    private static final Pattern DNS_SUBDOMAIN =
            Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");

    /** The port the manager serves {@code /metrics} on in the container. */
    public static final int METRICS_PORT = 8080;
    /** The port the manager serves {@code /healthz} and {@code /readyz} on in the container. */
    public static final int PROBE_PORT = 8081;
    /** The port the webhook server listens on in the container (controller-runtime's). */
    public static final int WEBHOOK_PORT = 9443;
    /** Where the webhook server's certificate Secret is mounted (controller-runtime's default). */
    public static final String WEBHOOK_CERT_DIR = "/tmp/k8s-webhook-server/serving-certs";
    /**
     * Where the Deployment takes {@code WATCH_NAMESPACE} from: the pod annotation the Operator Lifecycle Manager
     * sets to the operator group's target namespaces (the Operator SDK's convention); absent, it is empty.
     */
    public static final String WATCH_NAMESPACE_FIELD = "metadata.annotations['olm.targetNamespaces']";

    public OperatorBundle {
        requireLabel("name", name);
        requireLabel("namespace", namespace);
        Objects.requireNonNull(image, "image");
        if (image.isBlank()) {
            throw new CodegenException("the image must not be blank");
        }
        if (replicas < 1) {
            throw new CodegenException("replicas must be at least 1, got " + replicas);
        }
        if (leaderElectionId != null) {
            if (leaderElectionId.length() > 253
                    || !DNS_SUBDOMAIN.matcher(leaderElectionId).matches()) {
                throw new CodegenException("the leader election id must be a DNS subdomain (lower-case letters, digits,"
                        + " '-' and '.'), got \"" + leaderElectionId + "\"");
            }
        } else if (replicas > 1) {
            throw new CodegenException(replicas + " replicas without leader election would all reconcile at once:"
                    + " set a leader election id, or run 1 replica");
        }
        crds = List.copyOf(crds);
        rbac = List.copyOf(rbac);
        args = List.copyOf(args);
        webhooks = List.copyOf(webhooks);
    }

    private static void requireLabel(String what, String value) {
        Objects.requireNonNull(value, what);
        if (value.length() > 63 || !DNS_LABEL.matcher(value).matches()) {
            throw new CodegenException("the " + what + " must be a DNS label (lower-case letters, digits and '-', at"
                    + " most 63 characters), got \"" + value + "\"");
        }
    }

    /**
     * A bundle of two replicas electing a leader on a Lease named {@code name}, with no CRDs, no RBAC objects and
     * no arguments of its own yet.
     */
    public static OperatorBundle of(String name, String namespace, String image) {
        return new OperatorBundle(name, namespace, image, 2, List.of(), List.of(), List.of(), List.of(), name);
    }

    /** This bundle with {@code n} replicas. */
    public OperatorBundle withReplicas(int n) {
        return new OperatorBundle(name, namespace, image, n, crds, rbac, args, webhooks, leaderElectionId);
    }

    /** This bundle with these CRDs. */
    public OperatorBundle withCrds(List<ObjectNode> list) {
        return new OperatorBundle(name, namespace, image, replicas, list, rbac, args, webhooks, leaderElectionId);
    }

    /** This bundle with these ServiceAccount and RBAC objects. */
    public OperatorBundle withRbac(List<ObjectNode> list) {
        return new OperatorBundle(name, namespace, image, replicas, crds, list, args, webhooks, leaderElectionId);
    }

    /** This bundle with these container arguments before the entry point's flags (see {@link #containerArgs()}). */
    public OperatorBundle withArgs(List<String> list) {
        return new OperatorBundle(name, namespace, image, replicas, crds, rbac, list, webhooks, leaderElectionId);
    }

    /**
     * This bundle electing a leader on the Lease {@code id} (the RBAC's leader-election Role must allow it in
     * {@link #namespace}), or with no leader election when {@code id} is null (then with 1 replica only).
     */
    public OperatorBundle withLeaderElectionId(String id) {
        return new OperatorBundle(name, namespace, image, replicas, crds, rbac, args, webhooks, id);
    }

    /**
     * The container's arguments: {@link #args}, then the flags of the entry point the Deployment is set up for —
     * {@code --leader-elect --leader-election-id=ID} with leader election, {@code --metrics-bind-address=:8080},
     * {@code --health-probe-bind-address=:8081} — each unless {@link #args} already set it.
     */
    public List<String> containerArgs() {
        List<String> out = new ArrayList<>(args);
        if (leaderElectionId != null) {
            addUnlessSet(out, "leader-elect", "--leader-elect");
            addUnlessSet(out, "leader-election-id", "--leader-election-id=" + leaderElectionId);
        }
        addUnlessSet(out, "metrics-bind-address", "--metrics-bind-address=:" + METRICS_PORT);
        addUnlessSet(out, "health-probe-bind-address", "--health-probe-bind-address=:" + PROBE_PORT);
        return List.copyOf(out);
    }

    /** Adds {@code arg} unless {@code out} sets the flag {@code name} already (as {@code -name} or {@code --name}). */
    private static void addUnlessSet(List<String> out, String name, String arg) {
        for (String a : out) {
            String body = a.startsWith("--") ? a.substring(2) : a.startsWith("-") ? a.substring(1) : null;
            if (body != null && (body.equals(name) || body.startsWith(name + "="))) {
                return;
            }
        }
        out.add(arg);
    }

    /**
     * This bundle with these webhooks: the Deployment then serves HTTPS on {@link #WEBHOOK_PORT} with the
     * certificate of a Secret mounted at {@link #WEBHOOK_CERT_DIR}, a Service {@code <name>-webhook-service}
     * fronts it, cert-manager issues the certificate (a self-signed Issuer and a Certificate for the
     * Service's DNS names) and injects its CA into the webhook configurations and the converted CRDs
     * ({@code cert-manager.io/inject-ca-from}), as kubebuilder's scaffolding does.
     */
    public OperatorBundle withWebhooks(List<BundleWebhook> list) {
        return new OperatorBundle(name, namespace, image, replicas, crds, rbac, args, list, leaderElectionId);
    }

    /** The ServiceAccount the Deployment runs as: the one among the RBAC objects, else {@link #name}. */
    public String serviceAccountName() {
        return rbac.stream()
                .filter(o -> o.path("kind").asString("").equals("ServiceAccount"))
                .map(o -> o.path("metadata").path("name").asString(""))
                .findFirst()
                .orElse(name);
    }

    /**
     * Every object in the order {@code kubectl apply} needs them: CRDs, the Namespace, the ServiceAccount and
     * RBAC (the RBAC objects' namespaced ones placed in {@link #namespace} unless they name one), the
     * Deployment, the Service, the PodDisruptionBudget, then (with webhooks) the webhook Service, the
     * cert-manager Issuer and Certificate and the webhook configurations. New trees on each call.
     */
    public List<ObjectNode> objects() {
        List<ObjectNode> out = new ArrayList<>();
        crds.forEach(c -> out.add(BundleWebhooks.withConversion(c.deepCopy(), this)));
        out.add(BundleObjects.namespace(namespace));
        for (ObjectNode o : rbac) {
            out.add(BundleObjects.inNamespace(o.deepCopy(), namespace));
        }
        out.add(BundleObjects.deployment(this));
        out.add(BundleObjects.metricsService(this));
        out.add(BundleObjects.disruptionBudget(this));
        out.addAll(BundleWebhooks.objects(this));
        return out;
    }

    /** {@link #objects()} as one multi-document YAML stream. */
    public String yaml() {
        return KubeYaml.writeAll(objects());
    }

    /**
     * Writes the objects for {@code kubectl apply -k DIR}: one file per object, named
     * {@code NN-kind-name.yaml} in apply order, and a {@code kustomization.yaml} listing them with the
     * image as a kustomize {@code images} entry (so {@code kustomize edit set image} retags it).
     *
     * @return the files written, kustomization first
     * @throws UncheckedIOException when a file cannot be written
     */
    public List<Path> writeKustomize(Path dir) {
        List<Path> written = new ArrayList<>();
        StringBuilder kustomization =
                new StringBuilder("apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n");
        List<ObjectNode> objects = objects();
        List<Path> files = new ArrayList<>();
        for (int i = 0; i < objects.size(); i++) {
            ObjectNode o = objects.get(i);
            String file = "%02d-%s-%s.yaml"
                    .formatted(
                            i + 1,
                            o.path("kind").asString("").toLowerCase(Locale.ROOT),
                            o.path("metadata").path("name").asString("").replace(':', '-'));
            kustomization.append("- ").append(file).append('\n');
            files.add(write(dir.resolve(file), KubeYaml.write(o)));
        }
        int colon = image.lastIndexOf(':');
        boolean tagged = colon > image.lastIndexOf('/');
        kustomization
                .append("images:\n- name: ")
                .append(tagged ? image.substring(0, colon) : image)
                .append('\n');
        if (tagged) {
            kustomization
                    .append("  newTag: \"")
                    .append(image.substring(colon + 1))
                    .append("\"\n");
        }
        written.add(write(dir.resolve("kustomization.yaml"), kustomization.toString()));
        written.addAll(files);
        return written;
    }

    /**
     * Writes a Helm chart: {@code Chart.yaml}, {@code values.yaml} (image, replicas, resources, watched
     * namespaces), the CRDs in {@code crds/}, and templates for the ServiceAccount, the RBAC (ClusterRole and
     * ClusterRoleBinding, or a Role and RoleBinding per watched namespace when {@code watchNamespaces} is set),
     * the Deployment, the Service and the PodDisruptionBudget. Installed with
     * {@code helm install NAME DIR -n NAMESPACE --create-namespace}.
     *
     * @return the files written
     * @throws UncheckedIOException when a file cannot be written
     */
    public List<Path> writeHelmChart(Path dir) {
        List<Path> written = new ArrayList<>();
        HelmChart.files(this).forEach((file, text) -> written.add(write(dir.resolve(file), text)));
        return written;
    }

    private static Path write(Path file, String text) {
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            return Files.writeString(file, text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    @Override
    public String toString() {
        return "OperatorBundle[" + name + " in " + namespace + ", image " + image + ", " + replicas + " replicas, "
                + (leaderElectionId == null ? "no leader election" : "lease " + leaderElectionId) + ", "
                + crds.size() + " CRDs, " + rbac.size() + " RBAC objects]";
    }

    /** The labels every object of the operator carries; its pods are selected by the first. */
    public ObjectNode labels() {
        ObjectNode l = KubeJson.mapper().createObjectNode();
        l.put("app.kubernetes.io/name", name);
        l.put("app.kubernetes.io/component", "controller");
        return l;
    }
}
