package io.kubeloop.workqueue;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The work-queue example of docs/workqueues.md, run: a failing key is retried, then forgotten; and a
 * check that the document's worker loop is still the one this test runs.
 */
class WorkQueueDocExampleTest {

    record Key(String namespace, String name) {}

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
                WorkQueueOptions.builder().name("foos").build());

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

        Awaitility.await().until(() -> log.size() == 3);
        assertThat(queue.numRequeues(new Key("default", "foo"))).isZero();
        queue.shutDownWithDrain();
        worker.join();
        assertThat(log).containsExactly("foo", "foo", "foo");
    }

    /**
     * Every statement of the worker loop in docs/workqueues.md (from creating the queue to joining the worker;
     * comments and blank lines aside) appears in this file, whitespace ignored, so the document cannot drift from
     * the code this test runs.
     */
    @Test
    void theDocumentedWorkerLoopIsTheCodeThisTestRuns() throws IOException {
        String doc = Files.readString(Path.of("..", "docs", "workqueues.md"));
        int start = doc.indexOf("RateLimitingQueue<Key> queue");
        assertThat(start).as("the worker loop in docs/workqueues.md").isNotNegative();
        int end = doc.indexOf("worker.join();", start);
        assertThat(end).as("the end of the worker loop").isGreaterThan(start);
        String block = doc.substring(start, end + "worker.join();".length());
        String here = Files.readString(Path.of("src/test/java/io/kubeloop/workqueue/WorkQueueDocExampleTest.java"))
                .replaceAll("\\s+", "");
        List<String> statements = block.lines()
                .map(line -> line.replaceAll("//.*$", "").replaceAll("\\s+", ""))
                .filter(line -> !line.isEmpty())
                .toList();
        assertThat(statements).hasSizeGreaterThan(10);
        assertThat(statements)
                .allSatisfy(line ->
                        assertThat(here).as("docs/workqueues.md line %s", line).contains(line));
    }
}
