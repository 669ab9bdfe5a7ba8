package io.kubeloop.controller;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The live view's hot keys: the slowest by their last reconcile, the most retried by the failures in a
 * row their queue counts now (a key that succeeded again is not listed), five of each at most, among a
 * bounded set of recently reconciled keys.
 */
class RecentKeysTest {

    private final RecentKeys recent = new RecentKeys();

    private static long millis(long ms) {
        return Duration.ofMillis(ms).toNanos();
    }

    @Test
    void theSlowestByTheirLastReconcileAndTheMostRetriedNow() {
        recent.reconciled(Request.of("ns", "a"), millis(5), 0);
        recent.reconciled(Request.of("ns", "b"), millis(900), 0);
        recent.reconciled(Request.of("ns", "c"), millis(40), 3);
        recent.reconciled(Request.of("ns", "d"), millis(1), 1);
        recent.reconciled(Request.of("ns", "b"), millis(2), 0); // b is fast now

        HotKeys hot = recent.hot();

        assertThat(hot.slowest()).extracting(k -> k.request().name()).containsExactly("c", "a", "b", "d");
        assertThat(hot.mostRetried()).extracting(k -> k.request().name()).containsExactly("c", "d");
        assertThat(hot.mostRetried().getFirst().retries()).isEqualTo(3);

        recent.reconciled(Request.of("ns", "c"), millis(3), 0); // succeeded: forgotten by its queue
        assertThat(recent.hot().mostRetried())
                .extracting(k -> k.request().name())
                .containsExactly("d");
    }

    @Test
    void atMostFiveOfEachAmongABoundedNumberOfRecentKeys() {
        for (int i = 0; i < RecentKeys.CAPACITY + 100; i++) {
            recent.reconciled(Request.of("ns", "k" + i), millis(i < 100 ? 10_000 : 1), 1);
        }

        HotKeys hot = recent.hot();

        assertThat(hot.slowest()).hasSize(HotKeys.LIMIT);
        assertThat(hot.mostRetried()).hasSize(HotKeys.LIMIT);
        assertThat(hot.slowest())
                .as("the 100 slow keys were reconciled longest ago and forgotten")
                .allMatch(k -> k.lastReconcile().equals(Duration.ofMillis(1)));
    }
}
