package io.kubeloop.apiserver.internal.registry;

import io.kubeloop.api.json.KubeJson;
import io.kubeloop.apiserver.internal.storage.StoredObject;
import tools.jackson.databind.node.ObjectNode;

/**
 * Serving stored custom resources in the version of the request: a custom resource is stored once, in
 * its CRD's storage version, and served in every served version through the definition's
 * {@link ObjectConversion} (the {@code None} strategy rewrites {@code apiVersion} only; the
 * {@code Webhook} strategy asks the conversion webhook).
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
     * (do not modify it), else a converted copy.
     */
    public static ObjectNode object(ResourceDefinition def, StoredObject stored) {
        if (!needed(def, stored)) {
            return stored.object();
        }
        return def.conversion().convert(stored.object(), def.apiVersion());
    }

    /** {@code stored} as {@code def}'s version serves it, same key and resourceVersion. */
    public static StoredObject stored(ResourceDefinition def, StoredObject stored) {
        return needed(def, stored)
                ? StoredObject.of(stored.resource(), stored.key(), stored.resourceVersion(), object(def, stored))
                : stored;
    }
}
