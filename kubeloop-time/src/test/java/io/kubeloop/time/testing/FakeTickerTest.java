package io.kubeloop.time.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class FakeTickerTest {

    private final FakeTicker ticker = new FakeTicker();

    @Test
    void stepWakesAThreadWhoseDeadlineIsReachedAndNotOneWhoseDeadlineIsLater() throws Exception {
        long start = ticker.nanoTime();
        CompletableFuture<Void> early = parkUntilReached(start + 100);
        CompletableFuture<Void> late = parkUntilReached(start + 1_000);
        assertThat(ticker.awaitWaiters(2, Duration.ofSeconds(5))).isTrue();

        ticker.step(Duration.ofNanos(100));
        early.get(5, TimeUnit.SECONDS);
        assertThat(ticker.waiters()).isEqualTo(1);
        assertThat(late).isNotDone();

        ticker.step(Duration.ofNanos(900));
        late.get(5, TimeUnit.SECONDS);
        assertThat(ticker.waiters()).isZero();
        assertThat(ticker.nanoTime() - start).isEqualTo(1_000);
    }

    @Test
    void parkUntilAPassedDeadlineReturnsAtOnce() {
        ticker.parkUntil(ticker.nanoTime());
        assertThat(ticker.waiters()).isZero();
    }

    @Test
    void stepRejectsANegativeDuration() {
        assertThatThrownBy(() -> ticker.step(Duration.ofNanos(-1))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void stepSaturatesInsteadOfOverflowing() {
        ticker.step(Duration.ofSeconds(Long.MAX_VALUE));
        ticker.step(Duration.ofDays(1));
        assertThat(ticker.nanoTime()).isEqualTo(Long.MAX_VALUE);
    }

    /**
     * The {@link io.kubeloop.time.Ticker#parkUntil} contract: a thread that holds an unpark permit
     * returns at once. A queue's waiting loop relies on it: {@code shutDown} sets a flag and unparks
     * the loop, which may be between its last look at the flag and its park. Were the fake to wait
     * for a lock while registering the parking thread, a contended lock (another thread stepping)
     * would use up the permit, and the thread would then park until a step reached its deadline — a
     * shutdown that never returns.
     */
    @Test
    void aPermitGivenBeforeParkUntilIsNotLostWhileOtherThreadsStep() throws Exception {
        AtomicBoolean stop = new AtomicBoolean();
        Thread[] steppers = new Thread[2];
        for (int i = 0; i < steppers.length; i++) {
            steppers[i] = Thread.ofPlatform().daemon().start(() -> {
                while (!stop.get()) {
                    ticker.step(Duration.ZERO);
                    ticker.waiters();
                }
            });
        }
        CompletableFuture<Integer> parks = new CompletableFuture<>();
        Thread parker = Thread.ofPlatform().daemon().start(() -> {
            int i = 0;
            for (; i < 200_000; i++) {
                LockSupport.unpark(Thread.currentThread());
                ticker.parkUntil(Long.MAX_VALUE);
            }
            parks.complete(i);
        });
        try {
            assertThat(parks.get(20, TimeUnit.SECONDS))
                    .as("every park returned on its permit")
                    .isEqualTo(200_000);
        } finally {
            stop.set(true);
            for (Thread t : steppers) {
                t.join();
            }
            LockSupport.unpark(parker);
            parker.join(Duration.ofSeconds(5));
        }
    }

    @Test
    void stepMovesTheWallClockWithTheMonotonicClock() {
        FakeTicker t = new FakeTicker(Instant.parse("2030-05-01T10:00:00Z"));
        long start = t.nanoTime();
        t.step(Duration.ofMinutes(3));
        assertThat(t.instant()).isEqualTo(Instant.parse("2030-05-01T10:03:00Z"));
        assertThat(t.nanoTime() - start).isEqualTo(Duration.ofMinutes(3).toNanos());
        assertThat(t.millis()).isEqualTo(t.instant().toEpochMilli());
    }

    @Test
    void setTimeForwardStepsBothClocksAndWakesDueWaiters() throws Exception {
        long start = ticker.nanoTime();
        CompletableFuture<Void> parked =
                parkUntilReached(start + Duration.ofSeconds(10).toNanos());
        ticker.awaitWaiters(1);

        ticker.setTime(ticker.instant().plusSeconds(10));

        parked.get(5, TimeUnit.SECONDS);
        assertThat(ticker.nanoTime() - start).isEqualTo(Duration.ofSeconds(10).toNanos());
    }

    @Test
    void setTimeBackwardMovesOnlyTheWallClock() {
        long start = ticker.nanoTime();
        Instant before = ticker.instant();
        ticker.setTime(before.minusSeconds(60));
        assertThat(ticker.instant()).isEqualTo(before.minusSeconds(60));
        assertThat(ticker.nanoTime()).isEqualTo(start);
    }

    @Test
    void sleepReturnsWhenAStepCoversItsDurationAndIsRecorded() throws Exception {
        CompletableFuture<Void> slept = CompletableFuture.runAsync(
                () -> {
                    try {
                        ticker.sleep(Duration.ofSeconds(5));
                    } catch (InterruptedException e) {
                        throw new IllegalStateException(e);
                    }
                },
                r -> Thread.ofPlatform().daemon().start(r));
        ticker.awaitSleeps(1);
        ticker.awaitWaiters(1);
        assertThat(ticker.hasWaiters()).isTrue();
        assertThat(ticker.waiterDeadlines()).containsExactly(Duration.ofSeconds(5));

        ticker.step(Duration.ofSeconds(4));
        assertThat(ticker.awaitWaiters(1, Duration.ofMillis(50))).isTrue();
        assertThat(slept).isNotDone();

        ticker.step(Duration.ofSeconds(1));
        slept.get(5, TimeUnit.SECONDS);
        assertThat(ticker.hasWaiters()).isFalse();
        assertThat(ticker.sleeps()).containsExactly(Duration.ofSeconds(5));
    }

    @Test
    void sleepEndsWithInterruptedExceptionWhenTheThreadIsInterrupted() throws Exception {
        CompletableFuture<Boolean> interrupted = new CompletableFuture<>();
        Thread sleeper = Thread.ofPlatform().daemon().start(() -> {
            try {
                ticker.sleep(Duration.ofHours(1));
                interrupted.complete(false);
            } catch (InterruptedException e) {
                interrupted.complete(true);
            }
        });
        ticker.awaitWaiters(1);
        sleeper.interrupt();
        assertThat(interrupted.get(5, TimeUnit.SECONDS)).isTrue();
        assertThat(ticker.hasWaiters()).isFalse();
    }

    @Test
    void anAutoAdvancingTickerStepsOnSleepInsteadOfBlocking() throws InterruptedException {
        FakeTicker auto = FakeTicker.autoAdvancing();
        long start = auto.nanoTime();
        auto.sleep(Duration.ofSeconds(2));
        auto.sleep(Duration.ZERO);
        auto.sleep(Duration.ofMillis(500));
        assertThat(auto.nanoTime() - start).isEqualTo(Duration.ofMillis(2_500).toNanos());
        assertThat(auto.sleeps()).containsExactly(Duration.ofSeconds(2), Duration.ZERO, Duration.ofMillis(500));
    }

    @Test
    void awaitWaitersGivesUpAfterItsRealTimeout() {
        assertThat(ticker.awaitWaiters(1, Duration.ofMillis(20))).isFalse();
        assertThat(ticker.awaitSleeps(1, Duration.ofMillis(20))).isFalse();
    }

    private CompletableFuture<Void> parkUntilReached(long deadline) {
        return CompletableFuture.runAsync(
                () -> {
                    while (ticker.nanoTime() - deadline < 0) {
                        ticker.parkUntil(deadline);
                    }
                },
                r -> Thread.ofPlatform().daemon().start(r));
    }
}
