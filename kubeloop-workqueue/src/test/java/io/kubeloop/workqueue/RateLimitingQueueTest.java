package io.kubeloop.workqueue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kubeloop.time.testing.FakeTicker;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class RateLimitingQueueTest {

    private final FakeTicker ticker = new FakeTicker();
    private final RateLimitingQueue<String> queue = RateLimitingQueue.create(
            RateLimiter.itemExponentialFailure(Duration.ofMillis(5), Duration.ofSeconds(1000)),
            WorkQueueOptions.builder().ticker(ticker).build());
    private final DefaultDelayingQueue<String> delaying =
            (DefaultDelayingQueue<String>) ((DefaultRateLimitingQueue<String>) queue).delegate();

    @AfterEach
    void shutDown() {
        queue.shutDown();
    }

    private void step(Duration d, int stillWaiting) {
        ticker.step(d);
        await().pollDelay(Duration.ZERO)
                .atMost(Duration.ofSeconds(5))
                .pollInterval(Duration.ofMillis(1))
                .until(() -> delaying.waitingCount() == stillWaiting);
    }

    @Test
    void addRateLimitedWaitsTheLimitersDelayWhichGrowsWithEachFailure() {
        queue.addRateLimited("x");
        assertThat(queue.numRequeues("x")).isEqualTo(1);
        step(Duration.ofMillis(4), 1);
        assertThat(queue.len()).isZero();
        step(Duration.ofMillis(1), 0);
        assertThat(queue.get()).contains("x");

        queue.addRateLimited("x"); // second failure: 10 ms
        queue.done("x");
        step(Duration.ofMillis(9), 1);
        assertThat(queue.len()).isZero();
        step(Duration.ofMillis(1), 0);
        assertThat(queue.get()).contains("x");
        assertThat(queue.numRequeues("x")).isEqualTo(2);
    }

    @Test
    void forgetResetsTheLimiterButNotTheQueue() {
        queue.addRateLimited("x");
        queue.addRateLimited("x");
        queue.forget("x");

        assertThat(queue.numRequeues("x")).isZero();
        assertThat(delaying.waitingCount()).as("the waiting entry stays").isEqualTo(1);
        queue.addRateLimited("x");
        assertThat(queue.numRequeues("x")).isEqualTo(1);
    }

    @Test
    void defaultQueueUsesTheControllerLimiter() {
        try (RateLimitingQueue<String> q = RateLimitingQueue.create()) {
            q.addRateLimited("x");
            assertThat(q.numRequeues("x")).isEqualTo(1);
            assertThat(q.get()).contains("x"); // 5 ms of real time
        }
    }

    @Test
    void addRateLimitedReadsTheClockOnceWhenTheLimiterKeepsTimeByTheQueuesTicker() {
        CountingTicker clock = new CountingTicker();
        try (RateLimitingQueue<String> q = RateLimitingQueue.create(
                RateLimiter.defaultControllerRateLimiter(clock),
                WorkQueueOptions.builder().ticker(clock).build())) {
            int before = clock.reads.get();
            for (int i = 0; i < 150; i++) { // past the bucket's burst of 100: its delays count too
                q.addRateLimited("item-" + i);
            }
            assertThat(clock.reads.get() - before)
                    .as("one read per call, shared by bucket and queue")
                    .isEqualTo(150);

            DefaultDelayingQueue<String> d =
                    (DefaultDelayingQueue<String>) ((DefaultRateLimitingQueue<String>) q).delegate();
            clock.time.step(Duration.ofMillis(5)); // the first 100: 5 ms (exponential, bucket free)
            await().atMost(Duration.ofSeconds(5)).until(() -> d.waitingCount() == 50);
            clock.time.step(Duration.ofMillis(95)); // the 101st: one bucket interval, 100 ms
            await().atMost(Duration.ofSeconds(5)).until(() -> d.waitingCount() == 49);
            assertThat(q.len()).isEqualTo(101);
        }
    }

    @Test
    void aBucketOnAnotherTickerReservesByItsOwnClockNotTheQueues() {
        FakeTicker bucketClock = new FakeTicker();
        try (RateLimitingQueue<String> q = RateLimitingQueue.create(
                RateLimiter.bucket(1, 1, bucketClock),
                WorkQueueOptions.builder().ticker(ticker).build())) {
            q.addRateLimited("a"); // the one token: no delay
            q.addRateLimited("b"); // waits one second by the bucket's clock; the next token is b's
            bucketClock.step(Duration.ofSeconds(2)); // by the bucket's clock a token is back; the queue's stands still
            q.addRateLimited("c"); // no delay, as the bucket read its own clock (by the queue's: 2 s)

            assertThat(q.len()).as("a and c added at once, b waiting").isEqualTo(2);
        }
    }
}
