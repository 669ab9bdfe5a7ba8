package io.kubeloop.controller.internal.client;

import io.kubeloop.api.Scheme;
import io.kubeloop.api.json.KubeJson;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The body of a server-side apply made from a whole object: the object's JSON without the fields
 * the server owns, without nulls, with apiVersion and kind.
 *
 * <p>Stateless; thread-safe.
 */
public final class ApplyBodies {

    /** Metadata fields the server sets and an apply must not claim. */
    private static final List<String> SERVER_OWNED_METADATA = List.of(
            "managedFields",
            "uid",
            "creationTimestamp",
            "generation",
            "deletionTimestamp",
            "deletionGracePeriodSeconds",
            "selfLink");

    private ApplyBodies() {}

    /**
     * The apply body of {@code object}: its spec and metadata ({@code status} left out).
     *
     * @param object the desired state
     * @param scheme fills apiVersion and kind when the object has none
     * @return the JSON bytes
     */
    static byte[] forObject(Object object, Scheme scheme) {
        return KubeJson.mapper().writeValueAsBytes(treeForObject(object, scheme));
    }

    /**
     * What {@link #forObject} sends, as a tree of its own: for comparing with what the server holds.
     *
     * @param object the desired state
     * @param scheme fills apiVersion and kind when the object has none
     * @return a new tree
     */
    public static ObjectNode treeForObject(Object object, Scheme scheme) {
        ObjectNode tree = tree(object, scheme);
        tree.remove("status");
        return tree;
    }

    /**
     * The apply body of {@code object}'s status subresource: apiVersion, kind, name, namespace, a
     * set resourceVersion, and the status.
     *
     * @param object the object with the desired status
     * @param scheme fills apiVersion and kind when the object has none
     * @return the JSON bytes
     */
    static byte[] forStatus(Object object, Scheme scheme) {
        ObjectNode tree = tree(object, scheme);
        ObjectNode body = KubeJson.mapper().createObjectNode();
        body.set("apiVersion", tree.get("apiVersion"));
        body.set("kind", tree.get("kind"));
        ObjectNode meta = body.putObject("metadata");
        JsonNode from = tree.path("metadata");
        for (String field : List.of("name", "namespace", "resourceVersion")) {
            if (from.hasNonNull(field)) {
                meta.set(field, from.get(field));
            }
        }
        if (tree.has("status")) {
            body.set("status", tree.get("status"));
        }
        return KubeJson.mapper().writeValueAsBytes(body);
    }

    private static ObjectNode tree(Object object, Scheme scheme) {
        JsonNode json = KubeJson.mapper().valueToTree(object);
        if (!(json instanceof ObjectNode tree)) {
            throw new IllegalArgumentException(
                    "cannot apply " + object.getClass().getName() + ": it is not a JSON object");
        }
        dropNulls(tree);
        if (!tree.hasNonNull("apiVersion") || !tree.hasNonNull("kind")) {
            scheme.gvkOf(object.getClass()).ifPresent(gvk -> {
                tree.put("apiVersion", gvk.apiVersion());
                tree.put("kind", gvk.kind());
            });
        }
        if (tree.path("metadata") instanceof ObjectNode meta) {
            SERVER_OWNED_METADATA.forEach(meta::remove);
            JsonNode rv = meta.get("resourceVersion");
            if (rv != null && rv.asString("").isEmpty()) {
                meta.remove("resourceVersion");
            }
        }
        return tree;
    }

    /** Removes null members and null array elements at every depth. */
    private static void dropNulls(JsonNode node) {
        if (node instanceof ObjectNode object) {
            List<String> nulls = new ArrayList<>();
            for (Map.Entry<String, JsonNode> e : object.properties()) {
                if (e.getValue().isNull()) {
                    nulls.add(e.getKey());
                } else {
                    dropNulls(e.getValue());
                }
            }
            nulls.forEach(object::remove);
        } else if (node instanceof ArrayNode array) {
            for (int i = array.size() - 1; i >= 0; i--) {
                if (array.get(i).isNull()) {
                    array.remove(i);
                } else {
                    dropNulls(array.get(i));
                }
            }
        }
    }
}
