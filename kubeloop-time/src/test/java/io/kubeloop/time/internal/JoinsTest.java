package io.kubeloop.time.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class JoinsTest {

    @Test
    void waitsThroughInterruptsAndRestoresTheFlag() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        Thread worker = Thread.ofPlatform().start(() -> {
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        AtomicBoolean flagAfter = new AtomicBoolean();
        AtomicBoolean workerAliveAfter = new AtomicBoolean(true);
        CountDownLatch joining = new CountDownLatch(1);
        Thread joiner = Thread.ofPlatform().start(() -> {
            joining.countDown();
            Joins.joinUninterruptibly(worker);
            workerAliveAfter.set(worker.isAlive());
            flagAfter.set(Thread.currentThread().isInterrupted());
        });
        joining.await();
        joiner.interrupt(); // while it joins: it must go on waiting
        joiner.interrupt();
        Thread.sleep(20);
        assertThat(joiner.isAlive()).isTrue();
        release.countDown();
        joiner.join();
        assertThat(workerAliveAfter).isFalse();
        assertThat(flagAfter).isTrue();
    }

    @Test
    void returnsAtOnceForTheCallingThreadAndForNull() {
        Joins.joinUninterruptibly(Thread.currentThread());
        Joins.joinUninterruptibly(null);
        Joins.joinAllUninterruptibly(List.of(Thread.currentThread()));
        assertThat(Thread.currentThread().isInterrupted()).isFalse();
    }

    @Test
    void joinsEveryThread() throws Exception {
        Thread a = Thread.ofVirtual().start(() -> {});
        Thread b = Thread.ofVirtual().start(() -> {});
        Joins.joinAllUninterruptibly(List.of(a, b, Thread.currentThread()));
        assertThat(a.isAlive()).isFalse();
        assertThat(b.isAlive()).isFalse();
    }
}
