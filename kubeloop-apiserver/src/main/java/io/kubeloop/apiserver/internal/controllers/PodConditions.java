package io.kubeloop.apiserver.internal.controllers;

import java.time.Instant;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Sets conditions in a status as Kubernetes components do: a condition whose status changes gets a new
 * {@code lastTransitionTime}; one whose status stays keeps it. Pod conditions carry {@code lastProbeTime: null};
 * Deployment conditions a {@code lastUpdateTime}.
 *
 * <p>Stateless and thread-safe.
 */
final class PodConditions {

    private PodConditions() {}

    /**
     * Sets the Pod condition {@code type} in {@code status} (in place, at the position it had, else at the end).
     *
     * @param reason the reason, or null for none
     * @param message the message, or null for none
     * @return true when anything changed
     */
    static boolean set(ObjectNode status, String type, String value, String reason, String message, Instant now) {
        ArrayNode conditions = status.get("conditions") instanceof ArrayNode a ? a : status.putArray("conditions");
        for (int i = 0; i < conditions.size(); i++) {
            JsonNode c = conditions.get(i);
            if (!c.path("type").asString("").equals(type)) {
                continue;
            }
            ObjectNode next = condition(type, value, reason, message);
            next.put(
                    "lastTransitionTime",
                    c.path("status").asString("").equals(value)
                            ? c.path("lastTransitionTime").asString(WorkloadObjects.timestamp(now))
                            : WorkloadObjects.timestamp(now));
            if (next.equals(c)) {
                return false;
            }
            conditions.set(i, next);
            return true;
        }
        conditions.add(
                condition(type, value, reason, message).put("lastTransitionTime", WorkloadObjects.timestamp(now)));
        return true;
    }

    private static ObjectNode condition(String type, String value, String reason, String message) {
        ObjectNode c = JsonNodeFactory.instance.objectNode();
        c.put("type", type);
        c.put("status", value);
        c.putNull("lastProbeTime");
        if (reason != null) {
            c.put("reason", reason);
        }
        if (message != null) {
            c.put("message", message);
        }
        return c;
    }
}
