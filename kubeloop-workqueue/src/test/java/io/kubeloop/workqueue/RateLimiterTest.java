package io.kubeloop.workqueue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kubeloop.time.testing.FakeTicker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

class RateLimiterTest {

    private static Duration ms(long ms) {
        return Duration.ofMillis(ms);
    }

    @Test
    void itemExponentialDoublesFromTheBaseAndForgetStartsOver() {
        RateLimiter<String> limiter = RateLimiter.itemExponentialFailure(ms(5), Duration.ofSeconds(1000));

        assertThat(limiter.when("x")).isEqualTo(ms(5));
        assertThat(limiter.when("x")).isEqualTo(ms(10));
        assertThat(limiter.when("x")).isEqualTo(ms(20));
        assertThat(limiter.when("x")).isEqualTo(ms(40));
        assertThat(limiter.numRequeues("x")).isEqualTo(4);
        assertThat(limiter.when("other")).as("per item").isEqualTo(ms(5));

        limiter.forget("x");

        assertThat(limiter.numRequeues("x")).isZero();
        assertThat(limiter.when("x")).isEqualTo(ms(5));
        assertThat(limiter.numRequeues("x")).isEqualTo(1);
    }

    @Test
    void itemExponentialReaches655SecondsAtCall18AndTheCapFromCall19() {
        RateLimiter<String> limiter = RateLimiter.itemExponentialFailure(ms(5), Duration.ofSeconds(1000));
        List<Duration> delays = new ArrayList<>();
        for (int i = 0; i < 25; i++) {
            delays.add(limiter.when("x"));
        }
        assertThat(delays.get(17)).isEqualTo(ms(655_360));
        assertThat(delays.subList(18, 25)).containsOnly(Duration.ofSeconds(1000));
    }

