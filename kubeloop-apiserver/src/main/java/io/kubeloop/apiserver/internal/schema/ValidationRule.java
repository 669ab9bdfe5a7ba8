package io.kubeloop.apiserver.internal.schema;

import java.util.Objects;

/**
 * One entry of a schema node's {@code x-kubernetes-validations}: a CEL expression that must be true of
 * the node's value ({@code self}), and, when it reads {@code oldSelf}, of the change from the old value
 * (a transition rule). Read as written; the CEL layer compiles and checks it.
 *
 * @param rule the CEL expression; empty when the CRD left it out (reported when compiled)
 * @param message the fixed failure message; empty for the default {@code failed rule: <rule>}
 * @param messageExpression a CEL expression producing the failure message; empty when unset
 * @param reason {@code FieldValueInvalid} (the default, empty), {@code FieldValueForbidden},
 *     {@code FieldValueRequired} or {@code FieldValueDuplicate}: the cause reason of a failure
 * @param fieldPath a JSON path relative to the node ({@code .spec.replicas}, {@code ['a.b']},
 *     {@code .items[1]}) that a failure is reported at; empty for the node itself
 * @param optionalOldSelf a transition rule is also evaluated on create, with {@code oldSelf} an empty
 *     optional
 */
public record ValidationRule(
        String rule,
        String message,
        String messageExpression,
        String reason,
        String fieldPath,
        boolean optionalOldSelf) {

    public ValidationRule {
        Objects.requireNonNull(rule, "rule");
        Objects.requireNonNull(message, "message");
        Objects.requireNonNull(messageExpression, "messageExpression");
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(fieldPath, "fieldPath");
    }
}
