package io.kubeloop.apiserver.internal.schema;

import io.kubeloop.api.GroupVersionKind;
import io.kubeloop.api.json.KubeJson;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Derives the document {@link BuiltinSchemas} reads from Kubernetes' published {@code swagger.json} of
 * the release the server is ({@link KubernetesRelease}): the definitions of the kinds the server serves
 * (and their {@code List} kinds), of Status, DeleteOptions and ObjectMeta, and of everything those
 * reference, each unchanged.
 */
public final class UpstreamDefinitions {

    /** The kinds the embedded server serves (their List kinds come with them). */
    static final List<GroupVersionKind> SERVED = List.of(
            core("Pod"),
            core("Service"),
            core("Endpoints"),
            core("ConfigMap"),
            core("Secret"),
            core("ServiceAccount"),
            core("Namespace"),
            core("Node"),
            core("Event"),
            core("PersistentVolumeClaim"),
            core("PersistentVolume"),
            core("LimitRange"),
            core("ResourceQuota"),
            core("PodTemplate"),
            new GroupVersionKind("apps", "v1", "Deployment"),
            new GroupVersionKind("apps", "v1", "ReplicaSet"),
            new GroupVersionKind("apps", "v1", "StatefulSet"),
            new GroupVersionKind("apps", "v1", "DaemonSet"),
            new GroupVersionKind("apps", "v1", "ControllerRevision"),
            new GroupVersionKind("batch", "v1", "Job"),
            new GroupVersionKind("batch", "v1", "CronJob"),
            new GroupVersionKind("coordination.k8s.io", "v1", "Lease"),
            new GroupVersionKind("events.k8s.io", "v1", "Event"),
            new GroupVersionKind("autoscaling", "v2", "HorizontalPodAutoscaler"),
            new GroupVersionKind("discovery.k8s.io", "v1", "EndpointSlice"),
            new GroupVersionKind("networking.k8s.io", "v1", "Ingress"),
            new GroupVersionKind("networking.k8s.io", "v1", "IngressClass"),
            new GroupVersionKind("networking.k8s.io", "v1", "NetworkPolicy"),
            new GroupVersionKind("policy", "v1", "PodDisruptionBudget"),
            new GroupVersionKind("rbac.authorization.k8s.io", "v1", "Role"),
            new GroupVersionKind("rbac.authorization.k8s.io", "v1", "ClusterRole"),
            new GroupVersionKind("rbac.authorization.k8s.io", "v1", "RoleBinding"),
            new GroupVersionKind("rbac.authorization.k8s.io", "v1", "ClusterRoleBinding"),
            new GroupVersionKind("scheduling.k8s.io", "v1", "PriorityClass"),
            new GroupVersionKind("storage.k8s.io", "v1", "StorageClass"),
            new GroupVersionKind("admissionregistration.k8s.io", "v1", "MutatingWebhookConfiguration"),
            new GroupVersionKind("admissionregistration.k8s.io", "v1", "ValidatingWebhookConfiguration"),
            new GroupVersionKind("admissionregistration.k8s.io", "v1", "ValidatingAdmissionPolicy"),
            new GroupVersionKind("admissionregistration.k8s.io", "v1", "ValidatingAdmissionPolicyBinding"),
            new GroupVersionKind("apiextensions.k8s.io", "v1", "CustomResourceDefinition"));

    private static final List<String> ALSO = List.of(
            "io.k8s.apimachinery.pkg.apis.meta.v1.Status",
            "io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions",
            OpenApiSchemas.OBJECT_META);

    private UpstreamDefinitions() {}

    private static GroupVersionKind core(String kind) {
        return new GroupVersionKind("", "v1", kind);
    }

    /** The release's {@code swagger.json} in the repository. */
    public static Path swagger() {
        return Path.of(System.getProperty("basedir", ""))
                .toAbsolutePath()
                .getParent()
                .resolve("kubernetes-openapi")
                .resolve(KubernetesRelease.tag())
                .resolve("swagger.json");
    }

    /** The document's text: pretty-printed JSON, definitions sorted by name, a final newline. */
    static String document() throws IOException {
        JsonNode upstream;
        try (InputStream in = Files.newInputStream(swagger())) {
            upstream = KubeJson.mapper().readTree(in);
        }
        JsonNode definitions = upstream.path("definitions");
        Set<String> wanted = new TreeSet<>(ALSO);
        for (Map.Entry<String, JsonNode> e : definitions.properties()) {
            for (JsonNode gvk : e.getValue().path("x-kubernetes-group-version-kind")) {
                GroupVersionKind k = new GroupVersionKind(
                        gvk.path("group").asString(""),
                        gvk.path("version").asString(""),
                        gvk.path("kind").asString(""));
                if (served(k)) {
                    wanted.add(e.getKey());
                }
            }
        }
        Set<String> closure = new TreeSet<>();
        Deque<String> todo = new ArrayDeque<>(wanted);
        while (!todo.isEmpty()) {
            String name = todo.pop();
            if (closure.add(name)) {
                JsonNode body = definitions.get(name);
                if (body == null) {
                    throw new IllegalStateException(swagger() + " does not define " + name);
                }
                references(body, todo);
            }
        }
        ObjectNode root = JsonNodeFactory.instance.objectNode();
        root.put("swagger", "2.0");
        root.putObject("info")
                .put("title", "Kubernetes")
                .put(
                        "description",
                        "The definitions of Kubernetes " + KubernetesRelease.tag()
                                + "'s swagger.json that the built-in kinds kubeloop serves reach, unchanged.")
                .put("version", KubernetesRelease.tag());
        ObjectNode out = root.putObject("definitions");
        closure.forEach(name -> out.set(name, definitions.get(name)));
        return KubeJson.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(root) + "\n";
    }

    private static boolean served(GroupVersionKind k) {
        for (GroupVersionKind s : SERVED) {
            if (s.group().equals(k.group())
                    && s.version().equals(k.version())
                    && (s.kind().equals(k.kind()) || (s.kind() + "List").equals(k.kind()))) {
                return true;
            }
        }
        return false;
    }

    /** Adds the definition names {@code schema} references to {@code into}. */
    private static void references(JsonNode schema, Deque<String> into) {
        JsonNode ref = schema.get("$ref");
        if (ref != null && ref.isString()) {
            into.push(ref.asString().substring("#/definitions/".length()));
        }
        for (Map.Entry<String, JsonNode> p : schema.path("properties").properties()) {
            references(p.getValue(), into);
        }
        for (String child : List.of("items", "additionalProperties")) {
            JsonNode c = schema.get(child);
            if (c != null && c.isObject()) {
                references(c, into);
            }
        }
    }
}
