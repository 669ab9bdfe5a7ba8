package io.kubeloop.controller;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubeloop.client.KubeClient;
import io.kubeloop.time.testing.FakeTicker;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@link Manager#awaitTermination(Duration)} waits on the manager's ticker and is woken by the stop. */
@Timeout(30)
class ManagerTerminationTest {

    private final KubeClient client = UnreachableClient.create();
    private final FakeTicker ticker = new FakeTicker();
    private final Manager manager =
            Manager.create(client, ManagerOptions.defaults().withTicker(ticker));

    @AfterEach
    void close() {
        manager.close();
        client.close();
    }

    @Test
    void awaitTerminationTimesOutWhenTheTickerPassesTheTimeout() throws Exception {
        manager.start();
        CompletableFuture<Boolean> terminated = awaitTerminationAsync(Duration.ofMinutes(1));
        ticker.awaitWaiters(1);
        ticker.step(Duration.ofSeconds(59));
        assertThat(ticker.awaitWaiters(1, Duration.ofMillis(50))).isTrue();
        assertThat(terminated).isNotDone();
        ticker.step(Duration.ofSeconds(1));
        assertThat(terminated.get(10, TimeUnit.SECONDS)).isFalse();
    }

    @Test
    void closeEndsAWaitForTermination() throws Exception {
        manager.start();
        CompletableFuture<Boolean> terminated = awaitTerminationAsync(Duration.ofHours(1));
        ticker.awaitWaiters(1);
        manager.close();
        assertThat(terminated.get(10, TimeUnit.SECONDS)).isTrue();
    }

    private CompletableFuture<Boolean> awaitTerminationAsync(Duration timeout) {
        return CompletableFuture.supplyAsync(
                () -> {
                    try {
                        return manager.awaitTermination(timeout);
                    } catch (InterruptedException e) {
                        throw new IllegalStateException(e);
                    }
                },
                r -> Thread.ofPlatform().daemon().start(r));
    }
}
