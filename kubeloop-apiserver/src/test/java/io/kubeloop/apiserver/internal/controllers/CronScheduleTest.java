package io.kubeloop.apiserver.internal.controllers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.ZonedDateTime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Cron schedules as Kubernetes reads them: the next firing time after a given one. */
class CronScheduleTest {

    @ParameterizedTest(name = "{0} after {1} -> {2}")
    @CsvSource(delimiter = '|', textBlock = """
            */15 * * * *     | 2026-11-27T10:07:30Z | 2026-11-27T10:15Z
            0 9 * * mon-fri  | 2026-11-27T10:00Z    | 2026-11-30T09:00Z
            @daily           | 2026-11-27T10:00Z    | 2026-11-28T00:00Z
            @hourly          | 2026-11-27T10:00Z    | 2026-11-27T11:00Z
            0 0 1,15 * 5     | 2026-11-27T10:00Z    | 2026-12-01T00:00Z
            0 0 1 1 *        | 2026-11-27T10:00Z    | 2027-01-01T00:00Z
            30 2 * feb 7     | 2026-11-27T10:00Z    | 2027-02-07T02:30Z
            5-10/5 * * * *   | 2026-11-27T10:05Z    | 2026-11-27T10:10Z
            0 0 29 2 *       | 2026-11-27T10:00Z    | 2028-02-29T00:00Z
            """)
    void theNextTimeIsTheFirstMatchStrictlyAfter(String schedule, String after, String next) {
        assertThat(CronSchedule.parse(schedule).next(ZonedDateTime.parse(after)))
                .hasValue(ZonedDateTime.parse(next));
    }

    @Test
    void malformedSchedulesSayWhy() {
        assertThatThrownBy(() -> CronSchedule.parse("* * * *")).hasMessageContaining("expected exactly 5 fields");
        assertThatThrownBy(() -> CronSchedule.parse("61 * * * *")).hasMessageContaining("out of range [0, 59]");
        assertThatThrownBy(() -> CronSchedule.parse("* * * * funday")).hasMessageContaining("failed to parse int");
        assertThatThrownBy(() -> CronSchedule.parse("5-1 * * * *")).hasMessageContaining("beyond end of range");
    }
}
