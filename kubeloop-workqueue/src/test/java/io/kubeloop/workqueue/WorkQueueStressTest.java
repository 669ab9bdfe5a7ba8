package io.kubeloop.workqueue;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * 8 producer and 8 worker virtual threads, a million adds over 10,000 keys. Afterwards every key
 * added after its last processing began was processed again, no key was ever held by two workers,
 * and nothing is left queued or in flight.
 */
class WorkQueueStressTest {

    private static final int PRODUCERS = 8;
    private static final int WORKERS = 8;
    private static final int ADDS = 1_000_000;
    private static final int KEYS = 10_000;

    @Test
    @Timeout(60)
    void everyKeyAddedAfterItsLastProcessingIsProcessedAgainAndNothingIsLeftInFlight() throws Exception {
        DefaultWorkQueue<Integer> queue = new DefaultWorkQueue<>(WorkQueueOptions.defaults());
        Integer[] keys = new Integer[KEYS];
        for (int i = 0; i < KEYS; i++) {
            keys[i] = i;
        }
        // addSeq[k]: adds of k started; seenSeq[k]: addSeq[k] read by the worker right after get.
        AtomicIntegerArray addSeq = new AtomicIntegerArray(KEYS);
        AtomicIntegerArray seenSeq = new AtomicIntegerArray(KEYS);
        AtomicIntegerArray holders = new AtomicIntegerArray(KEYS);
        AtomicReference<String> violation = new AtomicReference<>();

        List<Thread> producers = new ArrayList<>();
        for (int p = 0; p < PRODUCERS; p++) {
            long seed = p;
            producers.add(Thread.ofVirtual().name("producer-" + p).start(() -> {
                SplittableRandom random = new SplittableRandom(seed);
                for (int i = 0; i < ADDS / PRODUCERS; i++) {
                    int k = random.nextInt(KEYS);
                    addSeq.incrementAndGet(k);
                    queue.add(keys[k]);
                }
            }));
        }
        List<Thread> workers = new ArrayList<>();
        for (int w = 0; w < WORKERS; w++) {
            workers.add(Thread.ofVirtual().name("worker-" + w).start(() -> {
                for (; ; ) {
                    Optional<Integer> item = queue.get();
                    if (item.isEmpty()) {
                        return;
                    }
                    int k = item.get();
                    if (!holders.compareAndSet(k, 0, 1)) {
                        violation.compareAndSet(null, "key " + k + " held by two workers");
                    }
                    seenSeq.set(k, addSeq.get(k));
                    holders.set(k, 0);
                    queue.done(keys[k]);
                }
            }));
        }
        for (Thread t : producers) {
            t.join();
        }
        queue.shutDownWithDrain();
        for (Thread t : workers) {
            t.join();
        }

        assertThat(violation.get()).isNull();
        assertThat(queue.len()).isZero();
        assertThat(queue.inFlight()).isZero();
        int total = 0;
        for (int k = 0; k < KEYS; k++) {
            total += addSeq.get(k);
            assertThat(seenSeq.get(k))
                    .as("key %d: adds started vs. seen by its last processing", k)
                    .isEqualTo(addSeq.get(k));
        }
        assertThat(total).isEqualTo(ADDS);
    }
}
