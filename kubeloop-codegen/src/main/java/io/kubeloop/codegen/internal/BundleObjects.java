package io.kubeloop.codegen.internal;

import io.kubeloop.api.json.KubeJson;
import io.kubeloop.codegen.OperatorBundle;
import java.util.Set;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The objects of an {@link OperatorBundle} besides its CRDs and RBAC: Namespace, Deployment, metrics Service
 * and PodDisruptionBudget, built as kubebuilder's scaffolding lays them out, with a container that meets the
 * "restricted" Pod Security Standard.
 *
 * <p>Stateless.
 */
public final class BundleObjects {

    private BundleObjects() {}

    /**
     * The JVM flags of the container: G1 (which the JVM would not choose by itself in a container of less than
     * two CPUs or 1,792 MiB; measured against the serial collector in docs/deploy.md), heap from the container's
     * memory limit, exit on OutOfMemoryError.
     */
    public static final String JAVA_TOOL_OPTIONS = "-XX:+UseG1GC -XX:MaxRAMPercentage=75 -XX:+ExitOnOutOfMemoryError";

    /** The variable naming the namespaces the operator's cache holds (the Operator SDK's). */
    public static final String WATCH_NAMESPACE = "WATCH_NAMESPACE";

    private static final Set<String> CLUSTER_SCOPED =
            Set.of("ClusterRole", "ClusterRoleBinding", "Namespace", "CustomResourceDefinition");

    /** A Namespace. */
    public static ObjectNode namespace(String name) {
        ObjectNode n = object("v1", "Namespace", name, null);
        return n;
    }

    /** {@code o} placed in {@code namespace} when its kind is namespaced and it names none. */
    public static ObjectNode inNamespace(ObjectNode o, String namespace) {
        ObjectNode meta = (ObjectNode) o.path("metadata");
        if (!CLUSTER_SCOPED.contains(o.path("kind").asString(""))
                && meta.path("namespace").asString("").isEmpty()) {
            meta.put("namespace", namespace);
        }
        return o;
    }

    /** The operator's Deployment. */
    public static ObjectNode deployment(OperatorBundle b) {
        ObjectNode d = object("apps/v1", "Deployment", b.name(), b.namespace());
        d.withObject("metadata").set("labels", b.labels());
        ObjectNode spec = d.putObject("spec");
        spec.put("replicas", b.replicas());
        spec.putObject("selector").set("matchLabels", selector(b));
        ObjectNode template = spec.putObject("template");
        template.putObject("metadata").set("labels", b.labels());
        ObjectNode pod = template.putObject("spec");
        pod.put("serviceAccountName", b.serviceAccountName());
        pod.put("terminationGracePeriodSeconds", 10);
        ObjectNode podSecurity = pod.putObject("securityContext");
        podSecurity.put("runAsNonRoot", true);
        podSecurity.putObject("seccompProfile").put("type", "RuntimeDefault");
        ObjectNode c = pod.putArray("containers").addObject();
        c.put("name", "manager");
        c.put("image", b.image());
        ArrayNode args = c.putArray("args");
        b.containerArgs().forEach(args::add);
        ArrayNode env = c.putArray("env");
        env.addObject().put("name", "JAVA_TOOL_OPTIONS").put("value", JAVA_TOOL_OPTIONS);
        env.addObject()
                .put("name", "POD_NAMESPACE")
                .putObject("valueFrom")
                .putObject("fieldRef")
                .put("fieldPath", "metadata.namespace");
        env.addObject()
                .put("name", WATCH_NAMESPACE)
                .putObject("valueFrom")
                .putObject("fieldRef")
                .put("fieldPath", OperatorBundle.WATCH_NAMESPACE_FIELD);
        ArrayNode ports = c.putArray("ports");
        ports.addObject()
                .put("name", "metrics")
                .put("containerPort", OperatorBundle.METRICS_PORT)
                .put("protocol", "TCP");
        ports.addObject()
                .put("name", "probes")
                .put("containerPort", OperatorBundle.PROBE_PORT)
                .put("protocol", "TCP");
        probe(c.putObject("livenessProbe"), "/healthz", 15, 20);
        probe(c.putObject("readinessProbe"), "/readyz", 5, 10);
        c.set("resources", resources());
        ObjectNode sc = c.putObject("securityContext");
        sc.put("allowPrivilegeEscalation", false);
        sc.put("readOnlyRootFilesystem", true);
        sc.put("runAsNonRoot", true);
        sc.putObject("capabilities").putArray("drop").add("ALL");
        sc.putObject("seccompProfile").put("type", "RuntimeDefault");
        ArrayNode mounts = c.putArray("volumeMounts");
        mounts.addObject().put("name", "tmp").put("mountPath", "/tmp");
        ArrayNode volumes = pod.putArray("volumes");
        volumes.addObject().put("name", "tmp").putObject("emptyDir");
        if (!b.webhooks().isEmpty()) {
            ports.addObject()
                    .put("name", "webhook-server")
                    .put("containerPort", OperatorBundle.WEBHOOK_PORT)
                    .put("protocol", "TCP");
            mounts.addObject()
                    .put("name", "webhook-certs")
                    .put("mountPath", OperatorBundle.WEBHOOK_CERT_DIR)
                    .put("readOnly", true);
            volumes.addObject()
                    .put("name", "webhook-certs")
                    .putObject("secret")
                    .put("secretName", BundleWebhooks.secretName(b));
        }
        return d;
    }

