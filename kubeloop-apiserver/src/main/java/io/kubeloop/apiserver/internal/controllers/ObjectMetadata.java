package io.kubeloop.apiserver.internal.controllers;

import io.kubeloop.api.KubernetesObject;
import io.kubeloop.api.ObjectMeta;
import io.kubeloop.api.OwnerReference;
import io.kubeloop.apiserver.internal.storage.StoredObject;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;

/**
 * The part of a stored object the built-in controllers cache (the real controller-manager's
 * {@code PartialObjectMetadata}): type, name, namespace, uid, resourceVersion, deletion state, owner references
 * and finalizers. Labels, annotations, spec and status are left out, so a cache of every object stays small.
 *
 * <p>Immutable; thread-safe.
 *
 * @param apiVersion the served apiVersion of the object's resource
 * @param kind the object's kind
 * @param metadata the cached metadata fields
 */
public record ObjectMetadata(String apiVersion, String kind, ObjectMeta metadata) implements KubernetesObject {

    /** The metadata view of {@code stored}, typed with {@code apiVersion} and {@code kind}. */
    public static ObjectMetadata of(String apiVersion, String kind, StoredObject stored) {
        JsonNode m = stored.object().path("metadata");
        List<OwnerReference> owners = null;
        if (m.path("ownerReferences").isArray()) {
            owners = new ArrayList<>();
            for (JsonNode r : m.get("ownerReferences")) {
                owners.add(new OwnerReference(
                        text(r, "apiVersion"),
                        text(r, "kind"),
                        text(r, "name"),
                        text(r, "uid"),
                        r.path("controller").isBoolean() ? r.get("controller").asBoolean() : null,
                        r.path("blockOwnerDeletion").isBoolean()
                                ? r.get("blockOwnerDeletion").asBoolean()
                                : null));
            }
            owners = List.copyOf(owners);
        }
        List<String> finalizers = null;
        if (m.path("finalizers").isArray()) {
            finalizers = new ArrayList<>();
            for (JsonNode f : m.get("finalizers")) {
                finalizers.add(f.asString());
            }
            finalizers = List.copyOf(finalizers);
        }
        ObjectMeta meta = ObjectMeta.builder()
                .name(text(m, "name"))
                .namespace(text(m, "namespace"))
                .uid(text(m, "uid"))
                .resourceVersion(Long.toString(stored.resourceVersion()))
                .deletionTimestamp(instant(text(m, "deletionTimestamp")))
                .deletionGracePeriodSeconds(
                        m.path("deletionGracePeriodSeconds").isNumber()
                                ? m.get("deletionGracePeriodSeconds").asLong()
                                : null)
                .ownerReferences(owners)
                .finalizers(finalizers)
                .build();
        return new ObjectMetadata(apiVersion, kind, meta);
    }

    /** The uid ({@code ""} when unset). */
    public String uid() {
        return metadata.uid() == null ? "" : metadata.uid();
    }

    /** True once a DELETE marked the object. */
    public boolean beingDeleted() {
        return metadata.deletionTimestamp() != null;
    }

    /** True when the object carries {@code finalizer}. */
    public boolean hasFinalizer(String finalizer) {
        return metadata.finalizersOrEmpty().contains(finalizer);
    }

    private static String text(JsonNode n, String field) {
        JsonNode v = n.get(field);
        return v == null || v.isNull() ? null : v.asString();
    }

    private static Instant instant(String text) {
        if (text == null || text.isEmpty()) {
            return null;
        }
        try {
            return Instant.parse(text);
        } catch (DateTimeParseException e) {
            return null;
        }
    }
}
