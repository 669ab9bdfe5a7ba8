package io.kubeloop.fabric8.internal;

import static io.kubeloop.api.ResourceScope.CLUSTER;
import static io.kubeloop.api.ResourceScope.NAMESPACED;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Endpoints;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.LimitRange;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.ReplicationController;
import io.fabric8.kubernetes.api.model.ResourceQuota;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apps.ControllerRevision;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.batch.v1.CronJob;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.kubeloop.api.GroupVersion;
import io.kubeloop.api.GroupVersionKind;
import io.kubeloop.api.ManagedFieldsEntry;
import io.kubeloop.api.ObjectMeta;
import io.kubeloop.api.OwnerReference;
import io.kubeloop.api.ResourceMapping;
import io.kubeloop.api.Scheme;
import io.kubeloop.api.json.KubeJson;
import io.kubeloop.api.spi.ModelSupport;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * fabric8's model classes for kubeloop: the common built-in kinds' classes in the default scheme (core/v1 Pod,
 * Service, ConfigMap, Secret, Namespace, Node, ServiceAccount, Endpoints, Event, PersistentVolume,
 * PersistentVolumeClaim, ReplicationController, LimitRange, ResourceQuota; apps/v1 Deployment, ReplicaSet,
 * StatefulSet, DaemonSet, ControllerRevision; batch/v1 Job, CronJob; coordination.k8s.io/v1 Lease;
 * events.k8s.io/v1 Event; apiextensions.k8s.io/v1 CustomResourceDefinition), every fabric8 model class's kind
 * from its own annotations ({@code @Group}, {@code @Version}, its plural and the {@code Namespaced} marker), and
 * fabric8 objects' metadata read field by field.
 *
 * <p>Stateless and thread-safe.
 */
public final class Fabric8ModelSupport implements ModelSupport {

    /** The instance the service loader makes. */
    public Fabric8ModelSupport() {}

    @Override
    public void registerDefaults(Scheme.Builder b) {
        GroupVersion core = GroupVersion.CORE_V1;
        b.registerDefault(Pod.class, core.withKind("Pod"), "pods", NAMESPACED);
        b.registerDefault(Service.class, core.withKind("Service"), "services", NAMESPACED);
        b.registerDefault(ConfigMap.class, core.withKind("ConfigMap"), "configmaps", NAMESPACED);
        b.registerDefault(Secret.class, core.withKind("Secret"), "secrets", NAMESPACED);
        b.registerDefault(Namespace.class, core.withKind("Namespace"), "namespaces", CLUSTER);
        b.registerDefault(Node.class, core.withKind("Node"), "nodes", CLUSTER);
        b.registerDefault(ServiceAccount.class, core.withKind("ServiceAccount"), "serviceaccounts", NAMESPACED);
        b.registerDefault(Endpoints.class, core.withKind("Endpoints"), "endpoints", NAMESPACED);
        b.registerDefault(io.fabric8.kubernetes.api.model.Event.class, core.withKind("Event"), "events", NAMESPACED);
        b.registerDefault(PersistentVolume.class, core.withKind("PersistentVolume"), "persistentvolumes", CLUSTER);
        b.registerDefault(
                PersistentVolumeClaim.class,
                core.withKind("PersistentVolumeClaim"),
                "persistentvolumeclaims",
                NAMESPACED);
        b.registerDefault(
                ReplicationController.class,
                core.withKind("ReplicationController"),
                "replicationcontrollers",
                NAMESPACED);
        b.registerDefault(LimitRange.class, core.withKind("LimitRange"), "limitranges", NAMESPACED);
        b.registerDefault(ResourceQuota.class, core.withKind("ResourceQuota"), "resourcequotas", NAMESPACED);
        GroupVersion apps = new GroupVersion("apps", "v1");
        b.registerDefault(Deployment.class, apps.withKind("Deployment"), "deployments", NAMESPACED);
        b.registerDefault(ReplicaSet.class, apps.withKind("ReplicaSet"), "replicasets", NAMESPACED);
        b.registerDefault(StatefulSet.class, apps.withKind("StatefulSet"), "statefulsets", NAMESPACED);
        b.registerDefault(DaemonSet.class, apps.withKind("DaemonSet"), "daemonsets", NAMESPACED);
        b.registerDefault(
                ControllerRevision.class, apps.withKind("ControllerRevision"), "controllerrevisions", NAMESPACED);
        GroupVersion batch = new GroupVersion("batch", "v1");
        b.registerDefault(Job.class, batch.withKind("Job"), "jobs", NAMESPACED);
        b.registerDefault(CronJob.class, batch.withKind("CronJob"), "cronjobs", NAMESPACED);
        b.registerDefault(
                Lease.class, new GroupVersionKind("coordination.k8s.io", "v1", "Lease"), "leases", NAMESPACED);
        b.registerDefault(
                io.fabric8.kubernetes.api.model.events.v1.Event.class,
                new GroupVersionKind("events.k8s.io", "v1", "Event"),
                "events",
                NAMESPACED);
        b.registerDefault(
                CustomResourceDefinition.class,
                new GroupVersionKind("apiextensions.k8s.io", "v1", "CustomResourceDefinition"),
                "customresourcedefinitions",
                CLUSTER);
    }

