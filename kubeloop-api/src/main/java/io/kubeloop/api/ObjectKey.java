package io.kubeloop.api;

import java.util.Objects;

/**
 * The identity of an object within one resource: namespace and name. A cluster-scoped object has
 * the empty namespace and its key is written as the bare name; a namespaced key is written
 * {@code namespace/name} (client-go's {@code MetaNamespaceKeyFunc} format).
 *
 * <p>Immutable and thread-safe; suitable as a map key and as a work-queue item.
 *
 * @param namespace the namespace, {@code ""} for cluster-scoped objects; never null
 * @param name the name, never blank
 */
public record ObjectKey(String namespace, String name) implements Comparable<ObjectKey> {

    public ObjectKey {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(name, "name");
        if (name.isEmpty()) {
            throw new IllegalArgumentException("name must not be empty");
        }
    }

    /** A key for a cluster-scoped object. */
    public static ObjectKey cluster(String name) {
        return new ObjectKey("", name);
    }

    /** A key for a namespaced object; a null or empty namespace gives a cluster-scoped key. */
    public static ObjectKey of(String namespace, String name) {
        return new ObjectKey(namespace == null ? "" : namespace, name);
    }

    /**
     * Parses {@code namespace/name} or {@code name}.
     *
     * @throws IllegalArgumentException for more than one slash or an empty part
     */
    public static ObjectKey parse(String key) {
        Objects.requireNonNull(key, "key");
        int slash = key.indexOf('/');
        if (slash < 0) {
            return cluster(key);
        }
        if (slash == 0 || slash == key.length() - 1 || key.indexOf('/', slash + 1) >= 0) {
            throw new IllegalArgumentException("unexpected key format: " + key);
        }
        return new ObjectKey(key.substring(0, slash), key.substring(slash + 1));
    }

    public boolean isNamespaced() {
        return !namespace.isEmpty();
    }

    @Override
    public int compareTo(ObjectKey other) {
        int c = namespace.compareTo(other.namespace);
        return c != 0 ? c : name.compareTo(other.name);
    }

    @Override
    public String toString() {
        return namespace.isEmpty() ? name : namespace + "/" + name;
    }
}
