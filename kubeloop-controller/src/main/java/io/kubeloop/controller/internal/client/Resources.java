package io.kubeloop.controller.internal.client;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.GroupVersionKind;
import io.kubeloop.api.ObjectAccess;
import io.kubeloop.api.PartialObjectMetadata;
import io.kubeloop.api.ResourceScope;
import io.kubeloop.client.KubeClient;
import io.kubeloop.client.ResourceClient;
import io.kubeloop.client.discovery.RestMapping;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Finds the {@link ResourceClient} of a Java type, a kind, or an object, once per type or kind.
 *
 * <p><b>Thread safety:</b> thread-safe; the maps are concurrent and their values immutable clients.
 */
final class Resources {

    private final KubeClient kube;
    private final Map<Class<?>, ResourceClient<?>> byType = new ConcurrentHashMap<>();
    private final Map<GroupVersionKind, ResourceClient<DynamicObject>> byKind = new ConcurrentHashMap<>();
    private final Map<Class<?>, ResourceClient<PartialObjectMetadata>> byMetadata = new ConcurrentHashMap<>();

    Resources(KubeClient kube) {
        this.kube = kube;
    }

    KubeClient kube() {
        return kube;
    }

    /** @throws IllegalArgumentException when the scheme does not know {@code type} */
    @SuppressWarnings("unchecked")
    <T> ResourceClient<T> forType(Class<T> type) {
        if (type == DynamicObject.class) {
            throw new IllegalArgumentException(
                    "a DynamicObject names no kind: read it with get(GroupVersionKind, key) or list(GroupVersionKind, ...)");
        }
        return (ResourceClient<T>) byType.computeIfAbsent(type, kube::resource);
    }

    /** The metadata-only client of {@code type}'s resource. */
    ResourceClient<PartialObjectMetadata> forMetadata(Class<?> type) {
        return byMetadata.computeIfAbsent(type, t -> {
            ResourceClient<?> rc = forType(t);
            return kube.metadataResource(
                    rc.resource(), rc.namespaced() ? ResourceScope.NAMESPACED : ResourceScope.CLUSTER);
        });
    }

    /** The kind of {@code type} in the kube client's scheme. */
    GroupVersionKind kindOf(Class<?> type) {
        return kube.scheme()
                .gvkOf(type)
                .orElseThrow(
                        () -> new IllegalArgumentException(
                                type.getName()
                                        + " is not a Kubernetes kind of the scheme: register it in the Scheme or annotate it with @Kind"));
    }

    /** The client of {@code kind}, resolved through discovery. */
    ResourceClient<DynamicObject> forKind(GroupVersionKind kind) {
        return byKind.computeIfAbsent(kind, k -> {
            RestMapping m = kube.restMapper().mapping(k);
            return kube.resource(m.groupVersionResource(), m.scope(), DynamicObject.class);
        });
    }

    /** The client of {@code object}'s kind, in the object's namespace when the kind is namespaced. */
    @SuppressWarnings("unchecked")
    <T> ResourceClient<T> forObject(T object) {
        ResourceClient<T> rc = object instanceof DynamicObject d
                ? (ResourceClient<T>) forKind(kindOf(d))
                : forType((Class<T>) object.getClass());
        return in(rc, ObjectAccess.namespace(object), ObjectAccess.name(object));
    }

    /** The kind of a dynamic object, from its apiVersion and kind. */
    static GroupVersionKind kindOf(DynamicObject object) {
        String apiVersion = object.apiVersion();
        String kind = object.kind();
        if (apiVersion == null || apiVersion.isEmpty() || kind == null || kind.isEmpty()) {
            throw new IllegalArgumentException(
                    "a DynamicObject needs apiVersion and kind to be written: " + object.key());
        }
        return GroupVersionKind.of(apiVersion, kind);
    }

    /**
     * {@code rc} in {@code namespace} for a namespaced kind; {@code rc} itself for a cluster-scoped one.
     *
     * @throws IllegalArgumentException for a namespaced kind and an empty namespace
     */
    static <T> ResourceClient<T> in(ResourceClient<T> rc, String namespace, String name) {
        if (!rc.namespaced()) {
            return rc;
        }
        if (namespace == null || namespace.isEmpty()) {
            throw new IllegalArgumentException(rc.resource().resource() + " are namespaced, but \"" + name
                    + "\" has no namespace: set metadata.namespace (or the key's namespace)");
        }
        return rc.inNamespace(namespace);
    }
}
