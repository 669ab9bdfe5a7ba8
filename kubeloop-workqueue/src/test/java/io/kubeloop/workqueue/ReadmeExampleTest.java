package io.kubeloop.workqueue;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The README example of "Work queues", compiled and run: a failing key is retried, then forgotten. */
class ReadmeExampleTest {

    record Key(String namespace, String name) {
    }

    private final List<String> log = new CopyOnWriteArrayList<>();

    private void reconcile(Key key) {
        log.add(key.name());
        if (log.size() < 3) {
            throw new IllegalStateException("not yet");
        }
    }

    @Test
    @Timeout(10)
    void workerRetriesAFailingKeyWithBackoffThenForgetsIt() throws Exception {
        RateLimitingQueue<Key> queue = RateLimitingQueue.create(
                RateLimiter.defaultControllerRateLimiter(),
                WorkQueueConfig.builder().name("foos").build());

        queue.add(new Key("default", "foo"));

        Thread worker = Thread.ofVirtual().start(() -> {
            for (Optional<Key> next = queue.get(); next.isPresent(); next = queue.get()) {
                Key key = next.get();
                try {
                    reconcile(key);
                    queue.forget(key);
                } catch (RuntimeException e) {
                    queue.addRateLimited(key);
                } finally {
                    queue.done(key);
                }
            }
        });

        org.awaitility.Awaitility.await().until(() -> log.size() == 3);
        assertThat(queue.numRequeues(new Key("default", "foo"))).isZero();
        queue.shutDownWithDrain();
        worker.join();
        assertThat(log).containsExactly("foo", "foo", "foo");
    }
}
