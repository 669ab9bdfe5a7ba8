package io.kubeloop.apiserver.internal.registry;

import io.kubeloop.apiserver.internal.cel.Expression;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;

/**
 * kube-apiserver's validation of ValidatingAdmissionPolicies and their bindings: a policy needs
 * {@code matchConstraints} with resource rules and at least one validation; every expression
 * (validations, their message expressions, match conditions, variables) must compile; reasons and the
 * failure policy must be known values. A binding needs a {@code policyName} and at least one
 * validation action among {@code Deny}, {@code Warn}, {@code Audit}, never both {@code Deny} and
 * {@code Warn}. Stateless.
 */
final class AdmissionPolicyValidation {

    private static final List<String> REASONS =
            List.of("Unauthorized", "Forbidden", "Invalid", "RequestEntityTooLarge");

    private AdmissionPolicyValidation() {}

    static void policy(JsonNode spec, List<ApiErrors.FieldError> errors) {
        if (!spec.path("matchConstraints").path("resourceRules").isArray()
                || spec.path("matchConstraints").path("resourceRules").isEmpty()) {
            errors.add(ApiErrors.FieldError.required("spec.matchConstraints.resourceRules", ""));
        }
        if (spec.path("validations").isEmpty() && spec.path("auditAnnotations").isEmpty()) {
            errors.add(ApiErrors.FieldError.required(
                    "spec.validations", "validations or auditAnnotations must contain at least one item"));
        }
        String failure = spec.path("failurePolicy").asString("Fail");
        if (!failure.equals("Fail") && !failure.equals("Ignore")) {
            errors.add(ApiErrors.FieldError.notSupported("spec.failurePolicy", failure, List.of("Fail", "Ignore")));
        }
        expressions(spec.path("matchConditions"), "spec.matchConditions", "expression", Expression.Result.BOOL, errors);
        expressions(spec.path("variables"), "spec.variables", "expression", Expression.Result.ANY, errors);
        expressions(spec.path("validations"), "spec.validations", "expression", Expression.Result.BOOL, errors);
        expressions(
                spec.path("validations"), "spec.validations", "messageExpression", Expression.Result.STRING, errors);
        JsonNode validations = spec.path("validations");
        for (int i = 0; i < validations.size(); i++) {
            String reason = validations.get(i).path("reason").asString("");
            if (!reason.isEmpty() && !REASONS.contains(reason)) {
                errors.add(ApiErrors.FieldError.notSupported("spec.validations[" + i + "].reason", reason, REASONS));
            }
        }
    }

    static void binding(JsonNode spec, List<ApiErrors.FieldError> errors) {
        if (spec.path("policyName").asString("").isEmpty()) {
            errors.add(ApiErrors.FieldError.required("spec.policyName", ""));
        }
        List<String> actions = new ArrayList<>();
        spec.path("validationActions").forEach(a -> actions.add(a.asString()));
        if (actions.isEmpty()) {
            errors.add(ApiErrors.FieldError.required(
                    "spec.validationActions", "at least one validation action is required"));
        }
        for (int i = 0; i < actions.size(); i++) {
            if (!List.of("Deny", "Warn", "Audit").contains(actions.get(i))) {
                errors.add(ApiErrors.FieldError.notSupported(
                        "spec.validationActions[" + i + "]", actions.get(i), List.of("Audit", "Deny", "Warn")));
            }
        }
        if (actions.contains("Deny") && actions.contains("Warn")) {
            errors.add(new ApiErrors.FieldError(
                    "FieldValueInvalid",
                    "spec.validationActions",
                    "Invalid value: " + actions + ": must not contain both Deny and Warn (repeating the same "
                            + "validation failure information in the API response and headers serves no purpose)"));
        }
    }

    private static void expressions(
            JsonNode list, String path, String field, Expression.Result result, List<ApiErrors.FieldError> errors) {
        for (int i = 0; i < list.size(); i++) {
            JsonNode text = list.get(i).get(field);
            if (text == null || !text.isString()) {
                if (field.equals("expression")) {
                    errors.add(ApiErrors.FieldError.required(path + "[" + i + "]." + field, ""));
                }
                continue;
            }
            try {
                Expression.compile(text.asString(), Expression.ADMISSION_VARIABLES, result);
            } catch (Expression.Failure e) {
                errors.add(
                        ApiErrors.FieldError.invalid(path + "[" + i + "]." + field, text.asString(), e.getMessage()));
            }
        }
    }
}
