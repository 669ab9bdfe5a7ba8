package io.kubeloop.apiserver.internal.schema;

import io.kubeloop.api.GroupVersionKind;
import io.kubeloop.api.json.KubeJson;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Derives the document {@link BuiltinSchemas} reads from fabric8's kubernetes-model classes: every served
 * kind and its {@code List} kind, through {@link ModelIntrospector}, written as Swagger 2.0 definitions
 * with {@code x-kubernetes-group-version-kind} on the kinds' definitions.
 */
final class Fabric8Definitions {

    private Fabric8Definitions() {}

    /** The document's text: pretty-printed JSON, definitions sorted by name, a final newline. */
    static String document() {
        ModelIntrospector in = new ModelIntrospector();
        Map<GroupVersionKind, StructuralSchema> kinds = new LinkedHashMap<>();
        add(kinds, in, "", "v1", io.fabric8.kubernetes.api.model.Pod.class);
        add(kinds, in, "", "v1", io.fabric8.kubernetes.api.model.Service.class);
        add(kinds, in, "", "v1", io.fabric8.kubernetes.api.model.Endpoints.class);
        add(kinds, in, "", "v1", io.fabric8.kubernetes.api.model.ConfigMap.class);
        add(kinds, in, "", "v1", io.fabric8.kubernetes.api.model.Secret.class);
        add(kinds, in, "", "v1", io.fabric8.kubernetes.api.model.ServiceAccount.class);
        add(kinds, in, "", "v1", io.fabric8.kubernetes.api.model.Namespace.class);
        add(kinds, in, "", "v1", io.fabric8.kubernetes.api.model.Node.class);
        add(kinds, in, "", "v1", io.fabric8.kubernetes.api.model.Event.class);
        add(kinds, in, "apps", "v1", io.fabric8.kubernetes.api.model.apps.Deployment.class);
        add(kinds, in, "apps", "v1", io.fabric8.kubernetes.api.model.apps.ReplicaSet.class);
        add(kinds, in, "apps", "v1", io.fabric8.kubernetes.api.model.apps.StatefulSet.class);
        add(kinds, in, "apps", "v1", io.fabric8.kubernetes.api.model.apps.DaemonSet.class);
        add(kinds, in, "batch", "v1", io.fabric8.kubernetes.api.model.batch.v1.Job.class);
        add(kinds, in, "batch", "v1", io.fabric8.kubernetes.api.model.batch.v1.CronJob.class);
        add(kinds, in, "coordination.k8s.io", "v1", io.fabric8.kubernetes.api.model.coordination.v1.Lease.class);
        add(kinds, in, "events.k8s.io", "v1", io.fabric8.kubernetes.api.model.events.v1.Event.class);
        add(kinds, in, "", "v1", io.fabric8.kubernetes.api.model.PersistentVolumeClaim.class);
        add(kinds, in, "", "v1", io.fabric8.kubernetes.api.model.PersistentVolume.class);
        add(kinds, in, "", "v1", io.fabric8.kubernetes.api.model.LimitRange.class);
        add(kinds, in, "", "v1", io.fabric8.kubernetes.api.model.ResourceQuota.class);
        add(kinds, in, "", "v1", io.fabric8.kubernetes.api.model.PodTemplate.class);
        add(kinds, in, "apps", "v1", io.fabric8.kubernetes.api.model.apps.ControllerRevision.class);
        add(
                kinds,
                in,
                "autoscaling",
                "v2",
                io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler.class);
        add(kinds, in, "discovery.k8s.io", "v1", io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice.class);
        add(kinds, in, "networking.k8s.io", "v1", io.fabric8.kubernetes.api.model.networking.v1.Ingress.class);
        add(kinds, in, "networking.k8s.io", "v1", io.fabric8.kubernetes.api.model.networking.v1.IngressClass.class);
        add(kinds, in, "networking.k8s.io", "v1", io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy.class);
        add(kinds, in, "policy", "v1", io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget.class);
        add(kinds, in, "rbac.authorization.k8s.io", "v1", io.fabric8.kubernetes.api.model.rbac.Role.class);
        add(kinds, in, "rbac.authorization.k8s.io", "v1", io.fabric8.kubernetes.api.model.rbac.ClusterRole.class);
        add(kinds, in, "rbac.authorization.k8s.io", "v1", io.fabric8.kubernetes.api.model.rbac.RoleBinding.class);
        add(
                kinds,
                in,
                "rbac.authorization.k8s.io",
                "v1",
                io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding.class);
        add(kinds, in, "scheduling.k8s.io", "v1", io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClass.class);
        add(kinds, in, "storage.k8s.io", "v1", io.fabric8.kubernetes.api.model.storage.StorageClass.class);
        for (Class<?> c : List.of(
                io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfiguration.class,
                io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfiguration.class,
                io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingAdmissionPolicy.class,
                io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingAdmissionPolicyBinding.class)) {
            add(kinds, in, "admissionregistration.k8s.io", "v1", c);
        }
        add(
                kinds,
                in,
                "apiextensions.k8s.io",
                "v1",
                io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition.class);
        in.schemaOf(io.fabric8.kubernetes.api.model.Status.class);
        in.schemaOf(io.fabric8.kubernetes.api.model.DeleteOptions.class);
        in.schemaOf(io.fabric8.kubernetes.api.model.ObjectMeta.class);
        return write(in.definitions().values(), kinds);
    }

    /** Swagger 2.0 definitions of {@code named} (and what they reference), the kinds tagged. */
    static String write(Iterable<StructuralSchema> named, Map<GroupVersionKind, StructuralSchema> kinds) {
        OpenApiSchemas schemas = new OpenApiSchemas(true);
        named.forEach(schemas::require);
        kinds.forEach((gvk, schema) -> schemas.tagKind(schema.definitionName(), gvk));
        ObjectNode root = JsonNodeFactory.instance.objectNode();
        root.put("swagger", "2.0");
        root.putObject("info")
                .put("title", "kubeloop built-in kinds")
                .put("description", "Derived from the fabric8 kubernetes-model classes kubeloop depends on.")
                .put("version", "unversioned");
        ObjectNode definitions = root.putObject("definitions");
        schemas.definitions().forEach(definitions::set);
        return KubeJson.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(root) + "\n";
    }

    private static void add(
            Map<GroupVersionKind, StructuralSchema> kinds,
            ModelIntrospector in,
            String group,
            String version,
            Class<?> type) {
        kinds.put(new GroupVersionKind(group, version, type.getSimpleName()), in.schemaOf(type));
        try {
            Class<?> list = Class.forName(type.getName() + "List", false, type.getClassLoader());
            kinds.put(new GroupVersionKind(group, version, type.getSimpleName() + "List"), in.schemaOf(list));
        } catch (ClassNotFoundException e) {
            // every fabric8 kind has a List class; a missing one only means no List schema
        }
    }
}
