package io.kubeloop.time.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kubeloop.time.Ticker;
import io.kubeloop.time.testing.FakeTicker;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class WaitersTest {

    private final FakeTicker ticker = new FakeTicker();
    private final Waiters waiters = new Waiters();
    private final AtomicBoolean done = new AtomicBoolean();

    @Test
    void aWaiterEndsWhenTheConditionIsMadeTrueAndWakeAllIsCalled() throws Exception {
        CompletableFuture<Boolean> result = awaitAsync(Duration.ofMinutes(1));
        ticker.awaitWaiters(1);
        done.set(true);
        waiters.wakeAll();
        assertThat(result.get(5, TimeUnit.SECONDS)).isTrue();
        assertThat(waiters.size()).isZero();
    }

    @Test
    void aWaiterEndsFalseWhenTheTickerReachesTheDeadline() throws Exception {
        CompletableFuture<Boolean> result = awaitAsync(Duration.ofMinutes(1));
        ticker.awaitWaiters(1);
        ticker.step(Duration.ofSeconds(59));
        assertThat(ticker.awaitWaiters(1, Duration.ofMillis(50))).isTrue();
        assertThat(result).isNotDone();
        ticker.step(Duration.ofSeconds(1));
        assertThat(result.get(5, TimeUnit.SECONDS)).isFalse();
    }

    @Test
    void aConditionAlreadyTrueEndsTheWaitAtOnce() {
        done.set(true);
        assertThat(waiters.await(ticker, Long.MAX_VALUE, done::get)).isTrue();
        assertThat(ticker.hasWaiters()).isFalse();
    }

    @Test
    void anInterruptEndsTheWaitAndKeepsTheFlag() {
        Thread.currentThread().interrupt();
        try {
            assertThat(waiters.await(ticker, Long.MAX_VALUE, done::get)).isFalse();
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
        } finally {
            Thread.interrupted();
        }
    }

    @Test
    void theInterruptibleWaitThrows() {
        Thread.currentThread().interrupt();
        assertThatThrownBy(() -> waiters.awaitInterruptibly(ticker, Long.MAX_VALUE, done::get))
                .isInstanceOf(InterruptedException.class);
        assertThat(Thread.currentThread().isInterrupted()).isFalse();
    }

    @Test
    void withTheSystemTickerATimeoutIsRealTime() {
        long start = System.nanoTime();
        assertThat(waiters.await(Ticker.system(), Duration.ofMillis(20), done::get))
                .isFalse();
        assertThat(System.nanoTime() - start)
                .isGreaterThanOrEqualTo(Duration.ofMillis(20).toNanos());
    }

    private CompletableFuture<Boolean> awaitAsync(Duration timeout) {
        return CompletableFuture.supplyAsync(
                () -> waiters.await(ticker, timeout, done::get),
                r -> Thread.ofPlatform().daemon().start(r));
    }
}
