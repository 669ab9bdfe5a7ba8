package io.kubeloop.apiserver.internal.builtin;

import io.kubeloop.api.json.KubeJson;
import io.kubeloop.api.selector.LabelSelector;
import io.kubeloop.api.selector.LabelSelectorSpec;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * A PodDisruptionBudget's arithmetic, as the disruption controller computes it: of the Pods the budget selects
 * that are neither terminating nor finished ({@code expectedPods}), the ready ones are healthy; the budget
 * wants {@code minAvailable} of them (a percentage of the expected, rounded up) or all but
 * {@code maxUnavailable}; the difference, never negative, is how many may be disrupted now. Shared by the
 * eviction subresource and the controller that writes budgets' status.
 *
 * <p>Stateless and thread-safe.
 */
public final class DisruptionBudgets {

    private DisruptionBudgets() {}

    /** One budget's numbers. */
    public record Budget(int expected, int healthy, int desired, int allowed) {}

    /** True when {@code budget}'s selector selects {@code pod}. */
    public static boolean selects(JsonNode budget, JsonNode pod) {
        JsonNode selector = budget.path("spec").path("selector");
        if (!selector.isObject()) {
            return false;
        }
        LabelSelector s =
                KubeJson.mapper().treeToValue(selector, LabelSelectorSpec.class).toSelector();
        return s.matches(labels(pod));
    }

    /** The numbers of {@code budget} over {@code pods} (any Pods of its namespace; it picks those it selects). */
    public static Budget evaluate(JsonNode budget, List<? extends JsonNode> pods) {
        int expected = 0;
        int healthy = 0;
        for (JsonNode pod : pods) {
            String phase = pod.path("status").path("phase").asString("");
            if (selects(budget, pod)
                    && !pod.path("metadata").has("deletionTimestamp")
                    && !phase.equals("Succeeded")
                    && !phase.equals("Failed")) {
                expected++;
                if (ready(pod)) {
                    healthy++;
                }
            }
        }
        JsonNode spec = budget.path("spec");
        int desired;
        if (spec.has("minAvailable")) {
            desired = scaled(spec.get("minAvailable"), expected);
        } else if (spec.has("maxUnavailable")) {
            desired = Math.max(0, expected - scaled(spec.get("maxUnavailable"), expected));
        } else {
            desired = expected;
        }
        return new Budget(expected, healthy, desired, Math.max(0, healthy - desired));
    }

    /** True when the Pod's {@code Ready} condition is {@code True}. */
    public static boolean ready(JsonNode pod) {
        for (JsonNode c : pod.path("status").path("conditions")) {
            if (c.path("type").asString("").equals("Ready")) {
                return c.path("status").asString("").equals("True");
            }
        }
        return false;
    }

    /** An int-or-percent of {@code total}, a percentage rounded up. */
    private static int scaled(JsonNode value, int total) {
        if (value.isNumber()) {
            return value.asInt();
        }
        String text = value.asString("0").trim();
        try {
            if (text.endsWith("%")) {
                long percent = Long.parseLong(text.substring(0, text.length() - 1));
                return (int) ((percent * total + 99) / 100);
            }
            return Integer.parseInt(text);
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static Map<String, String> labels(JsonNode object) {
        Map<String, String> out = new LinkedHashMap<>();
        object.path("metadata")
                .path("labels")
                .properties()
                .forEach(e -> out.put(e.getKey(), e.getValue().asString("")));
        return out;
    }
}
