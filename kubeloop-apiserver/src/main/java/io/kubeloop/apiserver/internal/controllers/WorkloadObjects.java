package io.kubeloop.apiserver.internal.controllers;

import io.kubeloop.api.errors.ConflictException;
import io.kubeloop.api.errors.NotFoundException;
import io.kubeloop.api.json.KubeJson;
import io.kubeloop.api.selector.LabelSelector;
import io.kubeloop.api.selector.LabelSelectorSpec;
import io.kubeloop.apiserver.internal.registry.DeleteParams;
import io.kubeloop.apiserver.internal.registry.ObjectRegistry;
import io.kubeloop.apiserver.internal.registry.ResourceDefinition;
import io.kubeloop.apiserver.internal.registry.WriteContext;
import io.kubeloop.apiserver.internal.storage.ListQuery;
import io.kubeloop.apiserver.internal.storage.Metadata;
import io.kubeloop.apiserver.internal.storage.StoredObject;
import io.kubeloop.client.FieldValidation;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What the workload controllers read from and write into objects as JSON trees: labels, selectors, controller
 * references, Pod readiness and availability, timestamps, and the write context of an in-process controller.
 *
 * <p>Stateless and thread-safe.
 */
final class WorkloadObjects {

    private WorkloadObjects() {}

    /** The object's labels (empty when it has none). */
    static Map<String, String> labels(JsonNode object) {
        Map<String, String> out = new LinkedHashMap<>();
        object.path("metadata")
                .path("labels")
                .properties()
                .forEach(e -> out.put(e.getKey(), e.getValue().asString("")));
        return out;
    }

    /** The selector of a workload's {@code spec.selector}; one that matches nothing when absent. */
    static LabelSelector selector(JsonNode workload) {
        JsonNode s = workload.path("spec").path("selector");
        if (!s.isObject()) {
            return LabelSelector.nothing();
        }
        return KubeJson.mapper().treeToValue(s, LabelSelectorSpec.class).toSelector();
    }

    /** The object's controller reference (the owner reference with {@code controller: true}), if any. */
    static Optional<JsonNode> controllerRef(JsonNode object) {
        for (JsonNode ref : object.path("metadata").path("ownerReferences")) {
            if (ref.path("controller").asBoolean(false)) {
                return Optional.of(ref);
            }
        }
        return Optional.empty();
    }

    /** True when the object's controller reference has {@code uid}. */
    static boolean controlledBy(JsonNode object, String uid) {
        return controllerRef(object)
                .map(r -> r.path("uid").asString("").equals(uid))
                .orElse(false);
    }

    /** A controller reference to {@code owner} of {@code apiVersion}/{@code kind}, blocking its deletion. */
    static ObjectNode controllerReference(String apiVersion, String kind, JsonNode owner) {
        ObjectNode ref = KubeJson.mapper().createObjectNode();
        ref.put("apiVersion", apiVersion);
        ref.put("kind", kind);
        ref.put("name", owner.path("metadata").path("name").asString());
        ref.put("uid", owner.path("metadata").path("uid").asString());
        ref.put("controller", true);
        ref.put("blockOwnerDeletion", true);
        return ref;
    }

    /** A deep copy of an object (a JSON object). */
    static ObjectNode copy(JsonNode object) {
        return (ObjectNode) object.deepCopy();
    }

    /** True when the object has a deletionTimestamp. */
    static boolean deleting(JsonNode object) {
        return object.path("metadata").has("deletionTimestamp");
    }

    /** A Pod that is neither terminating nor finished: one that counts towards its controller's replicas. */
    static boolean active(JsonNode pod) {
        String phase = pod.path("status").path("phase").asString("");
        return !deleting(pod) && !phase.equals("Succeeded") && !phase.equals("Failed");
    }

    /** The object's status condition of {@code type}, if present. */
    static Optional<JsonNode> condition(JsonNode object, String type) {
        return conditionIn(object.path("status"), type);
    }