    /** Requests of 100m CPU and 256Mi, a 512Mi memory limit (the JVM sizes its heap from it). */
    public static ObjectNode resources() {
        ObjectNode r = KubeJson.mapper().createObjectNode();
        r.putObject("requests").put("cpu", "100m").put("memory", "256Mi");
        r.putObject("limits").put("memory", "512Mi");
        return r;
    }

    private static void probe(ObjectNode p, String path, int initialDelay, int period) {
        p.putObject("httpGet").put("path", path).put("port", "probes");
        p.put("initialDelaySeconds", initialDelay);
        p.put("periodSeconds", period);
    }

    /** The Service in front of the metrics port, for a Prometheus ServiceMonitor or scrape config. */
    public static ObjectNode metricsService(OperatorBundle b) {
        ObjectNode s = object("v1", "Service", b.name() + "-metrics", b.namespace());
        s.withObject("metadata").set("labels", b.labels());
        ObjectNode spec = s.putObject("spec");
        spec.set("selector", selector(b));
        spec.putArray("ports")
                .addObject()
                .put("name", "metrics")
                .put("port", OperatorBundle.METRICS_PORT)
                .put("targetPort", "metrics")
                .put("protocol", "TCP");
        return s;
    }

    /** A PodDisruptionBudget keeping one replica up through voluntary disruptions (drains, upgrades). */
    public static ObjectNode disruptionBudget(OperatorBundle b) {
        ObjectNode p = object("policy/v1", "PodDisruptionBudget", b.name(), b.namespace());
        p.withObject("metadata").set("labels", b.labels());
        ObjectNode spec = p.putObject("spec");
        spec.put("minAvailable", 1);
        spec.putObject("selector").set("matchLabels", selector(b));
        return p;
    }

    private static ObjectNode selector(OperatorBundle b) {
        return KubeJson.mapper().createObjectNode().put("app.kubernetes.io/name", b.name());
    }

    /** A new object of {@code kind} named {@code name}, in {@code namespace} unless it is null. */
    static ObjectNode object(String apiVersion, String kind, String name, String namespace) {
        ObjectNode n = KubeJson.mapper().createObjectNode();
        n.put("apiVersion", apiVersion).put("kind", kind);
        ObjectNode meta = n.putObject("metadata");
        meta.put("name", name);
        if (namespace != null) {
            meta.put("namespace", namespace);
        }
        return n;
    }
}
