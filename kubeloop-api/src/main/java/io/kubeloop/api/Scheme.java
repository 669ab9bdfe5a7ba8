package io.kubeloop.api;

import static io.kubeloop.api.ResourceScope.CLUSTER;
import static io.kubeloop.api.ResourceScope.NAMESPACED;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespaced;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Maps Java types to {@link GroupVersionKind}s and back, with the {@link ResourceMapping}
 * (plural, scope) where known — the part of apimachinery's {@code runtime.Scheme} a Java client
 * needs.
 *
 * {@snippet :
 * Scheme scheme = Scheme.defaults().toBuilder()
 *         .register(Foo.class)  // reads @Kind
 *         .build();
 * scheme.gvkOf(Deployment.class);  // Optional[apps/v1, Kind=Deployment]
 * }
 *
 * <p>Each type has one kind and each kind one type; registering a second, different one throws.
 * Types annotated with {@link Kind} are recognized by {@link #gvkOf} and {@link #mappingOf(Class)}
 * even when not registered (but {@link #typeOf} only knows registered types).
 *
 * <p>Immutable and thread-safe; derive variants with {@link #toBuilder()}.
 */
public final class Scheme {

    private static final Scheme DEFAULTS = defaultsBuilder().build();

    private final Map<Class<?>, GroupVersionKind> kindsByType;
    private final Map<GroupVersionKind, Class<?>> typesByKind;
    private final Map<GroupVersionKind, ResourceMapping> mappings;

    private Scheme(Builder b) {
        this.kindsByType = Map.copyOf(b.kindsByType);
        this.typesByKind = Map.copyOf(b.typesByKind);
        this.mappings = Map.copyOf(b.mappings);
    }

    /** An empty builder. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The built-in kinds, backed by fabric8's model classes: core/v1 Pod, Service, ConfigMap,
     * Secret, Namespace, Node, ServiceAccount, Endpoints, Event, PersistentVolume,
     * PersistentVolumeClaim, ReplicationController, LimitRange, ResourceQuota; apps/v1 Deployment,
     * ReplicaSet, StatefulSet, DaemonSet, ControllerRevision; batch/v1 Job, CronJob;
     * coordination.k8s.io/v1 Lease; events.k8s.io/v1 Event; apiextensions.k8s.io/v1
     * CustomResourceDefinition — each with its resource name and scope.
     */
    public static Scheme defaults() {
        return DEFAULTS;
    }

    private static Builder defaultsBuilder() {
        Builder b = new Builder();
        GroupVersion core = GroupVersion.CORE_V1;
        b.register(io.fabric8.kubernetes.api.model.Pod.class, core.withKind("Pod"), "pods", NAMESPACED);
        b.register(io.fabric8.kubernetes.api.model.Service.class, core.withKind("Service"), "services", NAMESPACED);
        b.register(
                io.fabric8.kubernetes.api.model.ConfigMap.class, core.withKind("ConfigMap"), "configmaps", NAMESPACED);
        b.register(io.fabric8.kubernetes.api.model.Secret.class, core.withKind("Secret"), "secrets", NAMESPACED);
        b.register(io.fabric8.kubernetes.api.model.Namespace.class, core.withKind("Namespace"), "namespaces", CLUSTER);
        b.register(io.fabric8.kubernetes.api.model.Node.class, core.withKind("Node"), "nodes", CLUSTER);
        b.register(
                io.fabric8.kubernetes.api.model.ServiceAccount.class,
                core.withKind("ServiceAccount"),
                "serviceaccounts",
                NAMESPACED);
        b.register(
                io.fabric8.kubernetes.api.model.Endpoints.class, core.withKind("Endpoints"), "endpoints", NAMESPACED);
        b.register(io.fabric8.kubernetes.api.model.Event.class, core.withKind("Event"), "events", NAMESPACED);
        b.register(
                io.fabric8.kubernetes.api.model.PersistentVolume.class,
                core.withKind("PersistentVolume"),
                "persistentvolumes",
                CLUSTER);
        b.register(
                io.fabric8.kubernetes.api.model.PersistentVolumeClaim.class,
                core.withKind("PersistentVolumeClaim"),
                "persistentvolumeclaims",
                NAMESPACED);
        b.register(
                io.fabric8.kubernetes.api.model.ReplicationController.class,
                core.withKind("ReplicationController"),
                "replicationcontrollers",
                NAMESPACED);
        b.register(
                io.fabric8.kubernetes.api.model.LimitRange.class,
                core.withKind("LimitRange"),
                "limitranges",
                NAMESPACED);
        b.register(
                io.fabric8.kubernetes.api.model.ResourceQuota.class,
                core.withKind("ResourceQuota"),
                "resourcequotas",
                NAMESPACED);
        GroupVersion apps = new GroupVersion("apps", "v1");
        b.register(
                io.fabric8.kubernetes.api.model.apps.Deployment.class,
                apps.withKind("Deployment"),
                "deployments",
                NAMESPACED);
        b.register(
                io.fabric8.kubernetes.api.model.apps.ReplicaSet.class,
                apps.withKind("ReplicaSet"),
                "replicasets",
                NAMESPACED);
        b.register(
                io.fabric8.kubernetes.api.model.apps.StatefulSet.class,
                apps.withKind("StatefulSet"),
                "statefulsets",
                NAMESPACED);
        b.register(
                io.fabric8.kubernetes.api.model.apps.DaemonSet.class,
                apps.withKind("DaemonSet"),
                "daemonsets",
                NAMESPACED);
        b.register(
                io.fabric8.kubernetes.api.model.apps.ControllerRevision.class,
                apps.withKind("ControllerRevision"),
                "controllerrevisions",
                NAMESPACED);
        GroupVersion batch = new GroupVersion("batch", "v1");
        b.register(io.fabric8.kubernetes.api.model.batch.v1.Job.class, batch.withKind("Job"), "jobs", NAMESPACED);
        b.register(
                io.fabric8.kubernetes.api.model.batch.v1.CronJob.class,
                batch.withKind("CronJob"),
                "cronjobs",
                NAMESPACED);
        b.register(
                io.fabric8.kubernetes.api.model.coordination.v1.Lease.class,
                new GroupVersionKind("coordination.k8s.io", "v1", "Lease"),
                "leases",
                NAMESPACED);
        b.register(
                io.fabric8.kubernetes.api.model.events.v1.Event.class,
                new GroupVersionKind("events.k8s.io", "v1", "Event"),
                "events",
                NAMESPACED);
        b.register(
                io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition.class,
                new GroupVersionKind("apiextensions.k8s.io", "v1", "CustomResourceDefinition"),
                "customresourcedefinitions",
                CLUSTER);
        return b;
    }

    /** The kind of {@code type}: registered, else declared with {@link Kind}. */
    public Optional<GroupVersionKind> gvkOf(Class<?> type) {
        GroupVersionKind gvk = kindsByType.get(type);
        if (gvk == null) {
            Kind k = type.getAnnotation(Kind.class);
            gvk = k == null ? null : gvkOf(type, k);
        }
        return Optional.ofNullable(gvk);
    }

    /** The type registered for {@code gvk}. */
    public Optional<Class<?>> typeOf(GroupVersionKind gvk) {
        return Optional.ofNullable(typesByKind.get(gvk));
    }

    /** The resource and scope of a registered kind, when registered with them. */
    public Optional<ResourceMapping> mappingOf(GroupVersionKind gvk) {
        return Optional.ofNullable(mappings.get(gvk));
    }

    /** The resource and scope of {@code type}: registered with them, else declared with {@link Kind}. */
    public Optional<ResourceMapping> mappingOf(Class<?> type) {
        GroupVersionKind gvk = kindsByType.get(type);
        if (gvk != null) {
            return mappingOf(gvk);
        }
        Kind k = type.getAnnotation(Kind.class);
        return k == null ? Optional.empty() : Optional.of(mappingOf(type, k));
    }

    /** Every registered kind. */
    public Set<GroupVersionKind> kinds() {
        return typesByKind.keySet();
    }

    /** A builder holding this scheme's registrations. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.kindsByType.putAll(kindsByType);
        b.typesByKind.putAll(typesByKind);
        b.mappings.putAll(mappings);
        return b;
    }

    private static GroupVersionKind gvkOf(Class<?> type, Kind k) {
        return new GroupVersionKind(k.group(), k.version(), k.kind().isEmpty() ? type.getSimpleName() : k.kind());
    }

    private static ResourceMapping mappingOf(Class<?> type, Kind k) {
        GroupVersionKind gvk = gvkOf(type, k);
        String plural = k.plural().isEmpty() ? ResourceMapping.guessResource(gvk.kind()) : k.plural();
        return new ResourceMapping(gvk, plural, k.namespaced());
    }

    /** Collects registrations for a {@link Scheme}; not thread-safe. */
    public static final class Builder {
        private final Map<Class<?>, GroupVersionKind> kindsByType = new HashMap<>();
        private final Map<GroupVersionKind, Class<?>> typesByKind = new HashMap<>();
        private final Map<GroupVersionKind, ResourceMapping> mappings = new HashMap<>();

        private Builder() {}

        /**
         * Registers {@code type} as {@code gvk}, without resource mapping (clients then need
         * discovery to address it).
         *
         * @throws IllegalArgumentException when the type or the kind is already registered differently
         */
        public Builder register(Class<?> type, GroupVersionKind gvk) {
            Objects.requireNonNull(type, "type");
            Objects.requireNonNull(gvk, "gvk");
            GroupVersionKind had = kindsByType.get(type);
            if (had != null && !had.equals(gvk)) {
                throw new IllegalArgumentException(
                        type.getName() + " is already registered as " + had + ", not " + gvk);
            }
            Class<?> hadType = typesByKind.get(gvk);
            if (hadType != null && hadType != type) {
                throw new IllegalArgumentException(
                        gvk + " is already registered for " + hadType.getName() + ", not " + type.getName());
            }
            kindsByType.put(type, gvk);
            typesByKind.put(gvk, type);
            return this;
        }

        /**
         * Registers {@code type} as {@code gvk}, addressed as {@code resource} in {@code scope}.
         *
         * @throws IllegalArgumentException when the type or the kind is already registered differently
         */
        public Builder register(Class<?> type, GroupVersionKind gvk, String resource, ResourceScope scope) {
            ResourceMapping mapping = new ResourceMapping(gvk, resource, scope);
            register(type, gvk);
            mappings.put(gvk, mapping);
            return this;
        }

        /**
         * Registers a type that declares its kind: with {@link Kind}, or a fabric8 model class
         * (its {@code @Group}/{@code @Version} annotations, plural and {@code Namespaced} marker).
         *
         * @throws IllegalArgumentException when the type declares no kind
         */
        public Builder register(Class<?> type) {
            Kind k = type.getAnnotation(Kind.class);
            if (k != null) {
                ResourceMapping m = mappingOf(type, k);
                return register(type, m.gvk(), m.resource(), m.scope());
            }
            if (HasMetadata.class.isAssignableFrom(type)) {
                String version = HasMetadata.getVersion(type);
                if (version != null && !version.isEmpty()) {
                    String group = HasMetadata.getGroup(type);
                    GroupVersionKind gvk =
                            new GroupVersionKind(group == null ? "" : group, version, HasMetadata.getKind(type));
                    return register(
                            type,
                            gvk,
                            HasMetadata.getPlural(type),
                            Namespaced.class.isAssignableFrom(type) ? NAMESPACED : CLUSTER);
                }
            }
            throw new IllegalArgumentException(type.getName() + " declares no kind: annotate it with @"
                    + Kind.class.getName() + " or register it with an explicit GroupVersionKind");
        }

        public Scheme build() {
            return new Scheme(this);
        }
    }
}
