package io.kubeloop.apiserver.internal.crd;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code status.conditions} of a CustomResourceDefinition, maintained as apiextensions' helpers do: a
 * condition keeps its {@code lastTransitionTime} while its status stays the same (reason and message
 * may still change).
 *
 * <p>Stateless and thread-safe; mutates only the objects passed in.
 */
final class Conditions {

    static final String NAMES_ACCEPTED = "NamesAccepted";
    static final String ESTABLISHED = "Established";
    static final String TERMINATING = "Terminating";

    private Conditions() {}

    /** The condition of {@code type} in {@code crd}'s status, or null. */
    static JsonNode find(JsonNode crd, String type) {
        for (JsonNode c : crd.path("status").path("conditions")) {
            if (type.equals(c.path("type").asString(""))) {
                return c;
            }
        }
        return null;
    }

    /** True when the condition exists with status {@code True}. */
    static boolean isTrue(JsonNode crd, String type) {
        JsonNode c = find(crd, type);
        return c != null && "True".equals(c.path("status").asString(""));
    }

    /** Sets a condition in {@code status} (creating {@code conditions}), keeping the transition time if unchanged. */
    static void set(ObjectNode status, String type, boolean value, String reason, String message, Instant now) {
        ArrayNode conditions = status.get("conditions") instanceof ArrayNode a ? a : status.putArray("conditions");
        String s = value ? "True" : "False";
        for (JsonNode c : conditions) {
            if (c instanceof ObjectNode o && type.equals(o.path("type").asString(""))) {
                if (!s.equals(o.path("status").asString(""))) {
                    o.put("status", s);
                    o.put(
                            "lastTransitionTime",
                            now.truncatedTo(ChronoUnit.SECONDS).toString());
                }
                o.put("reason", reason);
                o.put("message", message);
                return;
            }
        }
        ObjectNode c = conditions.addObject();
        c.put("type", type);
        c.put("status", s);
        c.put("lastTransitionTime", now.truncatedTo(ChronoUnit.SECONDS).toString());
        c.put("reason", reason);
        c.put("message", message);
    }
}
