package io.kubeloop.apiserver.internal.registry;

import io.kubeloop.api.json.KubeJson;
import io.kubeloop.apiserver.internal.storage.StoredObject;
import tools.jackson.databind.node.ObjectNode;

/**
 * The {@code None} conversion strategy of CustomResourceDefinitions: a custom resource is stored once
 * (in whatever version it was written) and served in every served version with only
 * {@code apiVersion} rewritten to the version of the request.
 *
 * <p>Built-in resources have one version each and are returned unchanged (no copy, no parsing).
 *
 * <p>Stateless and thread-safe; stored objects are never modified.
 */
public final class VersionConversion {

    private VersionConversion() {}

    /** True when {@code stored} must be rewritten before it is served as {@code def}. */
    public static boolean needed(ResourceDefinition def, StoredObject stored) {
        return def.custom() && !def.apiVersion().equals(stored.apiVersion());
    }

    /** The JSON of {@code stored} as {@code def}'s version serves it (the stored bytes when unchanged). */
    public static byte[] json(ResourceDefinition def, StoredObject stored) {
        return needed(def, stored) ? KubeJson.mapper().writeValueAsBytes(object(def, stored)) : stored.json();
    }

    /**
     * The tree of {@code stored} as {@code def}'s version serves it: the stored tree itself when unchanged
     * (do not modify it), else a copy with {@code apiVersion} rewritten.
     */
    public static ObjectNode object(ResourceDefinition def, StoredObject stored) {
        if (!needed(def, stored)) {
            return stored.object();
        }
        ObjectNode copy = stored.object().deepCopy();
        copy.put("apiVersion", def.apiVersion());
        return copy;
    }

    /** {@code stored} as {@code def}'s version serves it, same key and resourceVersion. */
    public static StoredObject stored(ResourceDefinition def, StoredObject stored) {
        return needed(def, stored)
                ? StoredObject.of(stored.resource(), stored.key(), stored.resourceVersion(), object(def, stored))
                : stored;
    }
}
