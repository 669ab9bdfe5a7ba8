package io.kubeloop.apiserver.internal.printers;

import java.time.Duration;
import java.time.Instant;

/**
 * Ages as kubectl shows them ({@code 5m}, {@code 3h20m}, {@code 12d}): apimachinery's
 * {@code duration.HumanDuration}.
 *
 * <p>Stateless and thread-safe.
 */
public final class HumanDuration {

    private HumanDuration() {}

    /** The age of {@code timestamp} (RFC 3339) at {@code now}; {@code <unknown>} when unparsable or absent. */
    public static String since(String timestamp, Instant now) {
        if (timestamp == null || timestamp.isEmpty()) {
            return "<unknown>";
        }
        try {
            return format(Duration.between(Instant.parse(timestamp), now));
        } catch (RuntimeException e) {
            return "<unknown>";
        }
    }

    /** The short human form of {@code d}. */
    public static String format(Duration d) {
        long seconds = d.toSeconds();
        if (seconds < -1) {
            return "<invalid>";
        } else if (seconds < 0) {
            return "0s";
        } else if (seconds < 60 * 2) {
            return seconds + "s";
        }
        long minutes = d.toMinutes();
        if (minutes < 10) {
            long s = seconds % 60;
            return s == 0 ? minutes + "m" : minutes + "m" + s + "s";
        } else if (minutes < 60 * 3) {
            return minutes + "m";
        }
        long hours = d.toHours();
        if (hours < 8) {
            long m = minutes % 60;
            return m == 0 ? hours + "h" : hours + "h" + m + "m";
        } else if (hours < 48) {
            return hours + "h";
        } else if (hours < 24 * 8) {
            long h = hours % 24;
            return h == 0 ? hours / 24 + "d" : hours / 24 + "d" + h + "h";
        } else if (hours < 24 * 365 * 2) {
            return hours / 24 + "d";
        } else if (hours < 24 * 365 * 8) {
            long dy = hours / 24 % 365;
            return dy == 0 ? hours / 24 / 365 + "y" : hours / 24 / 365 + "y" + dy + "d";
        }
        return hours / 24 / 365 + "y";
    }
}
