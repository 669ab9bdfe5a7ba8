package io.kubeloop.apiserver.internal.registry;

import tools.jackson.databind.node.ObjectNode;

/**
 * How objects of a resource move between its versions: the CRD conversion strategy. {@link #NONE}
 * rewrites {@code apiVersion} alone; a {@code Webhook} strategy asks the CRD's conversion webhook.
 *
 * <p><b>Thread safety.</b> Implementations are thread-safe.
 */
@FunctionalInterface
public interface ObjectConversion {

    /** The {@code None} strategy: the same fields, {@code apiVersion} rewritten. */
    ObjectConversion NONE = (object, apiVersion) -> {
        ObjectNode copy = object.deepCopy();
        copy.put("apiVersion", apiVersion);
        return copy;
    };

    /**
     * {@code object} in {@code apiVersion}, a new tree ({@code object} is not modified).
     *
     * @throws io.kubeloop.api.errors.ApiException 500 when the conversion fails
     */
    ObjectNode convert(ObjectNode object, String apiVersion);
}
