package io.kubeloop.api;

/**
 * The contract every Kubernetes object satisfies: an {@code apiVersion}, a {@code kind} and
 * {@link ObjectMeta metadata}. User types are usually records:
 *
 * {@snippet :
 * record Foo(String apiVersion, String kind, ObjectMeta metadata, FooSpec spec, FooStatus status)
 *         implements KubernetesObject {}
 * }
 *
 * <p>Objects handed out by kubeloop (from a client call or an informer's cache) are shared: treat
 * them as immutable, and copy before changing.
 */
public interface KubernetesObject {

    /** The object's {@code apiVersion}, e.g. {@code apps/v1}; may be null on list items of built-in kinds. */
    String apiVersion();

    /** The object's {@code kind}, e.g. {@code Deployment}; may be null on list items of built-in kinds. */
    String kind();

    /** The object's metadata; never null for objects read from a server. */
    ObjectMeta metadata();

    /** The object's {@link ObjectKey}: its namespace (empty when cluster-scoped) and name. */
    default ObjectKey key() {
        ObjectMeta meta = metadata();
        return ObjectKey.of(meta.namespace(), meta.name());
    }
}
