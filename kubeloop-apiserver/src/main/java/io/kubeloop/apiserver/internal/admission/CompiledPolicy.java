package io.kubeloop.apiserver.internal.admission;

import io.kubeloop.apiserver.internal.cel.Expression;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * A ValidatingAdmissionPolicy with its expressions compiled: match conditions, variables, validations
 * (with their messages and reasons). A policy with an expression that does not compile keeps the error
 * and fails every request it matches, as its {@code failurePolicy} says.
 *
 * <p>Immutable and thread-safe.
 */
final class CompiledPolicy {

    /** One validation: an expression that must be true. */
    record Validation(Expression expression, String message, Expression messageExpression, String reason) {}

    /** A named expression. */
    record Named(String name, Expression expression) {}

    private final String name;
    private final JsonNode spec;
    private final List<Named> matchConditions = new ArrayList<>();
    private final List<Named> variables = new ArrayList<>();
    private final List<Validation> validations = new ArrayList<>();
    private final List<String> errors = new ArrayList<>();

    CompiledPolicy(JsonNode policy) {
        this.name = policy.path("metadata").path("name").asString();
        this.spec = policy.path("spec").deepCopy();
        for (JsonNode c : spec.path("matchConditions")) {
            compile(c.path("expression").asString(""), Expression.Result.BOOL, "matchConditions")
                    .ifPresent(e -> matchConditions.add(new Named(c.path("name").asString(), e)));
        }
        for (JsonNode v : spec.path("variables")) {
            compile(v.path("expression").asString(""), Expression.Result.ANY, "variables")
                    .ifPresent(e -> variables.add(new Named(v.path("name").asString(), e)));
        }
        for (JsonNode v : spec.path("validations")) {
            var expression = compile(v.path("expression").asString(""), Expression.Result.BOOL, "validations");
            var message = v.path("messageExpression").asString("").isEmpty()
                    ? Optional.<Expression>empty()
                    : compile(v.path("messageExpression").asString(), Expression.Result.STRING, "messageExpression");
            expression.ifPresent(e -> validations.add(new Validation(
                    e,
                    v.path("message").asString(""),
                    message.orElse(null),
                    v.path("reason").asString(""))));
        }
    }

    private Optional<Expression> compile(String text, Expression.Result result, String what) {
        try {
            return Optional.of(Expression.compile(text, Expression.ADMISSION_VARIABLES, result));
        } catch (Expression.Failure e) {
            errors.add(what + " '" + text + "': " + e.getMessage());
            return Optional.empty();
        }
    }

    String name() {
        return name;
    }

    JsonNode spec() {
        return spec;
    }

    /** {@code Fail} (the default) or {@code Ignore}. */
    boolean failOpen() {
        return spec.path("failurePolicy").asString("Fail").equals("Ignore");
    }

    /** What kept expressions from compiling; empty when all did. */
    List<String> errors() {
        return List.copyOf(errors);
    }

    /** The outcome of evaluating the policy on one request with one param. */
    sealed interface Outcome {
        /** The match conditions excluded the request. */
        record NotApplicable() implements Outcome {}

        /** Every validation held. */
        record Allowed() implements Outcome {}

        /** Validations failed: one message and reason each. */
        record Violations(List<Violation> violations) implements Outcome {}

        /** An expression could not be evaluated. */
        record Error(String message) implements Outcome {}
    }

    /** A failed validation. */
    record Violation(String message, String reason) {}

    /**
     * Evaluates the match conditions, variables and validations.
     *
     * @param base {@code object}, {@code oldObject}, {@code request}, {@code params},
     *     {@code namespaceObject}
     */
    Outcome evaluate(Map<String, Object> base) {
        Map<String, Object> activation = new LinkedHashMap<>(base);
        Map<String, Object> values = new LinkedHashMap<>();
        activation.put("variables", values);
        try {
            for (Named c : matchConditions) {
                if (!Boolean.TRUE.equals(c.expression().evaluate(activation))) {
                    return new Outcome.NotApplicable();
                }
            }
            for (Named v : variables) {
                values.put(v.name(), v.expression().evaluate(activation));
            }
        } catch (Expression.Failure e) {
            return new Outcome.Error(e.getMessage());
        }
        List<Violation> out = new ArrayList<>();
        for (Validation v : validations) {
            Object result;
            try {
                result = v.expression().evaluate(activation);
            } catch (Expression.Failure e) {
                return new Outcome.Error(
                        "expression '" + v.expression().text() + "' resulted in error: " + e.getMessage());
            }
            if (!Boolean.TRUE.equals(result)) {
                out.add(new Violation(message(v, activation), v.reason().isEmpty() ? "Invalid" : v.reason()));
            }
        }
        return out.isEmpty() ? new Outcome.Allowed() : new Outcome.Violations(out);
    }

    private static String message(Validation v, Map<String, Object> activation) {
        if (v.messageExpression() != null) {
            try {
                if (v.messageExpression().evaluate(activation) instanceof String s
                        && !s.isBlank()
                        && !s.contains("\n")) {
                    return s.strip();
                }
            } catch (Expression.Failure e) {
                // the static message stands in, as kube-apiserver does
            }
        }
        return v.message().isBlank()
                ? "failed expression: " + v.expression().text().strip()
                : v.message().strip();
    }
}
