package io.kubeloop.controller;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubeloop.client.KubeClient;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A manager's state as other threads see it. No controller here watches anything, so the client
 * never reaches its (absent) API server.
 */
@Timeout(60)
class ManagerStateTest {

    private final KubeClient client = UnreachableClient.create();
    private Manager manager;

    @AfterEach
    void close() {
        if (manager != null) {
            manager.close();
        }
        client.close();
    }

    /**
     * A thread that polls {@link Manager#isLeader()} in a tight loop — long enough for the JIT to
     * compile the loop — sees the start another thread makes.
     */
    @Test
    void aThreadPollingIsLeaderSeesTheStartMadeOnAnotherThread() throws Exception {
        manager = Manager.create(client);
        Manager polled = manager;
        CountDownLatch polling = new CountDownLatch(1);
        CountDownLatch sawLeader = new CountDownLatch(1);
        Thread poller = Thread.ofPlatform().daemon().name("is-leader-poller").start(() -> {
            polling.countDown();
            while (!polled.isLeader()) {
                // nothing but the read
            }
            sawLeader.countDown();
        });
        polling.await();
        Thread.sleep(Duration.ofSeconds(2)); // the loop gets compiled meanwhile
        assertThat(sawLeader.getCount()).as("leader before start").isEqualTo(1);

        manager.start();

        assertThat(sawLeader.await(10, TimeUnit.SECONDS))
                .as("the polling thread saw the start")
                .isTrue();
        poller.join(Duration.ofSeconds(1));
    }
}
