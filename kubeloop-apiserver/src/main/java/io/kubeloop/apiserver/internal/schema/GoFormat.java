package io.kubeloop.apiserver.internal.schema;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * Renders values the way Go's {@code fmt} and {@code encoding/json} do, so messages match the real
 * server's byte for byte: {@code %q} for strings, {@code %v} for numbers and booleans,
 * {@code json.Marshal} (sorted keys, HTML-escaped) for anything else. Stateless.
 */
public final class GoFormat {

    private GoFormat() {}

    /** {@code strconv.Quote}. */
    public static String quote(String s) {
        StringBuilder b = new StringBuilder(s.length() + 2).append('"');
        s.codePoints().forEach(cp -> {
            switch (cp) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\t' -> b.append("\\t");
                case '\r' -> b.append("\\r");
                case 0x07 -> b.append("\\a");
                case '\b' -> b.append("\\b");
                case '\f' -> b.append("\\f");
                case 0x0b -> b.append("\\v");
                default -> {
                    if (cp < 0x20 || cp == 0x7f) {
                        b.append(String.format("\\x%02x", cp));
                    } else if (Character.isISOControl(cp) || !Character.isDefined(cp)) {
                        b.append(cp > 0xffff ? String.format("\\U%08x", cp) : String.format("\\u%04x", cp));
                    } else {
                        b.appendCodePoint(cp);
                    }
                }
            }
        });
        return b.append('"').toString();
    }

    /** A float64 printed with {@code %v} (shortest {@code %g}, exponent from 1e+06 and below 1e-04). */
    static String floatV(double d) {
        if (Double.isNaN(d)) {
            return "NaN";
        }
        if (Double.isInfinite(d)) {
            return d > 0 ? "+Inf" : "-Inf";
        }
        if (d == 0) {
            return (1 / d < 0) ? "-0" : "0";
        }
        BigDecimal v = new BigDecimal(Double.toString(d)).stripTrailingZeros();
        int exp = v.precision() - v.scale() - 1;
        if (exp < -4 || exp >= 6) {
            String digits = v.unscaledValue().abs().toString();
            StringBuilder b = new StringBuilder();
            if (v.signum() < 0) {
                b.append('-');
            }
            b.append(digits.charAt(0));
            if (digits.length() > 1) {
                b.append('.').append(digits, 1, digits.length());
            }
            b.append('e').append(exp < 0 ? '-' : '+');
            int abs = Math.abs(exp);
            b.append(abs < 10 ? "0" + abs : Integer.toString(abs));
            return b.toString();
        }
        return v.toPlainString();
    }

    /** A number node printed with {@code %v}: integers in decimal, floats as {@link #floatV}. */
    static String number(JsonNode n) {
        if (n.isIntegralNumber()) {
            return n.bigIntegerValue().toString();
        }
        return floatV(n.doubleValue());
    }

    /**
     * A bad value as {@code field.Error.ErrorBody} prints it: strings quoted, numbers and booleans
     * plain, null as {@code "null"}, objects and arrays as JSON.
     */
    static String badValue(JsonNode v) {
        if (v == null || v.isNull() || v.isMissingNode()) {
            return quote("null");
        }
        if (v.isString()) {
            return quote(v.stringValue());
        }
        if (v.isNumber()) {
            return number(v);
        }
        if (v.isBoolean()) {
            return Boolean.toString(v.booleanValue());
        }
        return json(v);
    }

    /** {@code json.Marshal}: compact, object keys sorted, {@code <>&} escaped, floats in ES6 style. */
    static String json(JsonNode v) {
        StringBuilder b = new StringBuilder();
        writeJson(v, b);
        return b.toString();
    }

    private static void writeJson(JsonNode v, StringBuilder b) {
        if (v == null || v.isNull() || v.isMissingNode()) {
            b.append("null");
        } else if (v.isObject()) {
            List<Map.Entry<String, JsonNode>> entries = new ArrayList<>(v.properties());
            entries.sort(Map.Entry.comparingByKey());
            b.append('{');
            for (int i = 0; i < entries.size(); i++) {
                if (i > 0) {
                    b.append(',');
                }
                jsonString(entries.get(i).getKey(), b);
                b.append(':');
                writeJson(entries.get(i).getValue(), b);
            }
            b.append('}');
        } else if (v.isArray()) {
            b.append('[');
            for (int i = 0; i < v.size(); i++) {
                if (i > 0) {
                    b.append(',');
                }
                writeJson(v.get(i), b);
            }
            b.append(']');
        } else if (v.isString()) {
            jsonString(v.stringValue(), b);
        } else if (v.isIntegralNumber()) {
            b.append(v.bigIntegerValue());
        } else if (v.isNumber()) {
            b.append(jsonFloat(v.doubleValue()));
        } else {
            b.append(v.asString());
        }
    }

    private static String jsonFloat(double d) {
        if (d == 0) {
            return "0";
        }
        double abs = Math.abs(d);
        BigDecimal v = new BigDecimal(Double.toString(d)).stripTrailingZeros();
        if (abs < 1e-6 || abs >= 1e21) {
            String s = floatV(d);
            // Go's encoding/json writes e-07 as e-7
            return s.replaceFirst("e([+-])0(\\d)$", "e$1$2");
        }
        return v.toPlainString();
    }

    private static void jsonString(String s, StringBuilder b) {
        b.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                case '<', '>', '&', '\u2028', '\u2029' -> b.append(String.format("\\u%04x", (int) c));
                default -> {
                    if (c < 0x20) {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        b.append('"');
    }
}
