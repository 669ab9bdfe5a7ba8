package io.kubeloop.workqueue;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class FailureCountsTest {

    private final FailureCounts<Integer> counts = new FailureCounts<>();

    @Test
    void incrementAnswersTheCountBeforeAndResetStartsOver() {
        assertThat(counts.increment(1)).isZero();
        assertThat(counts.increment(1)).isEqualTo(1);
        assertThat(counts.count(1)).isEqualTo(2);
        counts.reset(1);
        assertThat(counts.count(1)).isZero();
        assertThat(counts.increment(1)).isZero();
        assertThat(counts.count(2)).isZero();
        counts.reset(2); // unknown: nothing to do
        assertThat(counts.size()).isEqualTo(1);
    }

    @Test
    void resetCountersOfItemsNeverSeenAgainAreSwept() {
        int many = 16 * FailureCounts.MIN_SWEEP_SIZE;
        for (int i = 0; i < many; i++) {
            counts.increment(i);
            counts.reset(i); // the usual cycle: fail, then succeed; every item new
        }

        // twice the counters touched in one interval: the first sweep (at 2 x MIN) keeps all it
        // sees for a second chance, so the map then settles between 2 x MIN and 4 x MIN
        assertThat(counts.size())
                .as("reset counters do not pile up")
                .isLessThanOrEqualTo(4 * FailureCounts.MIN_SWEEP_SIZE);
    }

    @Test
    void aWorkingSetOfItemsThatFailAndAreForgottenAgainAndAgainStopsCostingInsertions() {
        int workingSet = 3 * FailureCounts.MIN_SWEEP_SIZE; // more than the first sweep's threshold
        for (int round = 0; round < 4; round++) {
            cycle(workingSet);
        }
        long insertedBefore = counts.insertions();

        for (int round = 0; round < 20; round++) {
            cycle(workingSet);
        }

        assertThat(counts.insertions() - insertedBefore)
                .as("counters inserted again")
                .isZero();
        assertThat(counts.size()).isEqualTo(workingSet);
    }

    private void cycle(int items) {
        for (int i = 0; i < items; i++) {
            assertThat(counts.increment(i)).as("item %d was reset", i).isZero();
            counts.reset(i);
        }
    }

    @Test
    void aCounterLeftUntouchedForAWholeIntervalIsRemoved() {
        counts.increment(-1);
        counts.reset(-1);
        int next = 0;
        // three sweeps of new items: the first gives -1 its second chance, the second removes it
        for (int sweeps = 0; sweeps < 3; sweeps++) {
            int size;
            do {
                size = counts.size();
                counts.increment(next);
                counts.reset(next++);
            } while (counts.size() > size);
        }
        long inserted = counts.insertions();

        assertThat(counts.increment(-1)).isZero();

        assertThat(counts.insertions() - inserted).as("-1 needed a new counter").isEqualTo(1);
    }

    @Test
    void aSweepKeepsEveryCounterThatIsNotZero() {
        int many = 4 * FailureCounts.MIN_SWEEP_SIZE;
        for (int i = 0; i < many; i++) {
            counts.increment(i);
            if (i % 2 == 0) {
                counts.reset(i);
            }
        }

        for (int i = 1; i < many; i += 2) {
            assertThat(counts.count(i)).as("item %d", i).isEqualTo(1);
        }
    }

    @Test
    void incrementsRacingWithResetsAndSweepsAreNeverLost() throws InterruptedException {
        int threads = 4;
        int perThread = 20_000;
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> running = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int id = t;
            running.add(Thread.ofPlatform().start(() -> {
                try {
                    go.await();
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
                for (int i = 0; i < perThread; i++) {
                    int churn = 1_000_000 + id * perThread + i; // new items: insertions, resets, sweeps
                    counts.increment(churn);
                    counts.reset(churn);
                    counts.increment(-1 - (i & 7)); // shared items, never reset
                }
            }));
        }
        go.countDown();
        for (Thread t : running) {
            t.join();
        }

        int total = 0;
        for (int k = 1; k <= 8; k++) {
            total += counts.count(-k);
        }
        assertThat(total).isEqualTo(threads * perThread);
        // 80,000 counters were inserted and reset; sweeps keep the map near their threshold (2,048
        // here), where a threshold taken from the map's size at the end of a sweep let it keep
        // 13,000 to 65,000 in about one run in eight
        assertThat(counts.size())
                .as("counters left after the churn")
                .isLessThanOrEqualTo(8 * FailureCounts.MIN_SWEEP_SIZE);
    }
}
