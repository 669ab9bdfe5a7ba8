package io.kubeloop.apiserver.registry;

/** The {@code fieldValidation} query parameter. Thread-safe (enum). */
public enum FieldValidation {
    /** Unknown or duplicate fields fail the request. */
    STRICT,
    /** Unknown fields are dropped with a {@code Warning: 299} header (the default). */
    WARN,
    /** Unknown fields are dropped silently. */
    IGNORE;

    /**
     * Parses the parameter (absent = WARN).
     *
     * @throws io.kubeloop.api.errors.BadRequestException for another value
     */
    public static FieldValidation parse(String v) {
        if (v == null || v.isEmpty()) {
            return WARN;
        }
        return switch (v) {
            case "Strict" -> STRICT;
            case "Warn" -> WARN;
            case "Ignore" -> IGNORE;
            default -> throw ApiErrors.badRequest("fieldValidation must be one of \"Ignore\", \"Warn\", or \"Strict\"; got \""
                    + v + "\"");
        };
    }
}
