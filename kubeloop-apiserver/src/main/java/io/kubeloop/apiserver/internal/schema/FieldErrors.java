package io.kubeloop.apiserver.internal.schema;

import io.kubeloop.api.errors.Status;
import java.util.List;
import java.util.stream.Collectors;
import tools.jackson.databind.JsonNode;

/**
 * Builds {@link Status.Cause}s the way apimachinery's {@code field.Error} does: the reason is the
 * error type ({@code FieldValueInvalid}...), the message is {@code ErrorBody()} (e.g.
 * {@code Invalid value: 5: must be less than 3}), the field is the path. Wording as of Kubernetes
 * 1.32. Stateless.
 */
final class FieldErrors {

    static final String REQUIRED = "FieldValueRequired";
    static final String INVALID = "FieldValueInvalid";
    static final String TYPE_INVALID = "FieldValueTypeInvalid";
    static final String NOT_SUPPORTED = "FieldValueNotSupported";
    static final String FORBIDDEN = "FieldValueForbidden";
    static final String TOO_LONG = "FieldValueTooLong";
    static final String TOO_MANY = "FieldValueTooMany";
    static final String DUPLICATE = "FieldValueDuplicate";

    private FieldErrors() {}

    static Status.Cause required(String field, String detail) {
        return new Status.Cause(REQUIRED, withDetail("Required value", detail), field);
    }

    static Status.Cause forbidden(String field, String detail) {
        return new Status.Cause(FORBIDDEN, withDetail("Forbidden", detail), field);
    }

    /** {@code field.Invalid} with a value already rendered as Go would ({@link GoFormat#badValue}). */
    static Status.Cause invalidRendered(String field, String renderedValue, String detail) {
        return new Status.Cause(INVALID, withDetail("Invalid value: " + renderedValue, detail), field);
    }

    static Status.Cause invalid(String field, JsonNode value, String detail) {
        return invalidRendered(field, GoFormat.badValue(value), detail);
    }

    static Status.Cause invalid(String field, String value, String detail) {
        return invalidRendered(field, GoFormat.quote(value), detail);
    }

    static Status.Cause typeInvalid(String field, String value, String detail) {
        return new Status.Cause(TYPE_INVALID, withDetail("Invalid value: " + GoFormat.quote(value), detail), field);
    }

    static Status.Cause notSupported(String field, String renderedValue, List<String> supported) {
        String detail = supported.isEmpty()
                ? ""
                : "supported values: " + supported.stream().map(GoFormat::quote).collect(Collectors.joining(", "));
        return new Status.Cause(NOT_SUPPORTED, withDetail("Unsupported value: " + renderedValue, detail), field);
    }

    static Status.Cause duplicate(String field, String renderedValue) {
        return new Status.Cause(DUPLICATE, "Duplicate value: " + renderedValue, field);
    }

    static Status.Cause tooLong(String field, long max) {
        String detail = max >= 0 ? "may not be more than " + max + " bytes" : "value is too long";
        return new Status.Cause(TOO_LONG, withDetail("Too long", detail), field);
    }

    static Status.Cause tooMany(String field, long actual, long max) {
        String detail = max >= 0 ? "must have at most " + max + " items" : "has too many items";
        String body = actual >= 0 ? "Too many: " + actual : "Too many";
        return new Status.Cause(TOO_MANY, withDetail(body, detail), field);
    }

    /** {@code field: message}, as {@code field.Error.Error()} prints it. */
    static String render(Status.Cause c) {
        return c.field() + ": " + c.message();
    }

    private static String withDetail(String body, String detail) {
        return detail == null || detail.isEmpty() ? body : body + ": " + detail;
    }
}
