package io.kubeloop.apiserver.internal.storage;

import io.kubeloop.api.json.KubeJson;
import java.util.Objects;
import tools.jackson.databind.node.ObjectNode;

/**
 * One committed version of an object: its JSON serialized once at commit, and its JSON tree while
 * the version is current.
 *
 * <p>List responses and every watcher write {@link #json()} as is; nothing re-serializes an object per
 * reader. The tree is for the resource layer (selectors, semantics, tables). A tree of a 4 KB Pod
 * takes about 25 KB of heap, so the store {@linkplain #releaseTree() lets go of it} once a version
 * is only history (superseded or deleted, kept for watches from older revisions); {@link #object()}
 * of such a version parses the bytes again, each call. What a reader sees never changes: the bytes
 * and the tree are the same content.
 *
 * <p><b>Thread safety.</b> Immutable by contract: neither the {@link #object() tree} nor the
 * {@link #json() bytes} may be modified by anyone after construction (they are shared by all readers
 * and watchers). Copy the tree ({@code deepCopy()}) before changing it. {@link #releaseTree()} may
 * race with readers; they get the kept tree or a fresh parse of the same bytes.
 */
public final class StoredObject {

    private final String resource;
    private final String key;
    private final long resourceVersion;
    private final byte[] json;
    /** {@code apiVersion} of the object, kept apart so that version checks need no tree. */
    private final String apiVersion;
    /** The tree, or null once released. */
    private volatile ObjectNode tree;

    /**
     * @param resource the store's resource id (e.g. {@code apps/deployments})
     * @param key {@code namespace/name}, or {@code name} for cluster-scoped objects
     * @param resourceVersion the global revision that wrote this version (0 for a dry-run result)
     * @param object the JSON tree; {@code metadata.resourceVersion} equals {@code resourceVersion}
     * @param json the compact JSON of {@code object}
     */
    public StoredObject(String resource, String key, long resourceVersion, ObjectNode object, byte[] json) {
        this.resource = Objects.requireNonNull(resource, "resource");
        this.key = Objects.requireNonNull(key, "key");
        this.resourceVersion = resourceVersion;
        this.tree = Objects.requireNonNull(object, "object");
        this.json = Objects.requireNonNull(json, "json");
        this.apiVersion = object.path("apiVersion").asString("");
    }

    /** Serializes {@code object} (which must already carry its resourceVersion). */
    public static StoredObject of(String resource, String key, long resourceVersion, ObjectNode object) {
        return new StoredObject(
                resource, key, resourceVersion, object, KubeJson.mapper().writeValueAsBytes(object));
    }

    /** The store's resource id (e.g. {@code apps/deployments}). */
    public String resource() {
        return resource;
    }

    /** {@code namespace/name}, or {@code name} for cluster-scoped objects. */
    public String key() {
        return key;
    }

    /** The global revision that wrote this version (0 for a dry-run result). */
    public long resourceVersion() {
        return resourceVersion;
    }

    /**
     * The JSON tree; {@code metadata.resourceVersion} equals {@link #resourceVersion()}. After
     * {@link #releaseTree()}, a new tree parsed from {@link #json()} on each call.
     */
    public ObjectNode object() {
        ObjectNode t = tree;
        return t != null ? t : (ObjectNode) KubeJson.mapper().readTree(json);
    }

    /** The object's {@code apiVersion}, or {@code ""}; needs no tree. */
    public String apiVersion() {
        return apiVersion;
    }

    /** The compact JSON of {@link #object()}. */
    public byte[] json() {
        return json;
    }

    /** Drops the kept tree (the version became history); {@link #object()} parses from now on. */
    void releaseTree() {
        tree = null;
    }

    /** True while the tree is kept (for tests). */
    boolean holdsTree() {
        return tree != null;
    }

    /** A copy of this object's content stamped with another resourceVersion (used for DELETED events). */
    public StoredObject withResourceVersion(long rv) {
        ObjectNode copy = object().deepCopy();
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
        return o instanceof StoredObject s
                && s.resource.equals(resource)
                && s.key.equals(key)
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
