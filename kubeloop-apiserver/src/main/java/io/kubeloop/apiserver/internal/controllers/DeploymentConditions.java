package io.kubeloop.apiserver.internal.controllers;

import java.time.Instant;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Sets a Deployment's conditions as kube-controller-manager does: a condition with the same status and reason
 * is left as it is (unless {@code touch}: the {@code Progressing} condition's {@code lastUpdateTime} moves on
 * with every step of progress); otherwise it is replaced at the end of the list, keeping its
 * {@code lastTransitionTime} when the status stays.
 *
 * <p>Stateless and thread-safe.
 */
final class DeploymentConditions {

    private DeploymentConditions() {}

    static void set(
            ObjectNode status, String type, String value, String reason, String message, Instant now, boolean touch) {
        ArrayNode conditions = status.get("conditions") instanceof ArrayNode a ? a : status.putArray("conditions");
        String time = WorkloadObjects.timestamp(now);
        String transition = time;
        for (int i = 0; i < conditions.size(); i++) {
            if (!conditions.get(i).path("type").asString("").equals(type)) {
                continue;
            }
            boolean sameStatus = conditions.get(i).path("status").asString("").equals(value);
            if (sameStatus
                    && !touch
                    && conditions.get(i).path("reason").asString("").equals(reason)) {
                return;
            }
            if (sameStatus) {
                transition = conditions.get(i).path("lastTransitionTime").asString(time);
            }
            conditions.remove(i);
            break;
        }
        conditions
                .addObject()
                .put("type", type)
                .put("status", value)
                .put("lastUpdateTime", time)
                .put("lastTransitionTime", transition)
                .put("reason", reason)
                .put("message", message);
    }

    static void remove(ObjectNode status, String type) {
        if (status.get("conditions") instanceof ArrayNode conditions) {
            for (int i = conditions.size() - 1; i >= 0; i--) {
                if (conditions.get(i).path("type").asString("").equals(type)) {
                    conditions.remove(i);
                }
            }
        }
    }
}
