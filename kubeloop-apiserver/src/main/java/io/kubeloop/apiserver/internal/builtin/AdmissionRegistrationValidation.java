package io.kubeloop.apiserver.internal.builtin;

import io.kubeloop.apiserver.internal.cel.Expression;
import io.kubeloop.apiserver.internal.registry.ApiErrors;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * kube-apiserver's validation of ValidatingAdmissionPolicies and their bindings: a policy needs
 * {@code matchConstraints} with resource rules and at least one validation; every expression
 * (validations, their message expressions, match conditions, variables) must compile; reasons and the
 * failure policy must be known values. A binding needs a {@code policyName} and at least one
 * validation action among {@code Deny}, {@code Warn}, {@code Audit}, never both {@code Deny} and
 * {@code Warn}. A webhook configuration's webhooks need unique, fully qualified names, a
 * {@code clientConfig} with either an {@code https} URL or a Service, {@code sideEffects} of
 * {@code None} or {@code NoneOnDryRun}, {@code admissionReviewVersions} naming {@code v1} or
 * {@code v1beta1}, a timeout of 1 to 30 seconds, and known failure, match and reinvocation policies.
 * Stateless.
 */
final class AdmissionRegistrationValidation {

    private static final List<String> REASONS =
            List.of("Unauthorized", "Forbidden", "Invalid", "RequestEntityTooLarge");

    private AdmissionRegistrationValidation() {}

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

    static void webhooks(JsonNode object, boolean mutating, List<ApiErrors.FieldError> errors) {
        JsonNode hooks = object.path("webhooks");
        Set<String> names = new HashSet<>();
        for (int i = 0; i < hooks.size(); i++) {
            JsonNode h = hooks.get(i);
            String at = "webhooks[" + i + "]";
            String name = h.path("name").asString("");
            if (name.isEmpty()) {
                errors.add(ApiErrors.FieldError.required(at + ".name", ""));
            } else if (name.split("\\.", -1).length < 3) {
                errors.add(ApiErrors.FieldError.invalid(
                        at + ".name", name, "should be a domain with at least three segments separated by dots"));
            } else if (!names.add(name)) {
                errors.add(new ApiErrors.FieldError(
                        "FieldValueDuplicate", at + ".name", "Duplicate value: \"" + name + "\""));
            }
            JsonNode client = h.path("clientConfig");
            boolean url = client.path("url").isString();
            boolean service = client.path("service").isObject();
            if (url == service) {
                errors.add(ApiErrors.FieldError.required(
                        at + ".clientConfig", "exactly one of url or service is required"));
            } else if (url && !client.path("url").asString().startsWith("https://")) {
                errors.add(ApiErrors.FieldError.invalid(
                        at + ".clientConfig.url",
                        client.path("url").asString(),
                        "'https' is the only allowed URL scheme"));
            }
            String sideEffects = h.path("sideEffects").asString("");
            if (sideEffects.isEmpty()) {
                errors.add(
                        ApiErrors.FieldError.required(at + ".sideEffects", "must specify one of None, NoneOnDryRun"));
            } else if (!sideEffects.equals("None") && !sideEffects.equals("NoneOnDryRun")) {
                errors.add(ApiErrors.FieldError.notSupported(
                        at + ".sideEffects", sideEffects, List.of("None", "NoneOnDryRun")));
            }
            boolean reviewVersion = false;
            for (JsonNode v : h.path("admissionReviewVersions")) {
                reviewVersion |= v.asString().equals("v1") || v.asString().equals("v1beta1");
            }
            if (!reviewVersion) {
                errors.add(ApiErrors.FieldError.required(
                        at + ".admissionReviewVersions", "must specify one of v1, v1beta1"));
            }
            if (h.has("timeoutSeconds")) {
                int t = h.path("timeoutSeconds").asInt();
                if (t < 1 || t > 30) {
                    errors.add(ApiErrors.FieldError.invalid(
                            at + ".timeoutSeconds", t, "the timeout value must be between 1 and 30 seconds"));
                }
            }
            oneOf(h, "failurePolicy", List.of("Fail", "Ignore"), at, errors);
            oneOf(h, "matchPolicy", List.of("Equivalent", "Exact"), at, errors);
            if (mutating) {
                oneOf(h, "reinvocationPolicy", List.of("IfNeeded", "Never"), at, errors);
            }
        }
    }

    private static void oneOf(
            JsonNode h, String field, List<String> allowed, String at, List<ApiErrors.FieldError> errors) {
        if (h.has(field) && !allowed.contains(h.path(field).asString(""))) {
            errors.add(ApiErrors.FieldError.notSupported(
                    at + "." + field, h.path(field).asString(""), allowed));
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
