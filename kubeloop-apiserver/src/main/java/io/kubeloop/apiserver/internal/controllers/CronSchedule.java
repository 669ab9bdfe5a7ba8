package io.kubeloop.apiserver.internal.controllers;

import java.time.DayOfWeek;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.BitSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * A CronJob's schedule in the standard five-field cron syntax, as Kubernetes reads it: minute, hour,
 * day of month, month, day of week; {@code *}, numbers, ranges {@code a-b}, steps {@code /n}, lists, month and
 * weekday names ({@code jan}, {@code mon}), {@code 7} as Sunday, {@code ?} as {@code *}; the descriptors
 * {@code @yearly}, {@code @annually}, {@code @monthly}, {@code @weekly}, {@code @daily}, {@code @midnight} and
 * {@code @hourly}. When both day fields are restricted a day matching either runs (as cron does); when one is
 * {@code *}, the other decides.
 *
 * <p>Immutable and thread-safe.
 */
final class CronSchedule {

    private static final Map<String, String> DESCRIPTORS = Map.of(
            "@yearly", "0 0 1 1 *",
            "@annually", "0 0 1 1 *",
            "@monthly", "0 0 1 * *",
            "@weekly", "0 0 * * 0",
            "@daily", "0 0 * * *",
            "@midnight", "0 0 * * *",
            "@hourly", "0 * * * *");
    private static final List<String> MONTHS =
            List.of("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec");
    private static final List<String> DAYS = List.of("sun", "mon", "tue", "wed", "thu", "fri", "sat");

    private final BitSet minutes;
    private final BitSet hours;
    private final BitSet daysOfMonth;
    private final BitSet months;
    private final BitSet daysOfWeek;
    private final boolean anyDayOfMonth;
    private final boolean anyDayOfWeek;

    private CronSchedule(String[] f) {
        minutes = field(f[0], 0, 59, List.of());
        hours = field(f[1], 0, 23, List.of());
        daysOfMonth = field(f[2], 1, 31, List.of());
        months = field(f[3], 1, 12, MONTHS);
        BitSet dow = field(f[4], 0, 7, DAYS);
        if (dow.get(7)) {
            dow.set(0);
        }
        daysOfWeek = dow;
        anyDayOfMonth = f[2].startsWith("*") || f[2].equals("?");
        anyDayOfWeek = f[4].startsWith("*") || f[4].equals("?");
    }

    /**
     * Parses {@code spec}.
     *
     * @throws IllegalArgumentException with the reason, for a malformed schedule
     */
    static CronSchedule parse(String spec) {
        String text = spec.trim();
        String expanded = DESCRIPTORS.getOrDefault(text.toLowerCase(Locale.ROOT), text);
        String[] fields = expanded.split("\\s+");
        if (fields.length != 5) {
            throw new IllegalArgumentException("expected exactly 5 fields, found " + fields.length + ": " + spec);
        }
        return new CronSchedule(fields);
    }

    private static BitSet field(String text, int min, int max, List<String> names) {
        BitSet bits = new BitSet(max + 1);
        for (String part : text.toLowerCase(Locale.ROOT).split(",")) {
            int step = 1;
            String range = part;
            int slash = part.indexOf('/');
            if (slash >= 0) {
                step = number(part.substring(slash + 1), 1, max, List.of());
                range = part.substring(0, slash);
            }
            int from;
            int to;
            if (range.equals("*") || range.equals("?")) {
                from = min;
                to = max;
            } else if (range.contains("-")) {
                String[] ends = range.split("-", 2);
                from = number(ends[0], min, max, names);
                to = number(ends[1], min, max, names);
            } else {
                from = number(range, min, max, names);
                to = slash >= 0 ? max : from;
            }
            if (from > to) {
                throw new IllegalArgumentException(
                        "beginning of range (" + from + ") beyond end of range (" + to + ")");
            }
            for (int i = from; i <= to; i += step) {
                bits.set(i);
            }
        }
        return bits;
    }

    private static int number(String text, int min, int max, List<String> names) {
        int named = names.indexOf(text);
        int value;
        if (named >= 0) {
            value = named + (names == MONTHS ? 1 : 0);
        } else {
            try {
                value = Integer.parseInt(text);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("failed to parse int from " + text);
            }
        }
        if (value < min || value > max) {
            throw new IllegalArgumentException("value (" + value + ") out of range [" + min + ", " + max + "]");
        }
        return value;
    }

    /** The first time strictly after {@code after} that the schedule fires; empty when none within five years. */
    Optional<ZonedDateTime> next(ZonedDateTime after) {
        ZonedDateTime t = after.truncatedTo(ChronoUnit.MINUTES).plusMinutes(1);
        ZonedDateTime limit = t.plusYears(5);
        while (t.isBefore(limit)) {
            if (!months.get(t.getMonthValue())) {
                t = t.withDayOfMonth(1).truncatedTo(ChronoUnit.DAYS).plusMonths(1);
                continue;
            }
            if (!dayMatches(t)) {
                t = t.truncatedTo(ChronoUnit.DAYS).plusDays(1);
                continue;
            }
            if (!hours.get(t.getHour())) {
                t = t.truncatedTo(ChronoUnit.HOURS).plusHours(1);
                continue;
            }
            if (!minutes.get(t.getMinute())) {
                t = t.plusMinutes(1);
                continue;
            }
            return Optional.of(t);
        }
        return Optional.empty();
    }

    private boolean dayMatches(ZonedDateTime t) {
        boolean dom = daysOfMonth.get(t.getDayOfMonth());
        int weekday =
                t.getDayOfWeek() == DayOfWeek.SUNDAY ? 0 : t.getDayOfWeek().getValue();
        boolean dow = daysOfWeek.get(weekday);
        if (anyDayOfMonth || anyDayOfWeek) {
            return dom && dow;
        }
        return dom || dow;
    }
}
