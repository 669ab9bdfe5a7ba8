package io.kubeloop.api;

import io.kubeloop.api.internal.ModelSupports;
import io.kubeloop.api.spi.ModelSupport;
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
     * The built-in kinds that the {@link ModelSupport}s on the module or class path register: with
     * {@code kubeloop-models}, every kind of its Kubernetes release as its record, with its resource name
     * and scope; with {@code kubeloop-fabric8}, fabric8's model classes of the common kinds too.
     */
    public static Scheme defaults() {
        return DEFAULTS;
    }

    private static Builder defaultsBuilder() {
        Builder b = new Builder();
        for (ModelSupport support : ModelSupports.all()) {
            support.registerDefaults(b);
        }
        return b;
    }

    /**
     * The kind of {@code type}: registered, else declared with {@link Kind}, else as a {@link ModelSupport}
     * maps it.
     */
    public Optional<GroupVersionKind> gvkOf(Class<?> type) {
        GroupVersionKind gvk = kindsByType.get(type);
        if (gvk != null) {
            return Optional.of(gvk);
        }
        Kind k = type.getAnnotation(Kind.class);
        if (k != null) {
            return Optional.of(gvkOf(type, k));
        }
        return ModelSupports.mappingOf(type).map(ResourceMapping::gvk);
    }

    /** The type registered for {@code gvk}. */
    public Optional<Class<?>> typeOf(GroupVersionKind gvk) {
        return Optional.ofNullable(typesByKind.get(gvk));
    }

    /** The resource and scope of a registered kind, when registered with them. */
    public Optional<ResourceMapping> mappingOf(GroupVersionKind gvk) {
        return Optional.ofNullable(mappings.get(gvk));
    }

    /**
     * The resource and scope of {@code type}: registered with them, else declared with {@link Kind}, else as a
     * {@link ModelSupport} maps it.
     */
    public Optional<ResourceMapping> mappingOf(Class<?> type) {
        GroupVersionKind gvk = kindsByType.get(type);
        if (gvk != null) {
            return mappingOf(gvk);
        }
        Kind k = type.getAnnotation(Kind.class);
        return k == null ? ModelSupports.mappingOf(type) : Optional.of(mappingOf(type, k));
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
         * Registers a type that declares its kind: with {@link Kind}, or as a {@link ModelSupport} maps it
         * (fabric8's model classes, with {@code kubeloop-fabric8}).
         *
         * @throws IllegalArgumentException when the type declares no kind
         */
        public Builder register(Class<?> type) {
            Kind k = type.getAnnotation(Kind.class);
            ResourceMapping m = k != null
                    ? mappingOf(type, k)
                    : ModelSupports.mappingOf(type).orElse(null);
            if (m == null) {
                throw new IllegalArgumentException(type.getName() + " declares no kind: annotate it with @"
                        + Kind.class.getName() + " or register it with an explicit GroupVersionKind");
            }
            return register(type, m.gvk(), m.resource(), m.scope());
        }

        /**
         * Registers a type of a built-in kind for {@link Scheme#defaults()} (what a {@link ModelSupport} calls):
         * {@code type} maps to {@code gvk} and its resource; it becomes the kind's type unless the kind has one
         * annotated with {@link Kind} already, which it replaces when it is itself annotated and the other is not.
         * A type already registered as another kind is left as it is.
         */
        public Builder registerDefault(Class<?> type, GroupVersionKind gvk, String resource, ResourceScope scope) {
            Objects.requireNonNull(type, "type");
            Objects.requireNonNull(gvk, "gvk");
            if (kindsByType.containsKey(type)) {
                return this;
            }
            kindsByType.put(type, gvk);
            Class<?> had = typesByKind.get(gvk);
            boolean annotated = type.isAnnotationPresent(Kind.class);
            if (had == null || (annotated && !had.isAnnotationPresent(Kind.class))) {
                typesByKind.put(gvk, type);
            }
            mappings.putIfAbsent(gvk, new ResourceMapping(gvk, resource, scope));
            return this;
        }

        public Scheme build() {
            return new Scheme(this);
        }
    }
}
