package io.kubeloop.api.selector;

/**
 * The operator of a {@link LabelRequirement}, as apimachinery's {@code selection.Operator}.
 * {@link #EQUALS} and {@link #DOUBLE_EQUALS} match alike; both exist so that a parsed selector
 * prints back as it was written.
 */
public enum LabelOperator {
    /** {@code key=value}: the label is present and equal. */
    EQUALS("="),
    /** {@code key==value}: same as {@link #EQUALS}. */
    DOUBLE_EQUALS("=="),
    /** {@code key!=value}: the label is absent or different. */
    NOT_EQUALS("!="),
    /** {@code key in (a,b)}: the label is present and one of the values. */
    IN(" in "),
    /** {@code key notin (a,b)}: the label is absent or none of the values. */
    NOT_IN(" notin "),
    /** {@code key}: the label is present. */
    EXISTS(""),
    /** {@code !key}: the label is absent. */
    DOES_NOT_EXIST(""),
    /** {@code key>n}: the label is present, an integer, and greater than {@code n}. */
    GREATER_THAN(">"),
    /** {@code key<n}: the label is present, an integer, and less than {@code n}. */
    LESS_THAN("<");

    private final String symbol;

    LabelOperator(String symbol) {
        this.symbol = symbol;
    }

    /** The text between key and values in the canonical form, e.g. {@code " in "} or {@code "!="}. */
    String symbol() {
        return symbol;
    }
}
