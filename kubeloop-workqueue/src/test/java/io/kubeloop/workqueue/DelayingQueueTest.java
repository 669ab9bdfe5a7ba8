package io.kubeloop.workqueue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kubeloop.time.testing.FakeTicker;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class DelayingQueueTest {

    private final FakeTicker ticker = new FakeTicker();
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final DefaultDelayingQueue<String> queue =
            (DefaultDelayingQueue<String>) DelayingQueue.<String>create(WorkQueueOptions.builder()
                    .name("q")
                    .ticker(ticker)
                    .meterRegistry(registry)
                    .build());

    @AfterEach
    void shutDown() {
        queue.shutDown();
    }

    /** Steps the ticker and waits until the waiting loop has moved what became due. */
    private void step(Duration d, int stillWaiting) {
        ticker.step(d);
        await().pollDelay(Duration.ZERO)
                .atMost(Duration.ofSeconds(5))
                .pollInterval(Duration.ofMillis(1))
                .until(() -> queue.waitingCount() == stillWaiting);
        assertThat(ticker.awaitWaiters(1, Duration.ofSeconds(5))).isTrue();
    }

    private double retries() {
        return registry.get("workqueue.retries").tag("name", "q").counter().count();
    }

    @Test
    void secondAddAfterWithAShorterDelayMakesTheItemReadyOnceAtTheEarlierTime() {
        queue.addAfter("x", Duration.ofSeconds(1));
        queue.addAfter("x", Duration.ofMillis(100));
        assertThat(queue.waitingCount()).isEqualTo(1);

        step(Duration.ofMillis(99), 1);
        assertThat(queue.len()).isZero();

        step(Duration.ofMillis(1), 0);
        assertThat(queue.get()).contains("x");
        queue.done("x");

        step(Duration.ofSeconds(1), 0);
        assertThat(queue.len())
                .as("the later time was dropped, not kept as a second entry")
                .isZero();
    }

    @Test
    void secondAddAfterWithALongerDelayKeepsTheEarlierTime() {
        queue.addAfter("x", Duration.ofMillis(100));
        queue.addAfter("x", Duration.ofSeconds(1));

        step(Duration.ofMillis(100), 0);
        assertThat(queue.len()).isEqualTo(1);
    }

    @Test
    void zeroDelayAddsImmediatelyAndCountsARetry() {
        queue.addAfter("x", Duration.ZERO);

        assertThat(queue.len()).isEqualTo(1);
        assertThat(queue.waitingCount()).isZero();
        assertThat(retries()).isEqualTo(1);
    }

    @Test
    void negativeDelayAddsImmediately() {
        queue.addAfter("x", Duration.ofSeconds(-5));
        assertThat(queue.len()).isEqualTo(1);
    }

    @Test
    void everyAddAfterCountsARetryWhateverTheDelay() {
        queue.addAfter("x", Duration.ofSeconds(1));
        queue.addAfter("x", Duration.ofSeconds(2));
        queue.addAfter("y", Duration.ZERO);
        assertThat(retries()).isEqualTo(3);
    }

    @Test
    void itemsBecomeReadyInTheOrderOfTheirReadyTimes() {
        queue.addAfter("c", Duration.ofMillis(30));
        queue.addAfter("a", Duration.ofMillis(10));
        queue.addAfter("b", Duration.ofMillis(20));

        step(Duration.ofMillis(30), 0);

        assertThat(queue.get()).contains("a");
        assertThat(queue.get()).contains("b");
        assertThat(queue.get()).contains("c");
    }

    @Test
    void waitingLoopWakesForAnEarlierItemAddedWhileItSleeps() {
        queue.addAfter("late", Duration.ofSeconds(5));
        assertThat(ticker.awaitWaiters(1, Duration.ofSeconds(5))).isTrue();
        queue.addAfter("early", Duration.ofMillis(5));

        step(Duration.ofMillis(5), 1);

        assertThat(queue.get()).contains("early");
    }

    @Test
    void plainAddDoesNotCancelAPendingDelayedAdd() {
        queue.addAfter("x", Duration.ofSeconds(1));
        queue.add("x");
        assertThat(queue.get()).contains("x");
        queue.done("x");

        step(Duration.ofSeconds(1), 0);

        assertThat(queue.get()).contains("x");
    }

    @Test
    void delayedItemThatIsAlreadyQueuedIsNotQueuedTwice() {
        queue.addAfter("x", Duration.ofMillis(10));
        queue.add("x");
        step(Duration.ofMillis(10), 0);
        assertThat(queue.len()).isEqualTo(1);
    }

    @Test
    void realTickerDelaysByRealTime() throws Exception {
        try (DelayingQueue<String> real = DelayingQueue.create()) {
            long start = System.nanoTime();
            real.addAfter("x", Duration.ofMillis(30));
            assertThat(real.get()).contains("x");
            assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(30));
        }
    }

    @Test
    void addAfterIsIgnoredOnceShuttingDown() {
        queue.shutDown();
        queue.addAfter("x", Duration.ZERO);
        queue.addAfter("y", Duration.ofMillis(1));
        assertThat(queue.len()).isZero();
        assertThat(queue.waitingCount()).isZero();
        assertThat(retries()).isZero();
    }

    @Test
    void shutDownStopsTheWaitingLoopThreadAndDropsWaitingItems() {
        AtomicInteger threads = new AtomicInteger();
        DefaultDelayingQueue<String> q =
                (DefaultDelayingQueue<String>) DelayingQueue.<String>create(WorkQueueOptions.builder()
                        .ticker(ticker)
                        .threadFactory(r -> {
                            threads.incrementAndGet();
                            return Thread.ofPlatform()
                                    .daemon()
                                    .name("loop-under-test")
                                    .unstarted(r);
                        })
                        .build());
        q.addAfter("x", Duration.ofHours(1));
        assertThat(q.loopThread().isAlive()).isTrue();

        q.shutDown();

        assertThat(q.loopThread().isAlive()).as("joined by shutDown").isFalse();
        assertThat(threads).hasValue(1);
        assertThat(q.waitingCount()).isZero();
        assertThat(q.get()).isEmpty();
    }

    @Test
    void shutDownWithDrainAlsoStopsTheWaitingLoop() {
        queue.addAfter("x", Duration.ofHours(1));
        queue.shutDownWithDrain();
        assertThat(queue.loopThread().isAlive()).isFalse();
    }

    @Test
    void hugeDelaysDoNotOverflow() {
        queue.addAfter("x", Duration.ofSeconds(Long.MAX_VALUE));
        queue.addAfter("y", Duration.ofMillis(1));
        step(Duration.ofMillis(1), 1);
        assertThat(queue.get()).contains("y");
    }
}
