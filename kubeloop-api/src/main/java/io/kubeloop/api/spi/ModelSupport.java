package io.kubeloop.api.spi;

import io.kubeloop.api.ObjectMeta;
import io.kubeloop.api.ResourceMapping;
import io.kubeloop.api.Scheme;
import java.util.Optional;

/**
 * Teaches kubeloop a family of model classes it does not know by itself: which kinds they are, and how to
 * read their metadata. kubeloop finds implementations with {@link java.util.ServiceLoader} (a module that
 * {@code provides} this service, or a {@code META-INF/services} entry on the class path) when {@code
 * io.kubeloop.api} is first used; kubeloop's models of the built-in kinds provide one (their kinds in {@link
 * Scheme#defaults()}), and so does {@code kubeloop-fabric8} for fabric8's model classes.
 *
 * <p>Types annotated with {@link io.kubeloop.api.Kind @Kind} and objects implementing {@link
 * io.kubeloop.api.KubernetesObject} need none. Implementations must be stateless and thread-safe.
 */
public interface ModelSupport {

    /**
     * Registers this family's types of built-in kinds into the default scheme, with {@link
     * Scheme.Builder#registerDefault}: where two families have a type for one kind, a type annotated with
     * {@code @Kind} is the kind's type and the other maps to the kind too.
     */
    default void registerDefaults(Scheme.Builder defaults) {}

    /** The kind, resource and scope of {@code type} when it belongs to this family and declares them; else empty. */
    default Optional<ResourceMapping> mappingOf(Class<?> type) {
        return Optional.empty();
    }

    /**
     * The metadata of {@code object} when its type belongs to this family, read without going through JSON; null
     * when it does not (the next support, then JSON, is tried).
     */
    default ObjectMeta metadata(Object object) {
        return null;
    }

    /**
     * {@code object} without {@code metadata.managedFields} when its type belongs to this family — a changed
     * copy, or {@code object} itself changed in place when its type is mutable (a cache's transform is
     * the first to see an object), or itself when it has none; null when the type is not this family's
     * (the next support, then JSON, is tried).
     */
    default Object withoutManagedFields(Object object) {
        return null;
    }
}
