package io.kubeloop.client;

/** The {@code fieldValidation} query parameter: what the server does with unknown or duplicate fields. */
public enum FieldValidation {
    /** Reject the request. */
    STRICT("Strict"),
    /** Accept and answer with a {@code Warning} header (the server default). */
    WARN("Warn"),
    /** Drop the fields silently. */
    IGNORE("Ignore");

    private final String value;

    FieldValidation(String value) {
        this.value = value;
    }

    /** The parameter value, e.g. {@code Strict}. */
    public String value() {
        return value;
    }
}
