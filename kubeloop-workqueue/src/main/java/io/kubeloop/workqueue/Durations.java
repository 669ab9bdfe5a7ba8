package io.kubeloop.workqueue;

import java.time.Duration;

/** Saturating conversions between {@link Duration} and nanoseconds. Stateless. */
final class Durations {

    private Durations() {}

    /** Converts to nanoseconds, clamping to [{@code Long.MIN_VALUE}, {@code Long.MAX_VALUE}]. */
    static long toNanosSaturated(Duration d) {
        if (d.getSeconds() >= Long.MAX_VALUE / 1_000_000_000L) {
            return Long.MAX_VALUE;
        }
        if (d.getSeconds() <= Long.MIN_VALUE / 1_000_000_000L) {
            return Long.MIN_VALUE;
        }
        return d.toNanos();
    }

    /** Adds two values, clamping on overflow instead of wrapping. */
    static long saturatedAdd(long a, long b) {
        long r = a + b;
        if (((a ^ r) & (b ^ r)) < 0) {
            return r < 0 ? Long.MAX_VALUE : Long.MIN_VALUE;
        }
        return r;
    }
}
