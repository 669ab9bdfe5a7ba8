package io.kubeloop.api.selector;

import java.util.Comparator;
import java.util.Objects;

/**
 * One term of a {@link FieldSelector}: {@code field=value} or {@code field!=value}.
 *
 * <p>A field name is non-empty and contains none of {@code = ! , \} (so every requirement prints
 * back unambiguously); values are free text. Immutable and thread-safe.
 *
 * @param field the field path, e.g. {@code metadata.name} or {@code status.phase}
 * @param operator equal or not equal
 * @param value the value, possibly empty
 */
public record FieldRequirement(String field, Operator operator, String value) {

    /** Field selector operators. {@code ==} parses as {@link #EQUALS}, as in apimachinery. */
    public enum Operator {
        /** {@code field=value}. */
        EQUALS,
        /** {@code field!=value}; true when the field is absent (reads as empty) and value is not empty. */
        NOT_EQUALS
    }

    static final Comparator<FieldRequirement> ORDER = Comparator.comparing(FieldRequirement::field)
            .thenComparing(FieldRequirement::operator)
            .thenComparing(FieldRequirement::value);

    public FieldRequirement {
        Objects.requireNonNull(field, "field");
        Objects.requireNonNull(operator, "operator");
        Objects.requireNonNull(value, "value");
        String problem = checkField(field);
        if (problem != null) {
            throw new IllegalArgumentException(problem);
        }
    }

    /** {@code field=value}. */
    public static FieldRequirement equal(String field, String value) {
        return new FieldRequirement(field, Operator.EQUALS, value);
    }

    /** {@code field!=value}. */
    public static FieldRequirement notEqual(String field, String value) {
        return new FieldRequirement(field, Operator.NOT_EQUALS, value);
    }

    /** True when {@code actual} (the field's value, {@code ""} when absent) satisfies this term. */
    public boolean matches(String actual) {
        String a = actual == null ? "" : actual;
        return switch (operator) {
            case EQUALS -> a.equals(value);
            case NOT_EQUALS -> !a.equals(value);
        };
    }

    /** {@code field=value} or {@code field!=value}, the value escaped ({@code \\ \, \=}). */
    public String format() {
        return field + (operator == Operator.EQUALS ? "=" : "!=") + escape(value);
    }

    @Override
    public String toString() {
        return format();
    }

    static String checkField(String field) {
        if (field.isEmpty()) {
            return "field name must not be empty";
        }
        for (int i = 0; i < field.length(); i++) {
            char c = field.charAt(i);
            if (c == '=' || c == '!' || c == ',' || c == '\\') {
                return "invalid field name \"" + field + "\": must not contain '" + c + "'";
            }
        }
        return null;
    }

    /** apimachinery's {@code fields.EscapeValue}. */
    static String escape(String v) {
        if (v.indexOf('\\') < 0 && v.indexOf(',') < 0 && v.indexOf('=') < 0) {
            return v;
        }
        StringBuilder sb = new StringBuilder(v.length() + 4);
        for (int i = 0; i < v.length(); i++) {
            char c = v.charAt(i);
            if (c == '\\' || c == ',' || c == '=') {
                sb.append('\\');
            }
            sb.append(c);
        }
        return sb.toString();
    }
}
