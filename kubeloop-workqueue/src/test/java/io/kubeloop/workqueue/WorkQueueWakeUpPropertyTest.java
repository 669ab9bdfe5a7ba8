package io.kubeloop.workqueue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReference;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * Lost wake-ups. Workers start on an empty queue, so they park in {@code get}. First, in bursts,
 * producers add one item each at the same time and every item must reach a worker while the
 * queue is running (a lost signal leaves it queued behind parked workers). Then the producers'
 * adds race each other and a shutdown: every worker must come back (nobody stays parked after
 * the shutdown), no item may be handed out twice, every add that returned before the shutdown
 * began must be handed out, and nothing may stay queued once the workers have left.
 */
class WorkQueueWakeUpPropertyTest {

    private static final int ITEMS_PER_PRODUCER = 200;
    private static final int BURSTS = 20;

    @Property(tries = 40)
    void parkedGettersNeverMissAnAddNorTheShutdown(
            @ForAll @IntRange(min = 1, max = 6) int workers,
            @ForAll @IntRange(min = 1, max = 4) int producers,
            @ForAll @IntRange(min = BURSTS, max = ITEMS_PER_PRODUCER) int shutDownAfter)
            throws Exception {
        DefaultWorkQueue<Integer> queue = new DefaultWorkQueue<>(WorkQueueOptions.defaults());
        int items = producers * ITEMS_PER_PRODUCER;
        AtomicIntegerArray handedOut = new AtomicIntegerArray(items);
        AtomicIntegerArray addedBeforeShutDown = new AtomicIntegerArray(items);
        AtomicBoolean shutDownBegun = new AtomicBoolean();
        AtomicInteger handedOutTotal = new AtomicInteger();
        AtomicReference<String> violation = new AtomicReference<>();

        List<Thread> workerThreads = new ArrayList<>();
        for (int w = 0; w < workers; w++) {
            workerThreads.add(Thread.ofVirtual().start(() -> {
                for (Optional<Integer> got = queue.get(); got.isPresent(); got = queue.get()) {
                    int x = got.get();
                    if (handedOut.incrementAndGet(x) != 1) {
                        violation.compareAndSet(null, "item " + x + " handed out twice");
                    }
                    handedOutTotal.incrementAndGet();
                    queue.done(x);
                }
            }));
        }
        for (Thread t : workerThreads) { // let every worker park on the empty queue first
            await().pollDelay(Duration.ZERO)
                    .pollInterval(Duration.ofMillis(1))
                    .atMost(Duration.ofSeconds(5))
                    .until(() -> t.getState() == Thread.State.WAITING);
        }

        for (int burst = 0; burst < BURSTS; burst++) {
            int first = burst;
            List<Thread> adders = new ArrayList<>();
            for (int p = 0; p < producers; p++) {
                int x = p * ITEMS_PER_PRODUCER + first;
                adders.add(Thread.ofVirtual().start(() -> {
                    queue.add(x);
                    addedBeforeShutDown.set(x, 1);
                }));
            }
            for (Thread t : adders) {
                t.join();
            }
            int expected = (burst + 1) * producers;
            await().pollDelay(Duration.ZERO)
                    .pollInterval(Duration.ofMillis(1))
                    .atMost(Duration.ofSeconds(5))
                    .alias("burst " + burst + " reached the parked workers")
                    .until(() -> handedOutTotal.get() == expected);
        }

        CountDownLatch go = new CountDownLatch(1);
        List<Thread> producerThreads = new ArrayList<>();
        for (int p = 0; p < producers; p++) {
            int base = p * ITEMS_PER_PRODUCER;
            boolean shutsDown = p == 0;
            producerThreads.add(Thread.ofVirtual().start(() -> {
                awaitQuietly(go);
                for (int i = BURSTS; i < ITEMS_PER_PRODUCER; i++) {
                    if (shutsDown && i == shutDownAfter) {
                        shutDownBegun.set(true);
                        queue.shutDown();
                    }
                    queue.add(base + i);
                    if (!shutDownBegun.get()) {
                        addedBeforeShutDown.set(base + i, 1);
                    }
                }
                if (shutsDown && shutDownAfter == ITEMS_PER_PRODUCER) {
                    shutDownBegun.set(true);
                    queue.shutDown();
                }
            }));
        }
        go.countDown();
        for (Thread t : producerThreads) {
            t.join();
        }
        for (Thread t : workerThreads) {
            assertThat(t.join(Duration.ofSeconds(10)))
                    .as("worker returned after the shutdown")
                    .isTrue();
        }

        assertThat(violation.get()).isNull();
        for (int x = 0; x < items; x++) {
            if (addedBeforeShutDown.get(x) == 1) {
                assertThat(handedOut.get(x))
                        .as("item %d added before the shutdown", x)
                        .isEqualTo(1);
            }
        }
        assertThat(queue.len()).isZero();
        assertThat(queue.inFlight()).isZero();
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            if (!latch.await(10, TimeUnit.SECONDS)) {
                throw new IllegalStateException("start signal not given");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
