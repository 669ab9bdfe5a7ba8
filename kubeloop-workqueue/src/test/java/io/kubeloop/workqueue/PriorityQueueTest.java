package io.kubeloop.workqueue;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubeloop.time.testing.FakeTicker;
import io.kubeloop.workqueue.PriorityQueue.AddOptions;
import io.kubeloop.workqueue.PriorityQueue.Prioritized;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** controller-runtime's priority queue: higher priority first, FIFO within a priority, delays and rate limits as the plain queue's, on a fake ticker. */
@Timeout(30)
class PriorityQueueTest {

    private final FakeTicker ticker = new FakeTicker();
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final PriorityQueue<String> queue = PriorityQueue.create(
            RateLimiter.itemExponentialFailure(Duration.ofMillis(5), Duration.ofSeconds(1000)),
            WorkQueueOptions.builder()
                    .name("pq")
                    .ticker(ticker)
                    .meterRegistry(registry)
                    .build());

    @AfterEach
    void close() {
        queue.close();
    }

    private Prioritized<String> take() {
        return queue.getWithPriority().orElseThrow();
    }

    @Test
    void theHighestPriorityGoesFirstAndEqualsInTheOrderAdded() {
        queue.addWithOptions("low-1", AddOptions.defaults().withPriority(PriorityQueue.LOW_PRIORITY));
        queue.add("normal-1");
        queue.addWithOptions("low-2", AddOptions.defaults().withPriority(PriorityQueue.LOW_PRIORITY));
        queue.addWithOptions("high", AddOptions.defaults().withPriority(10));
        queue.add("normal-2");

        assertThat(queue.len()).isEqualTo(5);
        assertThat(take()).isEqualTo(new Prioritized<>("high", 10));
        assertThat(take().item()).isEqualTo("normal-1");
        assertThat(take().item()).isEqualTo("normal-2");
        assertThat(take()).isEqualTo(new Prioritized<>("low-1", PriorityQueue.LOW_PRIORITY));
        assertThat(take().item()).isEqualTo("low-2");
    }

    @Test
    void addingAQueuedItemAgainKeepsOneEntryAtTheHigherPriority() {
        queue.addWithOptions("a", AddOptions.defaults().withPriority(PriorityQueue.LOW_PRIORITY));
        queue.add("b");
        queue.add("a"); // raised to 0, keeps its place in the order added
        queue.addWithOptions("a", AddOptions.defaults().withPriority(PriorityQueue.LOW_PRIORITY)); // not lowered

        assertThat(queue.len()).isEqualTo(2);
        assertThat(take()).isEqualTo(new Prioritized<>("a", 0));
        assertThat(take().item()).isEqualTo("b");
        assertThat(registry.get("workqueue.adds").counter().count())
                .as("effective adds")
                .isEqualTo(2);
    }

    @Test
    void aPlainAddOfAWaitingItemMakesItReadyNowAndTheEarliestTimeWins() {
        queue.addAfter("a", Duration.ofSeconds(10));
        queue.addAfter("a", Duration.ofSeconds(20)); // later: ignored
        assertThat(queue.len()).isZero();
        queue.addAfter("a", Duration.ofSeconds(5)); // earlier: wins
        ticker.step(Duration.ofSeconds(5));
        assertThat(queue.len()).isEqualTo(1);
        assertThat(take().item()).isEqualTo("a");
        queue.done("a");

        queue.addAfter("b", Duration.ofSeconds(10));
        queue.add("b"); // the client-go queue would hand it out now and again in 10 s
        assertThat(take().item()).isEqualTo("b");
        queue.done("b");
        ticker.step(Duration.ofSeconds(10));
        assertThat(queue.len())
                .as("the delay was dropped, not kept as a second entry")
                .isZero();
    }

    @Test
    void aWorkerWaitingForADelayedItemGetsItWhenItsTimeComes() throws Exception {
        queue.addAfter("later", Duration.ofMillis(200));
        CompletableFuture<Optional<String>> got = CompletableFuture.supplyAsync(queue::get);
        assertThat(ticker.awaitWaiters(1, Duration.ofSeconds(5)))
                .as("the timer waits for the ready time")
                .isTrue();
        ticker.step(Duration.ofMillis(199));
        assertThat(ticker.awaitWaiters(1, Duration.ofSeconds(5))).isTrue();
        assertThat(got).isNotDone();
        ticker.step(Duration.ofMillis(1));
        assertThat(got.get(10, TimeUnit.SECONDS)).hasValue("later");
    }

    @Test
    void anItemAddedWhileInFlightWaitsForDoneThenGoesOutAgain() throws Exception {
        queue.add("a");
        queue.add("b");
        assertThat(take().item()).isEqualTo("a");
        queue.addWithOptions("a", AddOptions.defaults().withPriority(50));

        assertThat(take().item())
                .as("a is in flight: skipped, though first by priority")
                .isEqualTo("b");
        CompletableFuture<Optional<String>> next = CompletableFuture.supplyAsync(queue::get);
        Thread.sleep(100);
        assertThat(next).as("nothing else to hand out while a is in flight").isNotDone();
        queue.done("a");
        assertThat(next.get(10, TimeUnit.SECONDS)).hasValue("a");
    }

    @Test
    void rateLimitedAddsBackOffPerItemAndForgetResets() {
        queue.addRateLimited("a");
        assertThat(queue.numRequeues("a")).isEqualTo(1);
        assertThat(queue.len()).isZero();
        ticker.step(Duration.ofMillis(5));
        assertThat(take().item()).isEqualTo("a");
        queue.done("a");
        queue.addRateLimited("a");
        ticker.step(Duration.ofMillis(9));
        assertThat(queue.len()).as("second back-off is 10 ms").isZero();
        ticker.step(Duration.ofMillis(1));
        assertThat(queue.len()).isEqualTo(1);
        queue.forget("a");
        assertThat(queue.numRequeues("a")).isZero();
        assertThat(registry.get("workqueue.retries").counter().count()).isEqualTo(2);
    }

    @Test
    void shutDownDoesNotDrainAndLaterAddsAreIgnored() throws Exception {
        queue.add("a");
        queue.add("b");
        CompletableFuture<Optional<String>> waiting;
        assertThat(take().item()).isEqualTo("a");
        queue.shutDown();
        assertThat(queue.isShuttingDown()).isTrue();
        assertThat(queue.get())
                .as("b is dropped: no drain, as controller-runtime")
                .isEmpty();
        queue.add("c");
        waiting = CompletableFuture.supplyAsync(queue::get);
        assertThat(waiting.get(10, TimeUnit.SECONDS)).isEmpty();
        queue.done("a");
    }

    @Test
    void metricsFollowTheWorkQueuesNames() {
        queue.add("a");
        assertThat(registry.get("workqueue.depth").tag("name", "pq").gauge().value())
                .isEqualTo(1);
        take();
        assertThat(registry.get("workqueue.depth").gauge().value()).isZero();
        assertThat(registry.get("workqueue.longest.running.processor").gauge().value())
                .isGreaterThanOrEqualTo(0);
        ticker.step(Duration.ofSeconds(3));
        assertThat(registry.get("workqueue.unfinished.work").gauge().value()).isEqualTo(3.0);
        queue.done("a");
        assertThat(registry.get("workqueue.unfinished.work").gauge().value()).isZero();
        assertThat(registry.get("workqueue.work.duration").timer().count()).isEqualTo(1);
    }
}
