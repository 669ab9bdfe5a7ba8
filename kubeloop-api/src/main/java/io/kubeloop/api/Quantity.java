package io.kubeloop.api;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A resource quantity, as Kubernetes' {@code resource.Quantity}: CPU ({@code "500m"}), memory
 * ({@code "1.5Gi"}), storage, counts. It reads every text {@code ParseQuantity} accepts — a decimal
 * number with a binary suffix ({@code Ki Mi Gi Ti Pi Ei}), a decimal suffix ({@code n u m k M G T P E})
 * or a decimal exponent ({@code e3}, {@code E-6}) — with the same value: more precise than nano, it is
 * rounded away from zero to the next nano ({@code "3.001n"} is 4n, as asking for some resource gives
 * some); binary-suffixed values beyond {@code 2^63 - 1} are capped there; a binary-suffixed value between
 * 0 and 1 counts as decimal.
 *
 * <p>It keeps the text it was read from: {@link #toString()} and JSON give it back unchanged, so an object
 * read and written again is the same (kube-apiserver stores the {@linkplain #canonical() canonical} form;
 * a manifest may not be in it). {@link #canonical()} is the form Kubernetes writes: an integer with the
 * largest suffix that loses nothing ({@code "1.5"} is {@code "1500m"}, {@code "1.5Gi"} is
 * {@code "1536Mi"}, {@code "1024Mi"} is {@code "1Gi"}).
 *
 * <p>Equality and order are by value, as apimachinery's {@code Cmp} and semantic equality:
 * {@code "1"}, {@code "1000m"} and {@code "1e0"} are equal; the format is how the value is written, not part
 * of it. Immutable and thread-safe.
 */
public final class Quantity implements Comparable<Quantity> {

    /** How a quantity is written: which suffixes its canonical form uses. */
    public enum Format {
        /** Powers of 1024: {@code Ki}, {@code Mi}, … {@code Ei}. */
        BINARY_SI,
        /** Powers of 1000: {@code n}, {@code u}, {@code m}, none, {@code k}, {@code M}, … {@code E}. */
        DECIMAL_SI,
        /** Powers of ten as an exponent: {@code e3}, {@code e-6}. */
        DECIMAL_EXPONENT
    }

    private static final Pattern SYNTAX = Pattern.compile("([+-]?)([0-9]*)(?:\\.([0-9]*))?(.*)");
    private static final Pattern EXPONENT = Pattern.compile("[eE]([+-]?[0-9]+)");
    private static final String[] BINARY = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
    private static final BigDecimal MAX_BINARY = BigDecimal.valueOf(Long.MAX_VALUE);
    private static final BigInteger KI = BigInteger.valueOf(1024);
    private static final int NANO = 9;

    private final BigDecimal value;
    private final Format format;
    private final String text;

    private Quantity(BigDecimal value, Format format, String text) {
        this.value = value;
        this.format = format;
        this.text = text;
    }

    /**
     * Reads {@code text} as {@code ParseQuantity} does.
     *
     * @throws IllegalArgumentException when it is not a quantity (empty, blanks, an unknown suffix), with
     *     apimachinery's message
     */
    public static Quantity parse(String text) {
        Objects.requireNonNull(text, "text");
        try {
            return read(text);
        } catch (ArithmeticException | NumberFormatException e) { // an exponent beyond any scale
            throw formatError(text);
        }
    }

    private static Quantity read(String text) {
        Matcher m = SYNTAX.matcher(text);
        if (text.isEmpty() || !m.matches() || m.group(2).isEmpty() && (m.group(3) == null)) {
            throw formatError(text);
        }
        String digits = m.group(2) + "." + (m.group(3) == null ? "" : m.group(3));
        String suffix = m.group(4);
        BigDecimal amount = new BigDecimal(digits.equals(".") ? "0" : digitsOf(digits));
        Format format;
        int binary = binaryIndex(suffix);
        if (binary >= 0) {
            format = Format.BINARY_SI;
            amount = new BigDecimal(amount.unscaledValue().multiply(KI.pow(binary)), amount.scale());
        } else {
            Integer decimal = decimalExponent(suffix);
            if (decimal != null) {
                format = Format.DECIMAL_SI;
            } else {
                Matcher e = EXPONENT.matcher(suffix);
                if (!e.matches()) {
                    throw formatError(text);
                }
                format = Format.DECIMAL_EXPONENT;
                decimal = Integer.parseInt(e.group(1));
            }
            amount = amount.scaleByPowerOfTen(decimal);
        }
        if (amount.signum() != 0 && amount.scale() > NANO) {
            amount = amount.setScale(NANO, RoundingMode.UP);
        }
        if (format == Format.BINARY_SI && amount.compareTo(MAX_BINARY) > 0) {
            amount = MAX_BINARY;
        }
        if (format == Format.BINARY_SI && amount.signum() > 0 && amount.compareTo(BigDecimal.ONE) < 0) {
            format = Format.DECIMAL_SI;
        }
        if (m.group(1).equals("-")) {
            amount = amount.negate();
        }
        return new Quantity(amount, format, text);
    }

    /** A quantity of {@code value}, written in its canonical form in {@code format}. */
    public static Quantity of(BigDecimal value, Format format) {
        Objects.requireNonNull(value, "value");
        Objects.requireNonNull(format, "format");
        return new Quantity(value, format, canonical(value, format));
    }

    /** A quantity of {@code value} units (bytes, cores, …), written in {@code format}. */
    public static Quantity of(long value, Format format) {
        return of(BigDecimal.valueOf(value), format);
    }

    /** A quantity of {@code millis} thousandths (millicores), decimal: {@code 500} is {@code "500m"}. */
    public static Quantity ofMillis(long millis) {
        return of(BigDecimal.valueOf(millis, 3), Format.DECIMAL_SI);
    }

    /**
     * Reads the JSON value: a string, or a number as Kubernetes also accepts (surrounding blanks of a
     * string are ignored, as apimachinery's JSON decoding ignores them).
     */
    @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
    public static Quantity fromJson(Object value) {
        if (value instanceof String s) {
            return parse(s.strip());
        }
        if (value instanceof Number n) {
            return parse(n instanceof BigDecimal d ? d.toPlainString() : n.toString());
        }
        throw new IllegalArgumentException("not a quantity: " + value);
    }

    /** The exact value (after the rounding to nano and the binary cap that reading applies). */
    public BigDecimal value() {
        return value;
    }

    /** How the quantity was written. */
    public Format format() {
        return format;
    }

    /**
     * The value in whole units, rounded away from zero, as apimachinery's {@code Value()}.
     *
     * @throws ArithmeticException when it does not fit a {@code long}
     */
    public long longValue() {
        return value.setScale(0, RoundingMode.UP).longValueExact();
    }

    /**
     * The value in thousandths, rounded away from zero, as apimachinery's {@code MilliValue()}.
     *
     * @throws ArithmeticException when it does not fit a {@code long}
     */
    public long milliValue() {
        return value.movePointRight(3).setScale(0, RoundingMode.UP).longValueExact();
    }

    /** True when the value is zero. */
    public boolean isZero() {
        return value.signum() == 0;
    }

    /** The canonical form, as Kubernetes writes this quantity (apimachinery's {@code String()}). */
    public String canonical() {
        return canonical(value, format);
    }

    /** The text this quantity was read from (the canonical form when it was made from a number). */
    @JsonValue
    @Override
    public String toString() {
        return text;
    }

    @Override
    public int compareTo(Quantity other) {
        return value.compareTo(other.value);
    }

    /** Equal when the values are: {@code "1"}, {@code "1000m"} and {@code "1e0"} are equal. */
    @Override
    public boolean equals(Object o) {
        return o instanceof Quantity q && value.compareTo(q.value) == 0;
    }

    @Override
    public int hashCode() {
        return value.signum() == 0 ? 0 : value.stripTrailingZeros().hashCode();
    }

    private static String canonical(BigDecimal value, Format format) {
        if (value.signum() == 0) {
            return "0";
        }
        String sign = value.signum() < 0 ? "-" : "";
        BigDecimal abs = value.abs();
        if (format == Format.BINARY_SI
                && abs.compareTo(BigDecimal.valueOf(1024)) >= 0
                && abs.stripTrailingZeros().scale() <= 0) {
            BigInteger n = abs.toBigIntegerExact();
            int power = 0;
            while (power < BINARY.length - 1 && n.mod(KI).signum() == 0) {
                n = n.divide(KI);
                power++;
            }
            return sign + n + BINARY[power];
        }
        // decimal: an integer mantissa with an exponent that is a multiple of 3, as large as possible
        BigDecimal stripped = abs.stripTrailingZeros();
        int exponent = -stripped.scale();
        int exponent3 = Math.floorDiv(exponent, 3) * 3;
        BigInteger mantissa = stripped.unscaledValue().multiply(BigInteger.TEN.pow(exponent - exponent3));
        String suffix;
        if (format == Format.DECIMAL_EXPONENT) {
            suffix = exponent3 == 0 ? "" : "e" + exponent3;
        } else {
            suffix = decimalSuffix(exponent3);
        }
        return sign + mantissa + suffix;
    }

    private static String decimalSuffix(int exponent) {
        return switch (exponent) {
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
            default -> "e" + exponent;
        };
    }

    /** The power of ten of a decimal suffix, or null when {@code suffix} is none. */
    private static Integer decimalExponent(String suffix) {
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

    /** The power of 1024 of a binary suffix ({@code Ki} is 1), or -1 when {@code suffix} is none. */
    private static int binaryIndex(String suffix) {
        for (int i = 1; i < BINARY.length; i++) {
            if (BINARY[i].equals(suffix)) {
                return i;
            }
        }
        return -1;
    }

    /** {@code "12."} as {@code "12"}, {@code ".5"} as {@code "0.5"}: what BigDecimal reads. */
    private static String digitsOf(String digits) {
        String d = digits.endsWith(".") ? digits.substring(0, digits.length() - 1) : digits;
        return d.startsWith(".") ? "0" + d : d;
    }

    private static IllegalArgumentException formatError(String text) {
        return new IllegalArgumentException("quantities must match the regular expression "
                + "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$' (got \"" + text + "\")");
    }
}
