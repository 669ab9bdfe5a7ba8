package io.kubeloop.controller.internal.desired;

import java.math.BigDecimal;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * Decides whether an object as the server holds it already has every field a desired state sets:
 * the desired JSON is a subset of the actual JSON, after the normalisations an API server's round
 * trip makes. It reads JSON only — no schema, no {@code managedFields} — so it works the same for
 * fabric8 models, records and {@link io.kubeloop.api.DynamicObject}s.
 *
 * <ul>
 *   <li>Members the desired state does not set are ignored: server defaults, other writers'
 *       fields, {@code status}.</li>
 *   <li>A desired member the actual object lacks matches when its value is empty — null,
 *       {@code ""}, {@code false}, {@code 0}, {@code []}, or an object of empty members — as Go's
 *       {@code omitempty} drops such values from what the server answers.</li>
 *   <li>Strings match when equal, or when the desired one is a quantity whose canonical form
 *       ({@code 1000m} → {@code 1}, {@code 1.5Gi} → {@code 1536Mi}) is the actual one. Numbers match
 *       by value ({@code 1} and {@code 1.0}), and a number matches a string of the same number (an
 *       int-or-string written the other way, {@code "80"} and {@code 80}): a typed field holds one
 *       or the other, never both.</li>
 *   <li>Lists of scalars match element by element, in order. Lists of objects match item by item,
 *       each desired item a subset of its actual item: by {@code name} when every item has a
 *       distinct one (containers, env, volumes, named ports — the merge key of most keyed lists),
 *       otherwise in order, the actual list free to hold more items between them (items added by
 *       the server or by other writers, such as injected sidecars).</li>
 * </ul>
 *
 * <p>The comparison errs on the side of seeing a difference: a false difference costs one
 * redundant apply, which the caller's memory of its last write keeps from repeating (see
 * {@link DesiredStates}); a false match would leave a change made by someone else uncorrected.
 * Removed fields are invisible to a subset test; the caller detects them by the hash of the desired
 * state it records on the object.
 *
 * <p>Stateless; thread-safe.
 */
final class JsonSubset {

    private JsonSubset() {}

    /**
     * Whether {@code actual} has every field {@code desired} sets.
     *
     * @param desired the desired JSON
     * @param actual the actual JSON, or null when absent
     * @return true when in sync
     */
    static boolean covers(JsonNode desired, JsonNode actual) {
        if (desired == null || desired.isNull() || desired.isMissingNode()) {
            return true;
        }
        if (actual == null || actual.isNull() || actual.isMissingNode()) {
            return isEmpty(desired);
        }
        if (desired.isObject()) {
            if (!actual.isObject()) {
                return false;
            }
            for (Map.Entry<String, JsonNode> member : desired.properties()) {
                if (!covers(member.getValue(), actual.get(member.getKey()))) {
                    return false;
                }
            }
            return true;
        }
        if (desired.isArray()) {
            return actual.isArray() && coversList(desired, actual);
        }
        return sameScalar(desired, actual);
    }

    /**
     * Whether {@code a} and {@code b} hold the same values: each covers the other. Order matters
     * as in {@link #covers}; absent and empty members are the same.
     *
     * @param a one JSON value, or null
     * @param b another, or null
     * @return true when the same
     */
    static boolean same(JsonNode a, JsonNode b) {
        return covers(a, b) && covers(b, a);
    }

    private static boolean coversList(JsonNode desired, JsonNode actual) {
        boolean objects = true;
        for (JsonNode item : desired) {
            objects &= item.isObject();
        }
        if (!objects || desired.isEmpty()) {
            if (desired.size() != actual.size()) {
                return false;
            }
            for (int i = 0; i < desired.size(); i++) {
                if (!covers(desired.get(i), actual.get(i))) {
                    return false;
                }
            }
            return true;
        }
        Optional<Map<String, JsonNode>> actualByName = byName(actual);
        if (actualByName.isPresent() && byName(desired).isPresent()) {
            for (JsonNode item : desired) {
                if (!covers(item, actualByName.get().get(item.get("name").asString()))) {
                    return false;
                }
            }
            return true;
        }
        int next = 0;
        for (JsonNode item : desired) {
            while (next < actual.size() && !covers(item, actual.get(next))) {
                next++;
            }
            if (next == actual.size()) {
                return false;
            }
            next++;
        }
        return true;
    }

    /** The items by their {@code name}, when every item is an object with a distinct textual one. */
    private static Optional<Map<String, JsonNode>> byName(JsonNode list) {
        Map<String, JsonNode> named = new HashMap<>();
        for (JsonNode item : list) {
            JsonNode name = item.get("name");
            if (!item.isObject() || name == null || !name.isString() || named.put(name.asString(), item) != null) {
                return Optional.empty();
            }
        }
        return Optional.of(named);
    }

    /** Whether a desired value means the same as no value: what {@code omitempty} leaves out. */
    static boolean isEmpty(JsonNode value) {
        if (value == null || value.isNull() || value.isMissingNode()) {
            return true;
        }
        if (value.isString()) {
            return value.asString().isEmpty();
        }
        if (value.isBoolean()) {
            return !value.asBoolean();
        }
        if (value.isNumber()) {
            return value.decimalValue().signum() == 0;
        }
        if (value.isArray()) {
            return value.isEmpty();
        }
        if (value.isObject()) {
            for (JsonNode member : value.values()) {
                if (!isEmpty(member)) {
                    return false;
                }
            }
            return true;
        }
        return false;
    }

    private static boolean sameScalar(JsonNode desired, JsonNode actual) {
        if (desired.isString() && actual.isString()) {
            String d = desired.asString();
            String a = actual.asString();
            return d.equals(a) || Quantities.canonical(d).map(a::equals).orElse(false);
        }
        if (desired.isNumber() && actual.isNumber()) {
            return desired.decimalValue().compareTo(actual.decimalValue()) == 0;
        }
        if (desired.isNumber() && actual.isString()) {
            String a = actual.asString();
            BigDecimal d = desired.decimalValue();
            return sameNumber(d, a)
                    || Quantities.canonical(d.toPlainString()).map(a::equals).orElse(false);
        }
        if (desired.isString() && actual.isNumber()) {
            return sameNumber(actual.decimalValue(), desired.asString());
        }
        if (desired.isObject() || desired.isArray() || actual.isObject() || actual.isArray()) {
            return false;
        }
        return desired.equals(actual);
    }

    private static boolean sameNumber(BigDecimal number, String text) {
        try {
            return number.compareTo(new BigDecimal(text)) == 0;
        } catch (NumberFormatException notANumber) {
            return false;
        }
    }
}
