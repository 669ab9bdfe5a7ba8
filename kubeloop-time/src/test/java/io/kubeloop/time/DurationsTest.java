package io.kubeloop.time;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class DurationsTest {

    @Test
    void wholeMinutesReadAsMinutesNotIsoOrGoZeroSeconds() {
        assertThat(Durations.format(Duration.ofMinutes(2))).isEqualTo("2m");
        assertThat(Durations.format(Duration.ofMinutes(90))).isEqualTo("1h30m");
        assertThat(Durations.format(Duration.ofHours(48))).isEqualTo("48h");
    }

    @Test
    void zeroUnitsBetweenOthersStayAndTrailingOnesGo() {
        assertThat(Durations.format(Duration.ofSeconds(3605))).isEqualTo("1h0m5s");
        assertThat(Durations.format(Duration.ofSeconds(90))).isEqualTo("1m30s");
        assertThat(Durations.format(Duration.ofSeconds(30))).isEqualTo("30s");
        assertThat(Durations.format(Duration.ofMillis(60_500))).isEqualTo("1m0.5s");
    }

    @Test
    void fractionsAreAsLongAsTheyNeedToBe() {
        assertThat(Durations.format(Duration.ofMillis(1500))).isEqualTo("1.5s");
        assertThat(Durations.format(Duration.ofMillis(200))).isEqualTo("200ms");
        assertThat(Durations.format(Duration.ofNanos(1_250_000))).isEqualTo("1.25ms");
        assertThat(Durations.format(Duration.ofNanos(10_000))).isEqualTo("10µs");
        assertThat(Durations.format(Duration.ofNanos(7))).isEqualTo("7ns");
    }

    @Test
    void zeroAndNegativeDurations() {
        assertThat(Durations.format(Duration.ZERO)).isEqualTo("0s");
        assertThat(Durations.format(Duration.ofSeconds(-5))).isEqualTo("-5s");
        assertThat(Durations.format(Duration.ofMillis(-200))).isEqualTo("-200ms");
    }
}
