package io.kubeloop.workqueue;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubeloop.time.testing.FakeTicker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The lock-free limiters under concurrent requests: no token and no failure count is lost. */
@Timeout(30)
class RateLimiterConcurrencyTest {

    private static void runTogether(int threads, Runnable body) throws InterruptedException {
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> running = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            running.add(Thread.ofPlatform().start(() -> {
                try {
                    go.await();
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
                body.run();
            }));
        }
        go.countDown();
        for (Thread t : running) {
            t.join();
        }
    }

    @Test
    void concurrentBucketRequestsEachTakeExactlyOneToken() throws InterruptedException {
        FakeTicker frozen = new FakeTicker();
        RateLimiter<String> bucket = RateLimiter.bucket(10, 100, frozen);
        ConcurrentLinkedQueue<Long> delays = new ConcurrentLinkedQueue<>();

        runTogether(4, () -> {
            for (int i = 0; i < 500; i++) {
                delays.add(bucket.when("x").toNanos());
            }
        });

        List<Long> expected = new ArrayList<>();
        for (int i = 0; i < 2000; i++) {
            expected.add(i < 100 ? 0 : (i - 99) * 100_000_000L); // burst free, then one 100 ms interval each
        }
        assertThat(delays.stream().sorted().toList()).isEqualTo(expected);
    }

    @Test
    void concurrentFailuresOfOneItemAreAllCounted() throws InterruptedException {
        RateLimiter<String> limiter =
                RateLimiter.itemExponentialFailure(Duration.ofMillis(5), Duration.ofSeconds(1000));

        runTogether(4, () -> {
            for (int i = 0; i < 1000; i++) {
                limiter.when("x");
            }
        });

        assertThat(limiter.numRequeues("x")).isEqualTo(4000);
        assertThat(limiter.when("x")).isEqualTo(Duration.ofSeconds(1000));
        limiter.forget("x");
        assertThat(limiter.numRequeues("x")).isZero();
        assertThat(limiter.when("x")).isEqualTo(Duration.ofMillis(5));
    }

    @Test
    void aBucketWithAFractionalRateWaitsWholeNanosecondIntervals() {
        FakeTicker frozen = new FakeTicker();
        RateLimiter<String> bucket = RateLimiter.bucket(3, 1, frozen);

        assertThat(bucket.when("a")).isZero();
        assertThat(bucket.when("b")).isEqualTo(Duration.ofNanos(333_333_333));
        assertThat(bucket.when("c")).isEqualTo(Duration.ofNanos(666_666_666));
        frozen.step(Duration.ofSeconds(10));
        assertThat(bucket.when("d"))
                .as("refilled, but never above the burst of 1")
                .isZero();
        assertThat(bucket.when("e")).isEqualTo(Duration.ofNanos(333_333_333));
    }
}
