package io.kubeloop.apiserver.internal.storage;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Small helpers over {@code metadata} in JSON trees, shared by storage and the resource layer.
 *
 * <p>Stateless and thread-safe; callers own the trees they pass.
 */
public final class Metadata {

    private Metadata() {}

    /** {@code metadata}, created when absent (or not an object). */
    public static ObjectNode metadata(ObjectNode object) {
        JsonNode m = object.get("metadata");
        if (m instanceof ObjectNode on) {
            return on;
        }
        return object.putObject("metadata");
    }

    /** A text field of {@code metadata}, or {@code ""}. */
    public static String text(ObjectNode object, String field) {
        JsonNode m = object.get("metadata");
        if (m == null) {
            return "";
        }
        JsonNode v = m.get(field);
        return v == null || v.isNull() ? "" : v.asString();
    }

    /** Sets {@code metadata.resourceVersion}, or removes it for {@code rv <= 0}. */
    public static void setResourceVersion(ObjectNode object, long rv) {
        if (rv <= 0) {
            metadata(object).remove("resourceVersion");
        } else {
            metadata(object).put("resourceVersion", Long.toString(rv));
        }
    }

    /** The store key of an object: {@code namespace/name}, or {@code name} when the namespace is empty. */
    public static String key(String namespace, String name) {
        return namespace == null || namespace.isEmpty() ? name : namespace + "/" + name;
    }
}