    @Test
    void itemExponentialNeverOverflowsForHugeFailureCounts() {
        var limiter = new ItemExponentialFailureRateLimiter<String>(ms(5), Duration.ofSeconds(1000));
        long max = Duration.ofSeconds(1000).toNanos();
        for (int n : new int[] {40, 62, 63, 64, 100, 1 << 20, Integer.MAX_VALUE}) {
            assertThat(limiter.delayNanos(n)).as("n=%d", n).isEqualTo(max);
        }
        var uncapped =
                new ItemExponentialFailureRateLimiter<String>(Duration.ofNanos(1), Duration.ofSeconds(Long.MAX_VALUE));
        assertThat(uncapped.delayNanos(62)).isEqualTo(1L << 62);
        assertThat(uncapped.delayNanos(63)).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void defaultItemBasedStartsAtOneMillisecond() {
        RateLimiter<String> limiter = RateLimiter.defaultItemBased();
        assertThat(limiter.when("x")).isEqualTo(ms(1));
        assertThat(limiter.when("x")).isEqualTo(ms(2));
    }

    @Test
    void defaultControllerLimiterMakesThe101stNewItemWait100Milliseconds() {
        FakeTicker ticker = new FakeTicker();
        RateLimiter<Integer> limiter = RateLimiter.defaultControllerRateLimiter(ticker);
        for (int i = 0; i < 100; i++) {
            assertThat(limiter.when(i))
                    .as("item %d: the per-item 5 ms wins within the burst", i)
                    .isEqualTo(ms(5));
        }
        assertThat(limiter.when(100)).isEqualTo(ms(100));
        assertThat(limiter.when(101)).isEqualTo(ms(200));
        assertThat(limiter.numRequeues(100)).isEqualTo(1);
    }

    @Test
    void bucketStartsFullAndRefillsAtItsRate() {
        FakeTicker ticker = new FakeTicker();
        RateLimiter<String> bucket = RateLimiter.bucket(10, 100, ticker);
        for (int i = 0; i < 100; i++) {
            assertThat(bucket.when("x")).isZero();
        }
        assertThat(bucket.when("x")).isEqualTo(ms(100));

        ticker.step(Duration.ofSeconds(2)); // 20 tokens back, minus the one overdrawn

        for (int i = 0; i < 19; i++) {
            assertThat(bucket.when("x")).isZero();
        }
        assertThat(bucket.when("x")).isEqualTo(ms(100));
        assertThat(bucket.numRequeues("x")).isZero();
    }

    @Test
    void bucketNeverHoldsMoreThanItsBurst() {
        FakeTicker ticker = new FakeTicker();
        RateLimiter<String> bucket = RateLimiter.bucket(1, 2, ticker);
        ticker.step(Duration.ofHours(1));
        assertThat(bucket.when("a")).isZero();
        assertThat(bucket.when("b")).isZero();
        assertThat(bucket.when("c")).isEqualTo(Duration.ofSeconds(1));
    }

    /** A ticker near the end of its range: the bucket's instant saturates and never wraps around. */
    @Test
    void bucketNearTheEndOfTheTickerRangeKeepsWaitingInsteadOfWrappingAround() {
        FakeTicker ticker = new FakeTicker();
        ticker.step(Duration.ofNanos(
                Long.MAX_VALUE - ticker.nanoTime() - Duration.ofSeconds(10).toNanos()));
        RateLimiter<String> bucket = RateLimiter.bucket(1, 1, ticker);
        assertThat(bucket.when("x")).isZero();
        Duration previous = Duration.ZERO;
        for (int i = 1; i < 1000; i++) {
            Duration delay = bucket.when("x");
            assertThat(delay)
                    .as("request %d", i)
                    .isGreaterThanOrEqualTo(previous)
                    .isPositive();
            previous = delay;
        }
        assertThat(previous)
                .as("saturated: the bucket is full again at the ticker's last instant")
                .isEqualTo(Duration.ofSeconds(9));
    }

    @Test
    void infiniteQpsBucketNeverWaits() {
        RateLimiter<String> bucket = RateLimiter.bucket(Double.POSITIVE_INFINITY, 1);
        for (int i = 0; i < 1000; i++) {
            assertThat(bucket.when("x")).isZero();
        }
    }

    @Test
    void fastSlowGivesTheFastDelayForTheFirstAttemptsThenTheSlowOne() {
        RateLimiter<String> limiter = RateLimiter.itemFastSlow(ms(5), Duration.ofSeconds(10), 3);

        assertThat(limiter.when("x")).isEqualTo(ms(5));
        assertThat(limiter.when("x")).isEqualTo(ms(5));
        assertThat(limiter.when("x")).isEqualTo(ms(5));
        assertThat(limiter.when("x")).isEqualTo(Duration.ofSeconds(10));
        assertThat(limiter.numRequeues("x")).isEqualTo(4);

        limiter.forget("x");
        assertThat(limiter.when("x")).isEqualTo(ms(5));
    }

    @Test
    void maxOfAsksEveryLimiterAnswersTheLongestAndForgetsInAll() {
        RateLimiter<String> fastSlow = RateLimiter.itemFastSlow(ms(5), ms(50), 1);
        RateLimiter<String> exponential = RateLimiter.itemExponentialFailure(ms(1), Duration.ofSeconds(1));
        RateLimiter<String> max = RateLimiter.maxOf(fastSlow, exponential);

        assertThat(max.when("x")).isEqualTo(ms(5));
        assertThat(max.when("x")).isEqualTo(ms(50));
        for (int i = 0; i < 5; i++) {
            max.when("x");
        }
        assertThat(max.when("x")).isEqualTo(ms(128)); // exponential: 2^7 ms beats 50 ms
        assertThat(exponential.numRequeues("x"))
                .as("every limiter counted every call")
                .isEqualTo(8);
        assertThat(max.numRequeues("x")).isEqualTo(8);

        max.forget("x");
        assertThat(fastSlow.numRequeues("x")).isZero();
        assertThat(exponential.numRequeues("x")).isZero();
    }

    @Test
    void withMaxWaitCapsTheDelayButKeepsCounting() {
        RateLimiter<String> limiter =
                RateLimiter.withMaxWait(RateLimiter.itemExponentialFailure(ms(100), Duration.ofSeconds(100)), ms(250));
        assertThat(limiter.when("x")).isEqualTo(ms(100));
        assertThat(limiter.when("x")).isEqualTo(ms(200));
        assertThat(limiter.when("x")).isEqualTo(ms(250));
        assertThat(limiter.numRequeues("x")).isEqualTo(3);
        limiter.forget("x");
        assertThat(limiter.numRequeues("x")).isZero();
    }

    @Test
    void factoriesRejectOutOfRangeArguments() {
        assertThatThrownBy(() -> RateLimiter.bucket(0, 10))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("bucket qps must be positive: 0.0");
        assertThatThrownBy(() -> RateLimiter.bucket(Double.NaN, 10)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> RateLimiter.bucket(10, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("bucket burst must be at least 1: 0");
        assertThatThrownBy(() -> RateLimiter.itemExponentialFailure(ms(-1), ms(1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("base delay must not be negative");
        assertThatThrownBy(() -> RateLimiter.itemFastSlow(ms(1), ms(2), -1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("maxFastAttempts");
        assertThatThrownBy(() -> RateLimiter.<String>maxOf(List.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("maxOf needs at least one rate limiter");
    }

    /** A user's limiter that answers in Durations only: a fixed delay, counting requests per item. */
    private static final class FixedDelay implements RateLimiter<String> {
        final Map<String, Integer> counts = new ConcurrentHashMap<>();
        final Duration delay;

        FixedDelay(Duration delay) {
            this.delay = delay;
        }

        @Override
        public Duration when(String item) {
            counts.merge(item, 1, Integer::sum);
            return delay;
        }

        @Override
        public void forget(String item) {
            counts.remove(item);
        }

        @Override
        public int numRequeues(String item) {
            return counts.getOrDefault(item, 0);
        }

        @Override
        public String toString() {
            return "FixedDelay";
        }
    }

    @Test
    void aUsersLimiterWorksInsideTheCompositesAndTheQueue() {
        FixedDelay custom = new FixedDelay(Duration.ofSeconds(3));
        RateLimiter<String> capped = RateLimiter.withMaxWait(custom, Duration.ofSeconds(2));
        RateLimiter<String> max = RateLimiter.maxOf(RateLimiter.itemExponentialFailure(ms(5), ms(50)), custom);

        assertThat(capped.when("x")).isEqualTo(Duration.ofSeconds(2));
        assertThat(max.when("x")).isEqualTo(Duration.ofSeconds(3));
        assertThat(custom.numRequeues("x")).as("asked through both").isEqualTo(2);
        assertThat(capped.numRequeues("x")).isEqualTo(2);
        assertThat(max.numRequeues("x")).isEqualTo(2);
        capped.forget("x");
        assertThat(custom.numRequeues("x")).isZero();
        assertThat(max.toString())
                .isEqualTo(
                        "MaxOfRateLimiter[ItemExponentialFailureRateLimiter[base=PT0.005S, max=PT0.05S], FixedDelay]");

        FakeTicker ticker = new FakeTicker();
        try (RateLimitingQueue<String> q = RateLimitingQueue.create(
                custom, WorkQueueOptions.builder().ticker(ticker).build())) {
            q.addRateLimited("y");
            assertThat(q.numRequeues("y")).isEqualTo(1);
            assertThat(q.len()).as("waits the user's 3 s").isZero();
            ticker.step(Duration.ofSeconds(3));
            Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> q.len() == 1);
        }
    }
}
