package io.kubeloop.controller.util;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.json.KubeJson;
import java.util.function.Consumer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Copies an object with its {@code metadata} edited, whatever its Java type: a {@link DynamicObject}
 * through its own {@code edit}, anything else (fabric8 models, records) through its JSON tree and
 * back into the same class. The argument is never changed — objects from informer caches are shared.
 */
final class MetadataEdit {

    private MetadataEdit() {}

    @SuppressWarnings("unchecked")
    static <T> T copyWith(T object, Consumer<ObjectNode> metadataEditor) {
        if (object instanceof DynamicObject d) {
            return (T) d.edit(root -> metadataEditor.accept(metadata(root)));
        }
        ObjectNode root = KubeJson.mapper().valueToTree(object);
        metadataEditor.accept(metadata(root));
        return (T) KubeJson.mapper().treeToValue(root, object.getClass());
    }

    /** The object's JSON tree (for comparisons). */
    static JsonNode tree(Object object) {
        return object instanceof DynamicObject d ? d.node() : KubeJson.mapper().valueToTree(object);
    }

    private static ObjectNode metadata(ObjectNode root) {
        JsonNode m = root.get("metadata");
        return m instanceof ObjectNode o ? o : root.putObject("metadata");
    }
}
