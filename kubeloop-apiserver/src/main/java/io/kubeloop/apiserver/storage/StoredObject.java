package io.kubeloop.apiserver.storage;

import io.kubeloop.api.json.KubeJson;
import java.util.Objects;
import tools.jackson.databind.node.ObjectNode;

/**
 * One committed version of an object: its JSON tree and the very same JSON serialized once at commit.
 *
 * <p>List responses and every watcher write {@link #json()} as is; nothing re-serializes an object per
 * reader. The tree is for the resource layer (selectors, semantics, tables).
 *
 * <p><b>Thread safety.</b> Immutable by contract: neither the {@link #object() tree} nor the
 * {@link #json() bytes} may be modified by anyone after construction (they are shared by all readers
 * and watchers). Copy the tree ({@code deepCopy()}) before changing it.
 *
 * @param resource the store's resource id (e.g. {@code apps/deployments})
 * @param key {@code namespace/name}, or {@code name} for cluster-scoped objects
 * @param resourceVersion the global revision that wrote this version (0 for a dry-run result)
 * @param object the JSON tree; {@code metadata.resourceVersion} equals {@code resourceVersion}
 * @param json the compact JSON of {@code object}
 */
public record StoredObject(String resource, String key, long resourceVersion, ObjectNode object, byte[] json) {

    public StoredObject {
        Objects.requireNonNull(resource, "resource");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(object, "object");
        Objects.requireNonNull(json, "json");
    }

    /** Serializes {@code object} (which must already carry its resourceVersion). */
    public static StoredObject of(String resource, String key, long resourceVersion, ObjectNode object) {
        return new StoredObject(resource, key, resourceVersion, object, KubeJson.mapper().writeValueAsBytes(object));
    }

    /** A copy of this object's content stamped with another resourceVersion (used for DELETED events). */
    public StoredObject withResourceVersion(long rv) {
        ObjectNode copy = object.deepCopy();
        Metadata.setResourceVersion(copy, rv);
        return of(resource, key, rv, copy);
    }

    /** {@code metadata.namespace}, or {@code ""}. */
    public String namespace() {
        int slash = key.indexOf('/');
        return slash < 0 ? "" : key.substring(0, slash);
    }

    /** {@code metadata.name}. */
    public String name() {
        int slash = key.indexOf('/');
        return slash < 0 ? key : key.substring(slash + 1);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof StoredObject s && s.resource.equals(resource) && s.key.equals(key)
                && s.resourceVersion == resourceVersion;
    }

    @Override
    public int hashCode() {
        return Objects.hash(resource, key, resourceVersion);
    }

    @Override
    public String toString() {
        return resource + " " + key + "@" + resourceVersion;
    }
}
