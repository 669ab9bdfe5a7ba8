package io.kubeloop.workqueue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
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
        Threads.Call<Void> early = Threads.run(() -> ticker.parkUntil(start + 100));
        Threads.Call<Void> late = Threads.run(() -> ticker.parkUntil(start + 1_000));
        assertThat(ticker.awaitParked(2, Duration.ofSeconds(5))).isTrue();

        ticker.step(Duration.ofNanos(100));
        early.result().get(5, TimeUnit.SECONDS);
        assertThat(ticker.parkedCount()).isEqualTo(1);
        assertThat(late.result()).isNotDone();

        ticker.step(Duration.ofNanos(900));
        late.result().get(5, TimeUnit.SECONDS);
        assertThat(ticker.parkedCount()).isZero();
        assertThat(ticker.nanoTime() - start).isEqualTo(1_000);
    }

    @Test
    void parkUntilAPassedDeadlineReturnsAtOnce() {
        ticker.parkUntil(ticker.nanoTime());
        assertThat(ticker.parkedCount()).isZero();
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
     * The {@link Ticker#parkUntil} contract: a thread that holds an unpark permit returns at once. A
     * queue's waiting loop relies on it: {@code shutDown} sets a flag and unparks the loop, which may
     * be between its last look at the flag and its park. The fake once registered the parking thread
     * under a lock; when that lock was contended (another thread stepping), waiting for it used up the
     * permit and the thread then parked until a step reached its deadline — a shutdown that never
     * returned (the model property test hung that way in CI).
     */
    @Test
    void aPermitGivenBeforeParkUntilIsNotLostWhileOtherThreadsStep() throws Exception {
        AtomicBoolean stop = new AtomicBoolean();
        Thread[] steppers = new Thread[2];
        for (int i = 0; i < steppers.length; i++) {
            steppers[i] = Thread.ofPlatform().daemon().start(() -> {
                while (!stop.get()) {
                    ticker.step(Duration.ZERO);
                    ticker.parkedCount();
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
            assertThat(parks.get(20, TimeUnit.SECONDS)).as("every park returned on its permit").isEqualTo(200_000);
        } finally {
            stop.set(true);
            for (Thread t : steppers) {
                t.join();
            }
            LockSupport.unpark(parker);
            parker.join(Duration.ofSeconds(5));
        }
    }
}
