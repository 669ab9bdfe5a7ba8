package io.kubeloop.codegen.internal;

import io.kubeloop.api.yaml.KubeYaml;
import io.kubeloop.codegen.OperatorBundle;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The Helm chart of an {@link OperatorBundle}: the bundle's objects as templates whose namespace is the
 * release's and whose image, replica count, resources and watched namespaces come from {@code values.yaml}.
 * Cluster-wide RBAC (ClusterRoles and their bindings) becomes a Role and RoleBinding in each watched namespace
 * when {@code watchNamespaces} is not empty; the manager gets the list in {@code WATCH_NAMESPACE} (in place of
 * the Operator Lifecycle Manager's annotation the plain bundle reads it from).
 *
 * <p>Stateless.
 */
public final class HelmChart {

    private HelmChart() {}

    private static final String NAMESPACE = "__RELEASE_NAMESPACE__";

    /** The chart's files, path relative to the chart directory to text, in a stable order. */
    public static Map<String, String> files(OperatorBundle b) {
        Map<String, String> files = new LinkedHashMap<>();
        files.put("Chart.yaml", chart(b));
        files.put("values.yaml", values(b));
        for (ObjectNode crd : b.crds()) {
            files.put(
                    "crds/" + crd.path("metadata").path("name").asString() + ".yaml",
                    KubeYaml.write(BundleWebhooks.withConversion(crd.deepCopy(), b)));
        }
        StringBuilder clusterRbac = new StringBuilder();
        StringBuilder namespacedRbac = new StringBuilder();
        StringBuilder accounts = new StringBuilder();
        for (ObjectNode o : b.rbac()) {
            ObjectNode copy = o.deepCopy();
            String kind = copy.path("kind").asString("");
            switch (kind) {
                case "ClusterRole", "ClusterRoleBinding" ->
                    clusterRbac.append("---\n").append(template(withReleaseSubjects(copy)));
                case "ServiceAccount" -> accounts.append("---\n").append(template(namespaced(copy)));
                default -> namespacedRbac.append("---\n").append(template(withReleaseSubjects(namespaced(copy))));
            }
        }
        files.put("templates/serviceaccount.yaml", accounts.toString());
        files.put(
                "templates/rbac.yaml",
                "{{- if .Values.watchNamespaces }}\n" + scopedRbac(b) + "{{- else }}\n" + clusterRbac + "{{- end }}\n"
                        + namespacedRbac);
        files.put("templates/deployment.yaml", deployment(b));
        files.put("templates/service.yaml", template(namespaced(BundleObjects.metricsService(b))));
        files.put("templates/poddisruptionbudget.yaml", template(namespaced(BundleObjects.disruptionBudget(b))));
        if (!b.webhooks().isEmpty()) {
            files.put("templates/webhooks.yaml", webhooks(b));
        }
        return files;
    }

    private static String chart(OperatorBundle b) {
        int colon = b.image().lastIndexOf(':');
        String appVersion = colon > b.image().lastIndexOf('/') ? b.image().substring(colon + 1) : "latest";
        return """
                apiVersion: v2
                name: %s
                description: The %s operator
                type: application
                version: 0.1.0
                appVersion: "%s"
                """.formatted(b.name(), b.name(), appVersion);
    }

    private static String values(OperatorBundle b) {
        int colon = b.image().lastIndexOf(':');
        boolean tagged = colon > b.image().lastIndexOf('/');
        String repository = tagged ? b.image().substring(0, colon) : b.image();
        String tag = tagged ? b.image().substring(colon + 1) : "latest";
        JsonNode r = BundleObjects.resources();
        return """
                # The operator's image.
                image:
                  repository: %s
                  tag: "%s"
                  pullPolicy: IfNotPresent
                # Copies of the manager; leader election keeps one active.
                replicaCount: %d
                # The manager's container resources; the JVM sizes its heap from the memory limit.
                resources:
                  requests:
                    cpu: %s
                    memory: %s
                  limits:
                    memory: %s
                # Namespaces the manager watches; empty for all namespaces (cluster-wide RBAC), else RBAC is granted
                # in these namespaces only.
                watchNamespaces: []
                # The JVM's flags (JAVA_TOOL_OPTIONS): the heap follows the memory limit; see kubeloop's docs/deploy.md.
                javaToolOptions: "%s"
                """.formatted(
                        repository,
                        tag,
                        b.replicas(),
                        r.path("requests").path("cpu").asString(),
                        r.path("requests").path("memory").asString(),
                        r.path("limits").path("memory").asString(),
                        BundleObjects.JAVA_TOOL_OPTIONS);
    }

    /** A Role and RoleBinding per watched namespace with the rules of each ClusterRole the bundle binds. */
    private static String scopedRbac(OperatorBundle b) {
        StringBuilder out = new StringBuilder("{{- range $ns := .Values.watchNamespaces }}\n");
        for (ObjectNode o : b.rbac()) {
            if (!o.path("kind").asString("").equals("ClusterRoleBinding")) {
                continue;
            }
            String roleName = o.path("roleRef").path("name").asString("");
            ObjectNode role = b.rbac().stream()
                    .filter(r -> r.path("kind").asString("").equals("ClusterRole")
                            && r.path("metadata").path("name").asString("").equals(roleName))
                    .findFirst()
                    .map(ObjectNode::deepCopy)
                    .orElse(null);
            if (role == null) {
                continue;
            }
            role.put("kind", "Role");
            role.withObject("metadata").put("namespace", "__NS__");
            ObjectNode binding = withReleaseSubjects(o.deepCopy());
            binding.put("kind", "RoleBinding");
            binding.withObject("metadata").put("namespace", "__NS__");
            binding.withObject("roleRef").put("kind", "Role");
            out.append("---\n").append(template(role).replace(quoted("__NS__"), "{{ $ns }}"));
            out.append("---\n").append(template(binding).replace(quoted("__NS__"), "{{ $ns }}"));
        }
        return out.append("{{- end }}\n").toString();
    }

    private static String deployment(OperatorBundle b) {
        ObjectNode d = namespaced(BundleObjects.deployment(b));
        d.withObject("spec").put("replicas", "__REPLICAS__");
        ObjectNode c = (ObjectNode) d.withObject("spec")
                .withObject("template")
                .withObject("spec")
                .withArray("containers")
                .get(0);
        c.put("image", "__IMAGE__");
        c.put("imagePullPolicy", "__PULL_POLICY__");
        c.put("resources", "__RESOURCES__");
        for (JsonNode e : c.withArray("env")) {
            if (e.path("name").asString("").equals(BundleObjects.WATCH_NAMESPACE)) {
                ((ObjectNode) e).remove("valueFrom");
                ((ObjectNode) e).put("value", "__WATCH__");
            }
            if (e.path("name").asString("").equals("JAVA_TOOL_OPTIONS")) {
                ((ObjectNode) e).put("value", "__JAVA_TOOL_OPTIONS__");
            }
        }
        String text = template(d)
                .replace(quoted("__REPLICAS__"), "{{ .Values.replicaCount }}")
                .replace(quoted("__IMAGE__"), "\"{{ .Values.image.repository }}:{{ .Values.image.tag }}\"")
                .replace(quoted("__PULL_POLICY__"), "{{ .Values.image.pullPolicy }}")
                .replace(quoted("__WATCH__"), "{{ join \",\" .Values.watchNamespaces | quote }}")
                .replace(quoted("__JAVA_TOOL_OPTIONS__"), "{{ .Values.javaToolOptions | quote }}");
        Matcher m = Pattern.compile("(?m)^( *)resources: [\"']?__RESOURCES__[\"']?$")
                .matcher(text);
        if (!m.find()) {
            throw new IllegalStateException("no resources line in the Deployment template");
        }
        int indent = m.group(1).length() + 2;
        return m.replaceFirst(Matcher.quoteReplacement(m.group(1) + "resources:\n" + m.group(1)
                + "  {{- toYaml .Values.resources | nindent " + indent + " }}"));
    }

    /**
     * The webhook Service, Issuer, Certificate and configurations, in the release's namespace: their
     * metadata, the configurations' Service references, the Certificate's DNS names and the CA injection
     * annotations.
     */
    private static String webhooks(OperatorBundle b) {
        StringBuilder out = new StringBuilder();
        for (ObjectNode o : BundleWebhooks.objects(b)) {
            ObjectNode copy = o.path("metadata").has("namespace") ? namespaced(o) : o;
            for (JsonNode hook : copy.path("webhooks")) {
                ((ObjectNode) hook.path("clientConfig").path("service")).put("namespace", NAMESPACE);
            }
            out.append("---\n")
                    .append(template(copy)
                            .replace(b.namespace() + "/", "{{ .Release.Namespace }}/")
                            .replace("." + b.namespace() + ".svc", ".{{ .Release.Namespace }}.svc"));
        }
        return out.toString();
    }

    private static ObjectNode namespaced(ObjectNode o) {
        o.withObject("metadata").put("namespace", NAMESPACE);
        return o;
    }

    /** ServiceAccount subjects of a binding point into the release's namespace. */
    private static ObjectNode withReleaseSubjects(ObjectNode binding) {
        for (JsonNode s : binding.path("subjects")) {
            if (s.path("kind").asString("").equals("ServiceAccount")) {
                ((ObjectNode) s).put("namespace", NAMESPACE);
            }
        }
        return binding;
    }

    /** The object's YAML with the release-namespace placeholder made a template expression. */
    private static String template(ObjectNode o) {
        return KubeYaml.write(o).replace(quoted(NAMESPACE), "{{ .Release.Namespace }}");
    }

    /** How the YAML writer prints a placeholder string: quoted or not, the replacement must match it. */
    private static String quoted(String placeholder) {
        String yaml = KubeYaml.write(Map.of("k", placeholder));
        return yaml.substring(yaml.indexOf(':') + 2).strip();
    }

    static List<String> placeholders() {
        return List.of(NAMESPACE, "__REPLICAS__", "__IMAGE__", "__PULL_POLICY__", "__RESOURCES__", "__WATCH__");
    }
}
