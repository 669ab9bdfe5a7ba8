package io.kubeloop.apiserver.internal.protobuf;

/**
 * Go's {@code time.Duration.String()} text of a nanosecond count ({@code 1h2m3.5s}, {@code 1.5ms},
 * {@code 0s}), the JSON form of {@code meta.v1.Duration}.
 *
 * <p>Stateless and thread-safe.
 */
final class GoDuration {

    private GoDuration() {}

    static String format(long nanos) {
        if (nanos == 0) {
            return "0s";
        }
        if (nanos == Long.MIN_VALUE) {
            return "-2562047h47m16.854775808s";
        }
        boolean negative = nanos < 0;
        long u = Math.abs(nanos);
        StringBuilder b = new StringBuilder();
        if (u < 1_000_000_000L) {
            int precision;
            String unit;
            if (u < 1_000L) {
                precision = 0;
                unit = "ns";
            } else if (u < 1_000_000L) {
                precision = 3;
                unit = "\u00b5s";
            } else {
                precision = 6;
                unit = "ms";
            }
            b.append(withFraction(u, precision)).append(unit);
        } else {
            long seconds = u / 1_000_000_000L;
            String frac = fraction(u % 1_000_000_000L, 9);
            long minutes = seconds / 60;
            long hours = minutes / 60;
            if (hours > 0) {
                b.append(hours).append('h');
            }
            if (minutes > 0) {
                b.append(minutes % 60).append('m');
            }
            b.append(seconds % 60).append(frac).append('s');
        }
        return negative ? "-" + b : b.toString();
    }

    private static String withFraction(long v, int precision) {
        long scale = 1;
        for (int i = 0; i < precision; i++) {
            scale *= 10;
        }
        return (v / scale) + fraction(v % scale, precision);
    }

    /** {@code .5} for 500000000 with precision 9; empty for zero. */
    private static String fraction(long rest, int precision) {
        if (rest == 0) {
            return "";
        }
        StringBuilder digits = new StringBuilder(Long.toString(rest));
        while (digits.length() < precision) {
            digits.insert(0, '0');
        }
        int end = digits.length();
        while (digits.charAt(end - 1) == '0') {
            end--;
        }
        return "." + digits.substring(0, end);
    }
}
