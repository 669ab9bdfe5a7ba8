package io.kubeloop.api;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Objects;

/**
 * A value that is an integer or a string, as Kubernetes' {@code intstr.IntOrString} (a port
 * number or name, a replica count or a percentage like {@code "25%"}). In JSON it is the bare
 * number or string; in a CRD schema it is {@code x-kubernetes-int-or-string: true}.
 *
 * <p>Exactly one of {@link #intValue()} and {@link #stringValue()} is non-null. Immutable.
 *
 * @param intValue the integer, or null when this is a string
 * @param stringValue the string, or null when this is an integer
 */
public record IntOrString(Integer intValue, String stringValue) {

    /**
     * @throws IllegalArgumentException unless exactly one of the two is non-null
     */
    public IntOrString {
        if ((intValue == null) == (stringValue == null)) {
            throw new IllegalArgumentException("IntOrString holds exactly one of an integer and a string");
        }
    }

    /** The integer {@code value}. */
    public static IntOrString of(int value) {
        return new IntOrString(value, null);
    }

    /** The string {@code value}, e.g. {@code "http"} or {@code "25%"}. */
    public static IntOrString of(String value) {
        return new IntOrString(null, Objects.requireNonNull(value, "value"));
    }

    /**
     * Reads the JSON value: a whole number that fits an {@code int}, or a string.
     *
     * @param value what Jackson read
     * @return the value
     * @throws IllegalArgumentException for anything else (a fraction, a boolean, an object)
     */
    @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
    public static IntOrString fromJson(Object value) {
        if (value instanceof String s) {
            return of(s);
        }
        if (value instanceof Integer i) {
            return of(i);
        }
        if (value instanceof Number n && n.longValue() == n.doubleValue() && n.longValue() == n.intValue()) {
            return of(n.intValue());
        }
        throw new IllegalArgumentException("not an integer or a string: " + value);
    }

    /** True when this holds an integer. */
    public boolean isInt() {
        return intValue != null;
    }

    /** The JSON value: an {@link Integer} or a {@link String}. */
    @JsonValue
    public Object value() {
        return intValue != null ? intValue : stringValue;
    }

    /** The value as Kubernetes prints it: the number or the string. */
    @Override
    public String toString() {
        return String.valueOf(value());
    }
}
