package io.kubeloop.workqueue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class WorkQueueTest {

    private final DefaultWorkQueue<String> queue = new DefaultWorkQueue<>(WorkQueueOptions.defaults());

    @Test
    void itemAddedThreeTimesBeforeGetIsHandedOutOnce() {
        queue.add("x");
        queue.add("x");
        queue.add("x");

        assertThat(queue.len()).isEqualTo(1);
        assertThat(queue.get()).contains("x");
        assertThat(queue.len()).isZero();
        assertThat(queue.tryGet()).isEmpty();
    }

    @Test
    void itemAddedWhileProcessingIsHandedOutOnlyAfterDoneThenExactlyOnce() {
        queue.add("x");
        assertThat(queue.get()).contains("x");

        queue.add("x");
        queue.add("x");
        assertThat(queue.len()).as("not queued while processing").isZero();
        assertThat(queue.tryGet()).isEmpty();

        queue.done("x");
        assertThat(queue.len()).isEqualTo(1);
        assertThat(queue.get()).contains("x");
        queue.done("x");
        assertThat(queue.tryGet()).isEmpty();
        assertThat(queue.inFlight()).isZero();
    }

    @Test
    void itemsAreHandedOutInTheOrderTheyWereAdded() {
        for (String s : List.of("a", "b", "c", "a", "d")) {
            queue.add(s);
        }
        List<String> order = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            order.add(queue.get().orElseThrow());
        }
        assertThat(order).containsExactly("a", "b", "c", "d");
    }

    @Test
    void itemRequeuedByDoneGoesToTheBack() {
        queue.add("a");
        queue.get();
        queue.add("a");
        queue.add("b");
        queue.done("a");
        assertThat(queue.get()).contains("b");
        assertThat(queue.get()).contains("a");
    }

    @Test
    void afterShutDownAddIsIgnoredQueuedItemsAreStillReturnedThenEmpty() {
        queue.add("a");
        queue.add("b");
        queue.shutDown();
        queue.add("c");

        assertThat(queue.isShuttingDown()).isTrue();
        assertThat(queue.get()).contains("a");
        assertThat(queue.get()).contains("b");
        assertThat(queue.get()).isEmpty();
        assertThat(queue.get()).as("stays empty").isEmpty();
    }

    @Test
    void doneRequeuesAnItemAddedDuringProcessingEvenAfterShutDown() {
        queue.add("x");
        queue.get();
        queue.add("x");
        queue.shutDown();
        queue.done("x");
        assertThat(queue.get()).contains("x");
        queue.done("x");
        assertThat(queue.get()).isEmpty();
    }

    @Test
    void blockedGetWakesUpWhenAnItemIsAdded() throws Exception {
        var call = Threads.start(queue::get).awaitBlocked();
        assertThat(call.result()).isNotDone();

        queue.add("x");

        assertThat(call.result().get(5, TimeUnit.SECONDS)).contains("x");
    }

    @Test
    void everyBlockedGetReturnsEmptyOnShutDown() throws Exception {
        var first = Threads.start(queue::get).awaitBlocked();
        var second = Threads.start(queue::get).awaitBlocked();

        queue.shutDown();

        assertThat(first.result().get(5, TimeUnit.SECONDS)).isEmpty();
        assertThat(second.result().get(5, TimeUnit.SECONDS)).isEmpty();
    }

    @Test
    void interruptedGetThrowsCancellationAndKeepsTheInterruptFlag() throws Exception {
        var call = Threads.start(() -> {
                    try {
                        return queue.get();
                    } catch (CancellationException e) {
                        return Optional.of(Thread.currentThread().isInterrupted() ? "interrupted" : "flag lost");
                    }
                })
                .awaitBlocked();

        call.thread().interrupt();

        assertThat(call.result().get(5, TimeUnit.SECONDS)).contains("interrupted");
    }

    @Test
    void shutDownWithDrainReturnsOnlyAfterEveryInFlightItemIsDone() throws Exception {
        queue.add("a");
        queue.add("b");
        queue.get();
        queue.get();

        var drain = Threads.run(queue::shutDownWithDrain).awaitBlocked();
        assertThat(queue.isShuttingDown()).isTrue();
        queue.done("a");
        assertThat(drain.result()).as("b still in flight").isNotDone();
        drain.awaitBlocked();
        assertThat(drain.result()).isNotDone();

        queue.done("b");

        drain.result().get(5, TimeUnit.SECONDS);
    }

    @Test
    void shutDownWithDrainReturnsAtOnceWhenNothingIsInFlight() {
        queue.add("queued but never taken");
        queue.shutDownWithDrain();
        assertThat(queue.isShuttingDown()).isTrue();
    }

    @Test
    void shutDownEndsADrainThatWouldWaitForever() throws Exception {
        queue.add("x");
        queue.get();
        var drain = Threads.run(queue::shutDownWithDrain).awaitBlocked();

        queue.shutDown();

        drain.result().get(5, TimeUnit.SECONDS);
    }

    @Test
    void interruptedDrainThrowsCancellationAndKeepsTheInterruptFlag() throws Exception {
        queue.add("x");
        queue.get();
        var drain = Threads.start(() -> {
                    try {
                        queue.shutDownWithDrain();
                        return "returned";
                    } catch (CancellationException e) {
                        return Thread.currentThread().isInterrupted() ? "interrupted" : "flag lost";
                    }
                })
                .awaitBlocked();

        drain.thread().interrupt();

        assertThat(drain.result().get(5, TimeUnit.SECONDS)).isEqualTo("interrupted");
    }

    @Test
    void doneOfAnItemThatIsNotBeingProcessedIsIgnored() {
        queue.done("never added");
        queue.add("x");
        queue.done("x");
        assertThat(queue.len()).isEqualTo(1);
        assertThat(queue.get()).contains("x");
        assertThat(queue.tryGet()).as("not queued twice").isEmpty();
    }

    @Test
    void lenCountsQueuedItemsButNotItemsBeingProcessed() {
        queue.add("a");
        queue.add("b");
        queue.get();
        assertThat(queue.len()).isEqualTo(1);
        assertThat(queue.inFlight()).isEqualTo(1);
    }

    @Test
    void addRejectsNull() {
        assertThatThrownBy(() -> queue.add(null))
                .isInstanceOf(NullPointerException.class)
                .hasMessageContaining("must not be null");
    }

    @Test
    void closeShutsDown() {
        WorkQueue<String> q = WorkQueue.create();
        q.close();
        assertThat(q.isShuttingDown()).isTrue();
        assertThat(q.get()).isEmpty();
    }

    @Test
    void itemHandedOutIsReleasedByDoneForTheNextAdd() {
        queue.add("x");
        queue.get();
        queue.done("x");
        assertThat(queue.len()).isZero();
        queue.add("x");
        assertThat(queue.get()).contains("x");
    }
}
