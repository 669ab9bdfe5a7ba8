package io.kubeloop.apiserver.internal.schema;

import io.kubeloop.api.GroupVersionKind;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Structural schemas of the built-in kinds the embedded server serves, derived from fabric8's
 * kubernetes-model 8.x classes (see {@link ModelIntrospector}): v1 Pod, Service, Endpoints,
 * ConfigMap, Secret, ServiceAccount, Namespace, Node, Event, PersistentVolumeClaim, PersistentVolume,
 * LimitRange, ResourceQuota, PodTemplate; apps/v1 Deployment, ReplicaSet, StatefulSet, DaemonSet,
 * ControllerRevision; batch/v1 Job, CronJob; autoscaling/v2 HorizontalPodAutoscaler; discovery.k8s.io/v1
 * EndpointSlice; networking.k8s.io/v1 Ingress, IngressClass, NetworkPolicy; policy/v1 PodDisruptionBudget;
 * rbac.authorization.k8s.io/v1 Role, ClusterRole, RoleBinding, ClusterRoleBinding; scheduling.k8s.io/v1
 * PriorityClass; storage.k8s.io/v1 StorageClass; admissionregistration.k8s.io/v1 webhook configurations and
 * ValidatingAdmissionPolicy (and bindings); coordination.k8s.io/v1 Lease; events.k8s.io/v1 Event;
 * apiextensions.k8s.io/v1 CustomResourceDefinition; and their {@code List} kinds.
 *
 * <p>They give every field name, type, nested object, list, map, IntOrString, Quantity (a string)
 * and timestamp (a date-time string), plus the strategic-merge list keys kubectl needs. They carry
 * no descriptions, required lists, enums or bounds (fabric8's classes have none), so use them for
 * {@linkplain StructuralSchema#prune unknown-field detection} (what {@code fieldValidation=Strict}
 * needs), {@code kubectl explain} and OpenAPI, not as the built-ins' validation.
 *
 * <p><b>Thread safety:</b> built once on first use and immutable afterwards. Building introspects a
 * few hundred model classes, a one-time cost of up to seconds on a loaded machine: call
 * {@link #standard()} at server start so no request pays it.
 */
public final class BuiltinSchemas {

    private final Map<GroupVersionKind, StructuralSchema> kinds;
    private final Map<String, StructuralSchema> definitions;
    private final StructuralSchema objectMeta;

    private BuiltinSchemas() {
        ModelIntrospector in = new ModelIntrospector();
        Map<GroupVersionKind, StructuralSchema> k = new LinkedHashMap<>();
        add(k, in, "", "v1", io.fabric8.kubernetes.api.model.Pod.class);
        add(k, in, "", "v1", io.fabric8.kubernetes.api.model.Service.class);
        add(k, in, "", "v1", io.fabric8.kubernetes.api.model.Endpoints.class);
        add(k, in, "", "v1", io.fabric8.kubernetes.api.model.ConfigMap.class);
        add(k, in, "", "v1", io.fabric8.kubernetes.api.model.Secret.class);
        add(k, in, "", "v1", io.fabric8.kubernetes.api.model.ServiceAccount.class);
        add(k, in, "", "v1", io.fabric8.kubernetes.api.model.Namespace.class);
        add(k, in, "", "v1", io.fabric8.kubernetes.api.model.Node.class);
        add(k, in, "", "v1", io.fabric8.kubernetes.api.model.Event.class);
        add(k, in, "apps", "v1", io.fabric8.kubernetes.api.model.apps.Deployment.class);
        add(k, in, "apps", "v1", io.fabric8.kubernetes.api.model.apps.ReplicaSet.class);
        add(k, in, "apps", "v1", io.fabric8.kubernetes.api.model.apps.StatefulSet.class);
        add(k, in, "apps", "v1", io.fabric8.kubernetes.api.model.apps.DaemonSet.class);
        add(k, in, "batch", "v1", io.fabric8.kubernetes.api.model.batch.v1.Job.class);
        add(k, in, "batch", "v1", io.fabric8.kubernetes.api.model.batch.v1.CronJob.class);
        add(k, in, "coordination.k8s.io", "v1", io.fabric8.kubernetes.api.model.coordination.v1.Lease.class);
        add(k, in, "events.k8s.io", "v1", io.fabric8.kubernetes.api.model.events.v1.Event.class);
        add(k, in, "", "v1", io.fabric8.kubernetes.api.model.PersistentVolumeClaim.class);
        add(k, in, "", "v1", io.fabric8.kubernetes.api.model.PersistentVolume.class);
        add(k, in, "", "v1", io.fabric8.kubernetes.api.model.LimitRange.class);
        add(k, in, "", "v1", io.fabric8.kubernetes.api.model.ResourceQuota.class);
        add(k, in, "", "v1", io.fabric8.kubernetes.api.model.PodTemplate.class);
        add(k, in, "apps", "v1", io.fabric8.kubernetes.api.model.apps.ControllerRevision.class);
        add(k, in, "autoscaling", "v2", io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler.class);
        add(k, in, "discovery.k8s.io", "v1", io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice.class);
        add(k, in, "networking.k8s.io", "v1", io.fabric8.kubernetes.api.model.networking.v1.Ingress.class);
        add(k, in, "networking.k8s.io", "v1", io.fabric8.kubernetes.api.model.networking.v1.IngressClass.class);
        add(k, in, "networking.k8s.io", "v1", io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy.class);
        add(k, in, "policy", "v1", io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget.class);
        add(k, in, "rbac.authorization.k8s.io", "v1", io.fabric8.kubernetes.api.model.rbac.Role.class);
        add(k, in, "rbac.authorization.k8s.io", "v1", io.fabric8.kubernetes.api.model.rbac.ClusterRole.class);
        add(k, in, "rbac.authorization.k8s.io", "v1", io.fabric8.kubernetes.api.model.rbac.RoleBinding.class);
        add(k, in, "rbac.authorization.k8s.io", "v1", io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding.class);
        add(k, in, "scheduling.k8s.io", "v1", io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClass.class);
        add(k, in, "storage.k8s.io", "v1", io.fabric8.kubernetes.api.model.storage.StorageClass.class);
        for (Class<?> c : List.of(
                io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfiguration.class,
                io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfiguration.class,
                io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingAdmissionPolicy.class,
                io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingAdmissionPolicyBinding.class)) {
            add(k, in, "admissionregistration.k8s.io", "v1", c);
        }
        add(
                k,
                in,
                "apiextensions.k8s.io",
                "v1",
                io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition.class);
        in.schemaOf(io.fabric8.kubernetes.api.model.Status.class);
        in.schemaOf(io.fabric8.kubernetes.api.model.DeleteOptions.class);
        objectMeta = in.schemaOf(io.fabric8.kubernetes.api.model.ObjectMeta.class);
        kinds = Collections.unmodifiableMap(k);
        definitions = Collections.unmodifiableMap(ModelIntrospector.sorted(in.definitions()));
    }

    private static final class Holder {
        private static final BuiltinSchemas INSTANCE = new BuiltinSchemas();
    }

    /** The shared instance (built on first use). */
    public static BuiltinSchemas standard() {
        return Holder.INSTANCE;
    }

    /** The schema of a built-in kind (or its List kind), if kubeloop serves it. */
    public static Optional<StructuralSchema> forKind(GroupVersionKind gvk) {
        return Optional.ofNullable(standard().kinds.get(gvk));
    }

    /** Every built-in kind with a schema, List kinds included, in serving order. */
    public Set<GroupVersionKind> kinds() {
        return kinds.keySet();
    }

    /**
     * Every named definition reachable from the built-in kinds, by Go definition name (e.g.
     * {@code io.k8s.api.core.v1.PodSpec}, {@code io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta}).
     */
    public Map<String, StructuralSchema> definitions() {
        return definitions;
    }

    /** ObjectMeta's schema, which pruning applies to the metadata of every resource. */
    static StructuralSchema objectMeta() {
        return standard().objectMeta;
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
