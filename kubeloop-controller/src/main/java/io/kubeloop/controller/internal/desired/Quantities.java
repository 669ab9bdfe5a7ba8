package io.kubeloop.controller.internal.desired;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.Optional;

/**
 * The canonical text of a Kubernetes quantity ({@code resource.Quantity}), as kube-apiserver writes
 * back what it was sent: {@code 1000m} becomes {@code 1}, {@code 1.5} {@code 1500m},
 * {@code 1.5Gi} {@code 1536Mi}, {@code 0.1m} {@code 1m} (values are rounded up to nano units).
 *
 * <p>Rules (apimachinery's): the suffix kind is kept — binary ({@code Ki}…{@code Ei}), decimal SI
 * ({@code n}, {@code u}, {@code m}, none, {@code k}…{@code E}) or a decimal exponent
 * ({@code e3}) — and the number is written without fractional digits with the largest suffix that
 * loses nothing: a multiple of three for decimal forms, a power of 1024 for binary ones. A binary
 * quantity below 1024 in magnitude, or not whole, is written in decimal SI.
 *
 * <p>Stateless; thread-safe.
 */
final class Quantities {

    private static final String[] BINARY = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
    private static final BigInteger THOUSAND = BigInteger.valueOf(1000);
    private static final BigInteger KIBI = BigInteger.valueOf(1024);

    private enum Form {
        BINARY_SI,
        DECIMAL_SI,
        DECIMAL_EXPONENT
    }

    private Quantities() {}

    /**
     * The canonical text of {@code text}, or empty when it is no quantity.
     *
     * @param text e.g. {@code 1000m}
     * @return e.g. {@code 1}
     */
    static Optional<String> canonical(String text) {
        if (text == null || text.isEmpty()) {
            return Optional.empty();
        }
        int end = 0;
        int n = text.length();
        if (text.charAt(0) == '+' || text.charAt(0) == '-') {
            end++;
        }
        int digits = 0;
        boolean dot = false;
        while (end < n) {
            char c = text.charAt(end);
            if (c >= '0' && c <= '9') {
                digits++;
            } else if (c == '.' && !dot) {
                dot = true;
            } else {
                break;
            }
            end++;
        }
        if (digits == 0) {
            return Optional.empty();
        }
        BigDecimal number;
        try {
            String numeric = text.substring(0, end);
            number = new BigDecimal(numeric.endsWith(".") ? numeric + "0" : numeric);
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
        String suffix = text.substring(end);
        Form form;
        BigDecimal value;
        int binary = binaryPower(suffix);
        if (binary >= 0) {
            form = Form.BINARY_SI;
            value = number.multiply(new BigDecimal(KIBI.pow(binary)));
        } else {
            Integer decimal = decimalPower(suffix);
            Integer exponent = decimal == null ? exponent(suffix) : null;
            if (decimal == null && exponent == null) {
                return Optional.empty();
            }
            form = decimal != null ? Form.DECIMAL_SI : Form.DECIMAL_EXPONENT;
            value = number.scaleByPowerOfTen(decimal != null ? decimal : exponent);
        }
        if (value.signum() == 0) {
            return Optional.of("0");
        }
        value = value.setScale(9, RoundingMode.UP); // nonzero values round up, away from zero, to nano units
        if (form == Form.BINARY_SI
                && (value.abs().compareTo(new BigDecimal(KIBI)) < 0
                        || value.stripTrailingZeros().scale() > 0)) {
            form = Form.DECIMAL_SI;
        }
        return Optional.of(
                switch (form) {
                    case BINARY_SI -> binaryText(value.toBigIntegerExact());
                    case DECIMAL_SI, DECIMAL_EXPONENT -> decimalText(value, form);
                });
    }

    private static String binaryText(BigInteger value) {
        int power = 0;
        while (power < BINARY.length - 1 && value.mod(KIBI).signum() == 0) {
            value = value.divide(KIBI);
            power++;
        }
        return value + BINARY[power];
    }

    private static String decimalText(BigDecimal value, Form form) {
        BigInteger mantissa = value.movePointRight(9).toBigIntegerExact();
        int exponent = -9;
        while (mantissa.mod(THOUSAND).signum() == 0) {
            mantissa = mantissa.divide(THOUSAND);
            exponent += 3;
        }
        if (form == Form.DECIMAL_EXPONENT) {
            return exponent == 0 ? mantissa.toString() : mantissa + "e" + exponent;
        }
        String suffix = switch (exponent) {
            case -9 -> "n";
            case -6 -> "u";
            case -3 -> "m";
            case 0 -> "";
            case 3 -> "k";
            case 6 -> "M";
            case 9 -> "G";
            case 12 -> "T";
            case 15 -> "P";
            case 18 -> "E";
            default -> null;
        };
        if (suffix == null) { // beyond exa: kube-apiserver has no suffix either; write the exponent out
            return mantissa + "e" + exponent;
        }
        return mantissa + suffix;
    }

    /** The power of 1024 of a binary suffix, or -1. */
    private static int binaryPower(String suffix) {
        for (int i = 1; i < BINARY.length; i++) {
            if (BINARY[i].equals(suffix)) {
                return i;
            }
        }
        return -1;
    }

    /** The power of ten of a decimal SI suffix ({@code ""} is 0), or null. */
    private static Integer decimalPower(String suffix) {
        return switch (suffix) {
            case "n" -> -9;
            case "u" -> -6;
            case "m" -> -3;
            case "" -> 0;
            case "k" -> 3;
            case "M" -> 6;
            case "G" -> 9;
            case "T" -> 12;
            case "P" -> 15;
            case "E" -> 18;
            default -> null;
        };
    }

    /** The exponent of an {@code e<int>} / {@code E<int>} suffix, or null. */
    private static Integer exponent(String suffix) {
        if (suffix.length() < 2 || (suffix.charAt(0) != 'e' && suffix.charAt(0) != 'E')) {
            return null;
        }
        String digits = suffix.substring(1);
        int start = digits.charAt(0) == '+' || digits.charAt(0) == '-' ? 1 : 0;
        if (start == digits.length()) {
            return null;
        }
        for (int i = start; i < digits.length(); i++) {
            if (digits.charAt(i) < '0' || digits.charAt(i) > '9') {
                return null;
            }
        }
        try {
            int e = Integer.parseInt(digits);
            return Math.abs(e) > 1000 ? null : e;
        } catch (NumberFormatException tooLong) {
            return null;
        }
    }
}
