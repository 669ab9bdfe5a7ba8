package io.kubeloop.controller.internal.desired;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.json.KubeJson;
import tools.jackson.databind.JsonNode;

/**
 * Compares the {@code status} of two versions of an object, for the status writes that skip what
 * would change nothing.
 *
 * <p>Stateless; thread-safe.
 */
public final class Statuses {

    private Statuses() {}

    /**
     * Whether {@code a} and {@code b} have the same status: as JSON, with absent and empty values
     * alike, numbers by value, quantities in canonical form, named list items in any order.
     *
     * @param a one version
     * @param b another
     * @return true when the statuses are the same
     */
    public static boolean same(Object a, Object b) {
        return JsonSubset.same(status(a), status(b));
    }

    private static JsonNode status(Object object) {
        JsonNode tree =
                object instanceof DynamicObject d ? d.node() : KubeJson.mapper().valueToTree(object);
        return tree == null ? null : tree.get("status");
    }
}
