package io.kubeloop.controller.events;

import io.kubeloop.api.KubernetesObject;
import io.kubeloop.api.ObjectAccess;
import io.kubeloop.api.ObjectMeta;
import io.kubeloop.api.Scheme;
import io.kubeloop.api.json.KubeJson;
import tools.jackson.databind.JsonNode;

/**
 * The object an Event is about, as the Event's {@code involvedObject} names it.
 *
 * @param apiVersion its API version
 * @param kind its kind
 * @param namespace its namespace, {@code ""} when cluster-scoped
 * @param name its name
 * @param uid its uid, or null
 * @param resourceVersion its resourceVersion when the Event was recorded, or null
 */
record InvolvedObject(
        String apiVersion, String kind, String namespace, String name, String uid, String resourceVersion) {

    /**
     * Reads a {@link KubernetesObject}, or any other object that has {@code apiVersion} and {@code kind} in its
     * JSON (a fabric8 model object), or whose type the default scheme maps to a kind.
     */
    static InvolvedObject of(Object object) {
        String apiVersion;
        String kind;
        if (object instanceof KubernetesObject k) {
            apiVersion = k.apiVersion();
            kind = k.kind();
        } else {
            JsonNode tree;
            try {
                tree = KubeJson.mapper().valueToTree(object);
            } catch (RuntimeException e) {
                throw new IllegalArgumentException(
                        "cannot record an event about a " + object.getClass().getName()
                                + ": not a KubernetesObject nor readable as JSON",
                        e);
            }
            apiVersion = tree.path("apiVersion").asString(null);
            kind = tree.path("kind").asString(null);
        }
        if (kind == null || kind.isEmpty()) {
            var gvk = Scheme.defaults().gvkOf(object.getClass());
            if (gvk.isPresent()) {
                apiVersion = gvk.get().apiVersion();
                kind = gvk.get().kind();
            }
        }
        ObjectMeta meta = ObjectAccess.metadata(object);
        if (kind == null
                || kind.isEmpty()
                || meta == null
                || meta.name() == null
                || meta.name().isEmpty()) {
            throw new IllegalArgumentException(
                    "cannot record an event about an object without kind or name: " + object);
        }
        return new InvolvedObject(
                apiVersion,
                kind,
                meta.namespace() == null ? "" : meta.namespace(),
                meta.name(),
                meta.uid(),
                meta.resourceVersion());
    }

    /** The Event's namespace: the object's, or {@code default} for a cluster-scoped one. */
    String eventNamespace() {
        return namespace.isEmpty() ? "default" : namespace;
    }

    /** What identifies the object across Events (not its resourceVersion). */
    String identity() {
        return apiVersion + '\u0000' + kind + '\u0000' + namespace + '\u0000' + name + '\u0000' + uid;
    }
}
