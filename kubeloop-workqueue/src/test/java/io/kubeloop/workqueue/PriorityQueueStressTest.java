package io.kubeloop.workqueue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kubeloop.workqueue.PriorityQueue.AddOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * 4 producer and 4 worker virtual threads, 200,000 adds over 2,000 keys with random priorities, a
 * tenth of them delayed by up to 2 ms (real time). Afterwards every key added after its last
 * processing began was processed again, and no key was ever held by two workers.
 */
class PriorityQueueStressTest {

    private static final int PRODUCERS = 4;
    private static final int WORKERS = 4;
    private static final int ADDS = 200_000;
    private static final int KEYS = 2_000;

    @Test
    @Timeout(60)
    void everyKeyAddedAfterItsLastProcessingIsProcessedAgainAndNeverByTwoWorkers() throws Exception {
        PriorityQueue<Integer> queue = PriorityQueue.create(
                RateLimiter.itemExponentialFailure(Duration.ofMillis(5), Duration.ofSeconds(1000)),
                WorkQueueOptions.defaults());
        AtomicIntegerArray addSeq = new AtomicIntegerArray(KEYS);
        AtomicIntegerArray seenSeq = new AtomicIntegerArray(KEYS);
        AtomicIntegerArray holders = new AtomicIntegerArray(KEYS);
        AtomicInteger busy = new AtomicInteger();
        AtomicReference<String> violation = new AtomicReference<>();

        List<Thread> producers = new ArrayList<>();
        for (int p = 0; p < PRODUCERS; p++) {
            long seed = p;
            producers.add(Thread.ofVirtual().start(() -> {
                SplittableRandom random = new SplittableRandom(seed);
                for (int i = 0; i < ADDS / PRODUCERS; i++) {
                    int k = random.nextInt(KEYS);
                    addSeq.incrementAndGet(k);
                    AddOptions options = AddOptions.defaults().withPriority(random.nextInt(-100, 11));
                    if (random.nextInt(10) == 0) {
                        options = options.withAfter(Duration.ofNanos(random.nextLong(2_000_000)));
                    }
                    queue.addWithOptions(k, options);
                }
            }));
        }
        List<Thread> workers = new ArrayList<>();
        for (int w = 0; w < WORKERS; w++) {
            workers.add(Thread.ofVirtual().start(() -> {
                for (; ; ) {
                    Optional<Integer> item = queue.get();
                    if (item.isEmpty()) {
                        return;
                    }
                    busy.incrementAndGet();
                    int k = item.get();
                    if (!holders.compareAndSet(k, 0, 1)) {
                        violation.compareAndSet(null, "key " + k + " held by two workers");
                    }
                    seenSeq.set(k, addSeq.get(k));
                    holders.set(k, 0);
                    busy.decrementAndGet();
                    queue.done(k);
                }
            }));
        }
        for (Thread t : producers) {
            t.join();
        }
        Thread.sleep(20); // past the longest delay
        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(5))
                .until(() -> queue.len() == 0 && busy.get() == 0 && allSeen(addSeq, seenSeq));
        queue.shutDown();
        for (Thread t : workers) {
            t.join();
        }

        assertThat(violation.get()).isNull();
        int total = 0;
        for (int k = 0; k < KEYS; k++) {
            total += addSeq.get(k);
            assertThat(seenSeq.get(k))
                    .as("key %d: adds started vs. seen by its last processing", k)
                    .isEqualTo(addSeq.get(k));
        }
        assertThat(total).isEqualTo(ADDS);
    }

    private static boolean allSeen(AtomicIntegerArray added, AtomicIntegerArray seen) {
        for (int k = 0; k < added.length(); k++) {
            if (seen.get(k) != added.get(k)) {
                return false;
            }
        }
        return true;
    }
}
