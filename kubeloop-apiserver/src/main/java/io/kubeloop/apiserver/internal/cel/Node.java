package io.kubeloop.apiserver.internal.cel;

import dev.cel.runtime.CelEvaluationException;
import io.kubeloop.apiserver.internal.schema.GoFormat;
import io.kubeloop.apiserver.internal.schema.StructuralSchema;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;

/**
 * A schema node with the compiled rules at it and the nodes below it that hold rules (children without
 * rules anywhere below are left out). Immutable.
 *
 * @param schema the schema node
 * @param rules the node's own rules, in schema order
 * @param properties the object fields with rules below them
 * @param items the array items' node, or null
 * @param values the map values' node ({@code additionalProperties}), or null
 */
record Node(StructuralSchema schema, List<CelRules.Rule> rules, Map<String, Node> properties, Node items, Node values) {

    private static final Pattern LOCATION = Pattern.compile("^evaluation error at <input>:\\d+: ");
    private static final Pattern MISSING_KEY = Pattern.compile("key '(.*)' is not present in map\\.?");

    /**
     * Evaluates the rules at and below this node.
     *
     * @param value the node's value; nothing is evaluated when it is absent or null
     * @param old the correlated old value, or null (create, or nothing to correlate with)
     * @param path the node's field path ({@code ""} at the root)
     */
    void validate(RuleEvaluation evaluation, JsonNode value, JsonNode oldValue, String path, boolean root) {
        if (value == null || value.isNull() || value.isMissingNode() || evaluation.exhausted()) {
            return;
        }
        JsonNode old = oldValue == null || oldValue.isNull() || oldValue.isMissingNode() ? null : oldValue;
        boolean unchanged = old != null && value.equals(old);
        Object self = null;
        Object oldSelf = null;
        for (CelRules.Rule r : rules) {
            if (evaluation.exhausted()) {
                return;
            }
            if (r.transition() ? old == null && !r.source().optionalOldSelf() : unchanged) {
                continue;
            }
            if (self == null) {
                self = CelValues.of(value, schema, root);
                oldSelf = old == null ? null : CelValues.of(old, schema, root);
            }
            Map<String, Object> activation = new HashMap<>();
            activation.put("self", self);
            if (r.transition()) {
                activation.put("oldSelf", r.source().optionalOldSelf() ? Optional.ofNullable(oldSelf) : oldSelf);
            }
            evaluate(evaluation, r, activation, path);
        }
        if (value.isObject()) {
            properties.forEach((name, child) -> child.validate(
                    evaluation, value.get(name), old == null ? null : old.get(name), child(path, name), false));
            if (values != null) {
                for (Map.Entry<String, JsonNode> e : value.properties()) {
                    values.validate(
                            evaluation,
                            e.getValue(),
                            old == null ? null : old.get(e.getKey()),
                            path + "[" + e.getKey() + "]",
                            false);
                }
            }
        } else if (value.isArray() && items != null) {
            for (int i = 0; i < value.size(); i++) {
                JsonNode item = value.get(i);
                items.validate(evaluation, item, correlate(item, old), path + "[" + i + "]", false);
            }
        }
    }

    private void evaluate(RuleEvaluation evaluation, CelRules.Rule r, Map<String, Object> activation, String path) {
        String type = schema.type();
        Object result;
        try {
            result = evaluation.run(r.program().get(), activation);
        } catch (RuleEvaluation.CostLimitExceeded e) {
            String detail = evaluation.perCallBound()
                    ? "no further validation rules will be run due to call cost exceeds limit for rule: "
                            + ruleErrorString(r)
                    : "validation failed due to running out of cost budget, no further validation rules will be run";
            evaluation.add(CelRules.invalid(path, GoFormat.quote(type), detail));
            evaluation.exhaust();
            return;
        } catch (CelEvaluationException e) {
            evaluation.add(CelRules.invalid(
                    path, GoFormat.quote(type), errorText(e) + " evaluating rule: " + ruleErrorString(r)));
            return;
        }
        if (Boolean.TRUE.equals(result)) {
            return;
        }
        if (!(result instanceof Boolean)) {
            evaluation.add(CelRules.invalid(
                    path,
                    GoFormat.quote(type),
                    "rule did not evaluate to a bool evaluating rule: " + ruleErrorString(r)));
            return;
        }
        String message = message(evaluation, r, activation);
        String field = path;
        if (r.fieldPath() != null) {
            String suffix = r.fieldPath().suffix();
            field = path.isEmpty() && suffix.startsWith(".") ? suffix.substring(1) : path + suffix;
            type = r.fieldPath().type();
        }
        String reason =
                r.source().reason().isEmpty() ? "FieldValueInvalid" : r.source().reason();
        evaluation.add(
                switch (reason) {
                    case "FieldValueRequired" -> CelRules.cause(reason, field, "Required value: " + message);
                    case "FieldValueForbidden" -> CelRules.cause(reason, field, "Forbidden: " + message);
                    case "FieldValueDuplicate" ->
                        CelRules.cause(reason, field, "Duplicate value: " + GoFormat.quote(type) + ": " + message);
                    default -> CelRules.invalid(field, GoFormat.quote(type), message);
                });
    }

    /** The failure message: messageExpression's result when it gives one line of text, else the default. */
    private static String message(RuleEvaluation evaluation, CelRules.Rule r, Map<String, Object> activation) {
        if (r.message() != null && !evaluation.exhausted()) {
            try {
                Object m = evaluation.run(r.message().get(), activation);
                if (m instanceof String s && !s.isBlank() && !s.contains("\n")) {
                    return s.strip();
                }
            } catch (RuleEvaluation.CostLimitExceeded | CelEvaluationException e) {
                // falls back to the static message, as kube-apiserver does
            }
        }
        String fixed = r.source().message().strip();
        return fixed.isEmpty() ? "failed rule: " + r.source().rule().strip() : fixed;
    }

    private static String ruleErrorString(CelRules.Rule r) {
        String fixed = r.source().message().strip();
        return fixed.isEmpty() ? r.source().rule().strip() : fixed;
    }

    /** The old item with the same list-map keys, for {@code x-kubernetes-list-type: map}; else null. */
    private JsonNode correlate(JsonNode item, JsonNode oldList) {
        if (oldList == null || !oldList.isArray() || !schema.listType().equals("map") || !item.isObject()) {
            return null;
        }
        for (JsonNode candidate : oldList) {
            boolean same = candidate.isObject();
            for (String key : schema.listMapKeys()) {
                same = same && Objects.equals(item.get(key), candidate.get(key));
            }
            if (same) {
                return candidate;
            }
        }
        return null;
    }

    private static String child(String path, String name) {
        return path.isEmpty() ? name : path + "." + name;
    }

    /** The error as cel-go words the common ones: {@code division by zero}, {@code no such key: k}. */
    static String errorText(CelEvaluationException e) {
        String s = e.getMessage() == null ? "evaluation error" : e.getMessage();
        int nl = s.indexOf('\n');
        s = nl < 0 ? s : s.substring(0, nl);
        s = LOCATION.matcher(s).replaceFirst("");
        Matcher key = MISSING_KEY.matcher(s);
        if (key.matches()) {
            return "no such key: " + key.group(1);
        }
        return s.equals("/ by zero") ? "division by zero" : s;
    }
}
