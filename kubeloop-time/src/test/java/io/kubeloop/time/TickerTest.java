package io.kubeloop.time;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class TickerTest {

    private final Ticker system = Ticker.system();

    @Test
    void theSystemTickerReadsTheJvmClocks() {
        long before = System.nanoTime();
        long reading = system.nanoTime();
        assertThat(reading - before).isNotNegative();
        assertThat(Duration.between(system.instant(), Instant.now()).abs()).isLessThan(Duration.ofSeconds(5));
        assertThat(Ticker.system()).isSameAs(system);
    }

    @Test
    void theSystemTickerParksUntilTheDeadline() {
        long start = system.nanoTime();
        long deadline = start + Duration.ofMillis(20).toNanos();
        while (system.nanoTime() - deadline < 0) {
            system.parkUntil(deadline);
        }
        assertThat(system.nanoTime() - start)
                .isGreaterThanOrEqualTo(Duration.ofMillis(20).toNanos());
    }

    @Test
    void parkUntilReturnsAtOnceOnAPermit() {
        LockSupport.unpark(Thread.currentThread());
        long start = System.nanoTime();
        system.parkUntil(Long.MAX_VALUE);
        assertThat(System.nanoTime() - start).isLessThan(Duration.ofSeconds(5).toNanos());
    }

    @Test
    void sleepOfNothingReturnsAtOnceEvenWhenInterrupted() throws InterruptedException {
        Thread.currentThread().interrupt();
        try {
            system.sleep(Duration.ZERO);
            system.sleep(Duration.ofSeconds(-1));
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
        } finally {
            Thread.interrupted();
        }
    }

    @Test
    void theDefaultSleepIsInterruptible() {
        Ticker parkOnly = new Ticker() {
            @Override
            public long nanoTime() {
                return System.nanoTime();
            }

            @Override
            public Instant instant() {
                return Instant.now();
            }

            @Override
            public void parkUntil(long deadlineNanos) {
                system.parkUntil(deadlineNanos);
            }
        };
        Thread.currentThread().interrupt();
        assertThatThrownBy(() -> parkOnly.sleep(Duration.ofHours(1))).isInstanceOf(InterruptedException.class);
        assertThat(Thread.currentThread().isInterrupted()).isFalse();
    }

    @Test
    void theDefaultSleepWaitsForItsDuration() throws InterruptedException {
        Ticker parkOnly = new Ticker() {
            @Override
            public long nanoTime() {
                return System.nanoTime();
            }

            @Override
            public Instant instant() {
                return Instant.now();
            }

            @Override
            public void parkUntil(long deadlineNanos) {
                system.parkUntil(deadlineNanos);
            }
        };
        long start = System.nanoTime();
        parkOnly.sleep(Duration.ofMillis(20));
        assertThat(System.nanoTime() - start)
                .isGreaterThanOrEqualTo(Duration.ofMillis(20).toNanos());
    }

    @Test
    void deadlinesSaturateToNoDeadline() {
        assertThat(Ticker.deadline(100, Duration.ofNanos(5))).isEqualTo(105);
        assertThat(Ticker.deadline(100, Duration.ofNanos(-5))).isEqualTo(100);
        assertThat(Ticker.deadline(100, Duration.ofSeconds(Long.MAX_VALUE))).isEqualTo(Long.MAX_VALUE);
        assertThat(Ticker.deadline(Long.MAX_VALUE - 10, Duration.ofNanos(20))).isEqualTo(Long.MAX_VALUE);
        assertThat(Ticker.deadline(-10, Duration.ofNanos(20))).isEqualTo(10);
    }
}
