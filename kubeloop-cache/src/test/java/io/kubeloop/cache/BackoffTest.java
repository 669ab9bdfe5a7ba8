package io.kubeloop.cache;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubeloop.time.testing.FakeTicker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.Test;

/** Matrix line 27: the reflector's back-off. */
class BackoffTest {

    /** A random source that always answers {@code value}. */
    record Fixed(double value) implements RandomGenerator {
        @Override
        public long nextLong() {
            return 0;
        }

        @Override
        public double nextDouble() {
            return value;
        }
    }

    @Test
    void waitsDoubleFrom800msToA30sCapEachJitteredWithinDTo2D() {
        FakeTicker ticker = new FakeTicker();
        Backoff low = new Backoff(ticker, new Fixed(0.0));
        List<Long> millis = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            millis.add(low.next().toMillis());
        }
        assertThat(millis).containsExactly(800L, 1600L, 3200L, 6400L, 12800L, 25600L, 30000L, 30000L);

        Backoff high = new Backoff(ticker, new Fixed(0.999));
        assertThat(high.next()).isLessThan(Duration.ofMillis(1600)).isGreaterThan(Duration.ofMillis(1590));
        assertThat(high.next()).isLessThan(Duration.ofMillis(3200)).isGreaterThan(Duration.ofMillis(3190));
        for (int i = 0; i < 6; i++) {
            high.next();
        }
        assertThat(high.next()).isLessThan(Duration.ofSeconds(60)).isGreaterThan(Duration.ofSeconds(59));
    }

    @Test
    void theRampRestartsWhenMoreThanTwoMinutesPassedSinceItLastRestarted() {
        FakeTicker ticker = new FakeTicker();
        Backoff b = new Backoff(ticker, new Fixed(0.0));
        b.next();
        b.next();
        ticker.step(Duration.ofMinutes(2).plusMillis(1));
        assertThat(b.next()).isEqualTo(Duration.ofMillis(800));

        // nonstop failure: sleeping each wait still restarts the ramp about every 2 minutes
        Backoff nonstop = new Backoff(ticker, new Fixed(0.0));
        Duration elapsed = Duration.ZERO;
        int restarts = 0;
        for (int i = 0; i < 40; i++) {
            Duration d = nonstop.next();
            if (i > 0 && d.equals(Duration.ofMillis(800))) {
                restarts++;
                assertThat(elapsed).isGreaterThan(Duration.ofMinutes(2));
                elapsed = Duration.ZERO;
            }
            ticker.step(d);
            elapsed = elapsed.plus(d);
        }
        assertThat(restarts).isGreaterThanOrEqualTo(2);
    }
}
