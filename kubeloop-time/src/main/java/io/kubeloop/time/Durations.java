package io.kubeloop.time;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Objects;

/**
 * Durations written for people, the way Go's {@code time.Duration} prints them but without the zero
 * units at the end: {@code 2m} (not {@code PT2M} or {@code 2m0s}), {@code 1m30s}, {@code 1h0m5s},
 * {@code 1.5s}, {@code 200ms}, {@code 10µs}, {@code 0s}. Every message and log line of kubeloop that
 * shows a {@link Duration} goes through {@link #format}.
 *
 * <p>Stateless and thread-safe.
 */
public final class Durations {

    private static final long NANOS_PER_MICRO = 1_000L;
    private static final long NANOS_PER_MILLI = 1_000_000L;
    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    private Durations() {}

    /**
     * {@code d} for people: below a second in the largest of {@code ns}, {@code µs} and {@code ms} that
     * keeps it at least 1; from a second on as hours, minutes and seconds, leaving out the zero units at
     * the end (a zero unit between two others stays, as in {@code 1h0m5s}); fractions only as long as
     * they need to be. A negative duration gets a leading {@code -}.
     *
     * @param d the duration
     * @return e.g. {@code 2m}, {@code 1m30s}, {@code 1.5s}, {@code 250ms}
     */
    public static String format(Duration d) {
        Objects.requireNonNull(d, "d");
        if (d.isZero()) {
            return "0s";
        }
        if (d.isNegative()) {
            return "-" + positive(d.negated());
        }
        return positive(d);
    }

    private static String positive(Duration d) {
        long seconds = d.getSeconds();
        int nanos = d.getNano();
        if (seconds == 0) {
            if (nanos < NANOS_PER_MICRO) {
                return nanos + "ns";
            }
            if (nanos < NANOS_PER_MILLI) {
                return decimal(nanos, NANOS_PER_MICRO) + "µs";
            }
            return decimal(nanos, NANOS_PER_MILLI) + "ms";
        }
        long hours = seconds / 3600;
        long minutes = (seconds % 3600) / 60;
        long secs = seconds % 60;
        StringBuilder out = new StringBuilder();
        if (hours > 0) {
            out.append(hours).append('h');
        }
        boolean secondsLeft = secs > 0 || nanos > 0;
        if (minutes > 0 || (hours > 0 && secondsLeft)) {
            out.append(minutes).append('m');
        }
        if (secondsLeft || out.isEmpty()) {
            out.append(decimal(secs * NANOS_PER_SECOND + nanos, NANOS_PER_SECOND))
                    .append('s');
        }
        return out.toString();
    }

    /** {@code value / unit} with the trailing zeros of its fraction dropped. */
    private static String decimal(long value, long unit) {
        return BigDecimal.valueOf(value)
                .divide(BigDecimal.valueOf(unit))
                .stripTrailingZeros()
                .toPlainString();
    }
}