    @Override
    public Optional<ResourceMapping> mappingOf(Class<?> type) {
        if (!HasMetadata.class.isAssignableFrom(type)) {
            return Optional.empty();
        }
        String version = HasMetadata.getVersion(type);
        if (version == null || version.isEmpty()) {
            return Optional.empty();
        }
        String group = HasMetadata.getGroup(type);
        GroupVersionKind gvk = new GroupVersionKind(group == null ? "" : group, version, HasMetadata.getKind(type));
        return Optional.of(new ResourceMapping(
                gvk, HasMetadata.getPlural(type), Namespaced.class.isAssignableFrom(type) ? NAMESPACED : CLUSTER));
    }

    @Override
    public ObjectMeta metadata(Object object) {
        if (!(object instanceof HasMetadata h)) {
            return null;
        }
        ObjectMeta meta = fromFabric8(h.getMetadata());
        return meta == null ? ObjectMeta.builder().build() : meta;
    }

    @Override
    public Object withoutManagedFields(Object object) {
        if (!(object instanceof HasMetadata h)) {
            return null;
        }
        if (h.getMetadata() != null
                && h.getMetadata().getManagedFields() != null
                && !h.getMetadata().getManagedFields().isEmpty()) {
            h.getMetadata().setManagedFields(null); // fabric8's objects are mutable: changed in place
        }
        return object;
    }

    /** fabric8's owner references as ours; null for null. */
    private static List<OwnerReference> fromFabric8(List<io.fabric8.kubernetes.api.model.OwnerReference> refs) {
        if (refs == null) {
            return null;
        }
        List<OwnerReference> owners = new ArrayList<>(refs.size());
        for (io.fabric8.kubernetes.api.model.OwnerReference o : refs) {
            owners.add(new OwnerReference(
                    o.getApiVersion(),
                    o.getKind(),
                    o.getName(),
                    o.getUid(),
                    o.getController(),
                    o.getBlockOwnerDeletion()));
        }
        return owners;
    }

    /** Converts fabric8's metadata field by field (ObjectMeta copies its collections into unmodifiable ones). */
    private static ObjectMeta fromFabric8(io.fabric8.kubernetes.api.model.ObjectMeta f) {
        if (f == null) {
            return null;
        }
        List<OwnerReference> owners = fromFabric8(f.getOwnerReferences());
        List<ManagedFieldsEntry> managed = null;
        if (f.getManagedFields() != null) {
            managed = new ArrayList<>(f.getManagedFields().size());
            for (io.fabric8.kubernetes.api.model.ManagedFieldsEntry e : f.getManagedFields()) {
                JsonNode fields =
                        e.getFieldsV1() == null ? null : KubeJson.mapper().valueToTree(e.getFieldsV1());
                managed.add(new ManagedFieldsEntry(
                        e.getManager(),
                        e.getOperation(),
                        e.getApiVersion(),
                        instant(e.getTime()),
                        e.getFieldsType(),
                        fields,
                        e.getSubresource()));
            }
        }
        return new ObjectMeta(
                f.getName(),
                f.getGenerateName(),
                f.getNamespace(),
                f.getUid(),
                f.getResourceVersion(),
                f.getGeneration(),
                instant(f.getCreationTimestamp()),
                instant(f.getDeletionTimestamp()),
                f.getDeletionGracePeriodSeconds(),
                f.getLabels(),
                f.getAnnotations(),
                owners,
                f.getFinalizers(),
                managed,
                f.getSelfLink());
    }

    /** RFC 3339 text to an Instant; null when absent or unparseable. */
    private static Instant instant(String text) {
        if (text == null || text.isEmpty()) {
            return null;
        }
        try {
            return Instant.parse(text);
        } catch (DateTimeParseException e) {
            return null;
        }
    }
}