    /** The condition of {@code type} in a status, if present. */
    static Optional<JsonNode> conditionIn(JsonNode status, String type) {
        for (JsonNode c : status.path("conditions")) {
            if (c.path("type").asString("").equals(type)) {
                return Optional.of(c);
            }
        }
        return Optional.empty();
    }

    /** True when the Pod's {@code Ready} condition is {@code True}. */
    static boolean ready(JsonNode pod) {
        return condition(pod, "Ready")
                .map(c -> c.path("status").asString("").equals("True"))
                .orElse(false);
    }

    /**
     * True when the Pod has been ready for at least {@code minReadySeconds} at {@code now} (ready alone when
     * that is zero), as kube-controller-manager's {@code IsPodAvailable}.
     */
    static boolean available(JsonNode pod, int minReadySeconds, Instant now) {
        if (!ready(pod)) {
            return false;
        }
        if (minReadySeconds <= 0) {
            return true;
        }
        Instant since = instant(condition(pod, "Ready").orElseThrow().path("lastTransitionTime"));
        return since == null || !since.plusSeconds(minReadySeconds).isAfter(now);
    }

    /** How long until a ready Pod becomes available ({@link Duration#ZERO} when it is, or never will be). */
    static Duration untilAvailable(JsonNode pod, int minReadySeconds, Instant now) {
        if (!ready(pod) || minReadySeconds <= 0) {
            return Duration.ZERO;
        }
        Instant since = instant(condition(pod, "Ready").orElseThrow().path("lastTransitionTime"));
        if (since == null) {
            return Duration.ZERO;
        }
        Duration left = Duration.between(now, since.plusSeconds(minReadySeconds));
        return left.isNegative() ? Duration.ZERO : left;
    }

    /** The instant in a timestamp field, or null when it is absent or malformed. */
    static Instant instant(JsonNode timestamp) {
        String text = timestamp.asString("");
        if (text.isEmpty()) {
            return null;
        }
        try {
            return Instant.parse(text);
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    /** An API timestamp: RFC 3339 in UTC, whole seconds (what Go's {@code metav1.Time} serializes). */
    static String timestamp(Instant instant) {
        return instant.truncatedTo(ChronoUnit.SECONDS).toString();
    }

    /** An integer field, {@code fallback} when absent. */
    static int intField(JsonNode parent, String field, int fallback) {
        JsonNode v = parent.path(field);
        return v.isNumber() ? v.asInt() : fallback;
    }

    /** The objects of {@code def} in {@code namespace} at the latest revision. */
    static List<StoredObject> list(ObjectRegistry registry, ResourceDefinition def, String namespace) {
        return registry.store().list(ListQuery.all(def.storageId(), namespace)).items();
    }

    /** The current object, if stored. */
    static Optional<StoredObject> get(ObjectRegistry registry, ResourceDefinition def, String namespace, String name) {
        return registry.store().get(def.storageId(), Metadata.key(namespace, name));
    }

    /**
     * Deletes {@code object} of {@code def} with a uid precondition and {@code propagationPolicy} (or null), as
     * {@code manager}; one already gone, or whose name now belongs to another object, is left alone.
     */
    static void deleteQuietly(
            ObjectRegistry registry,
            ResourceDefinition def,
            JsonNode object,
            String propagationPolicy,
            String manager) {
        try {
            registry.delete(
                    def,
                    object.path("metadata").path("namespace").asString(""),
                    object.path("metadata").path("name").asString(),
                    DeleteParams.propagation(
                            propagationPolicy,
                            object.path("metadata").path("uid").asString()),
                    context(manager));
        } catch (NotFoundException | ConflictException e) {
            // gone meanwhile, or the name belongs to a new object
        }
    }

    /**
     * A write context for a controller: managedFields record {@code manager} (what the real server derives
     * from the controller's User-Agent), fields are not validated against the schema.
     */
    static WriteContext context(String manager) {
        return new WriteContext(null, manager + "/kubeloop", false, FieldValidation.IGNORE, false);
    }
}
