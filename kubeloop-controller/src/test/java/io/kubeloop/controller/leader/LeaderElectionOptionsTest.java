package io.kubeloop.controller.leader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class LeaderElectionOptionsTest {

    @Test
    void defaultsAreControllerRuntimes() {
        LeaderElectionOptions c = LeaderElectionOptions.defaults("ns", "lock", "me");
        assertThat(c.leaseDuration()).isEqualTo(Duration.ofSeconds(15));
        assertThat(c.renewDeadline()).isEqualTo(Duration.ofSeconds(10));
        assertThat(c.retryPeriod()).isEqualTo(Duration.ofSeconds(2));
        assertThat(c.releaseOnStop()).isFalse();
    }

    @Test
    void timingsMustBeLeaseAboveRenewAboveOnePointTwoRetries() {
        LeaderElectionOptions c = LeaderElectionOptions.defaults("ns", "lock", "me");
        assertThatThrownBy(() -> c.withTimings(Duration.ofSeconds(10), Duration.ofSeconds(10), Duration.ofSeconds(2)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("leaseDuration (10s) must be greater than renewDeadline (10s)");
        assertThatThrownBy(() -> c.withTimings(Duration.ofSeconds(15), Duration.ofMillis(2400), Duration.ofSeconds(2)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("renewDeadline (2.4s) must be greater than 1.2 × retryPeriod (2s)");
        assertThat(c.withTimings(Duration.ofSeconds(15), Duration.ofMillis(2401), Duration.ofSeconds(2))
                        .renewDeadline())
                .isEqualTo(Duration.ofMillis(2401));
        assertThatThrownBy(() -> c.withTimings(Duration.ofSeconds(15), Duration.ofSeconds(10), Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("retryPeriod must be positive");
        assertThatThrownBy(() -> LeaderElectionOptions.defaults("ns", " ", "me"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("leader election needs a name");
    }
}
