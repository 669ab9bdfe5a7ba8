package io.kubeloop.workqueue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class RateLimitingQueueTest {

    private final FakeTicker ticker = new FakeTicker();
    private final RateLimitingQueue<String> queue = RateLimitingQueue.create(
            RateLimiter.itemExponentialFailure(Duration.ofMillis(5), Duration.ofSeconds(1000)),
            WorkQueueConfig.builder().ticker(ticker).build());
    private final DefaultDelayingQueue<String> delaying =
            (DefaultDelayingQueue<String>) ((DefaultRateLimitingQueue<String>) queue).delegate();

    @AfterEach
    void shutDown() {
        queue.shutDown();
    }

    private void step(Duration d, int stillWaiting) {
        ticker.step(d);
        await().pollDelay(Duration.ZERO).atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(1))
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
}
