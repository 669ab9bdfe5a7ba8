package io.kubeloop.workqueue;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The README example of "Work queues", compiled and run: a failing key is retried, then forgotten; and
 * a check that the README's block still says what this test runs.
 */
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

    /**
     * Every statement of the README's Java block (comments, imports and blank lines aside) appears in
     * this file, whitespace ignored, so the README cannot drift from the code this test compiles.
     */
    @Test
    void theReadmeBlockIsTheCodeThisTestRuns() throws IOException {
        String readme = Files.readString(Path.of("..", "README.md"));
        int section = readme.indexOf("## Work queues (kubeloop-workqueue)");
        assertThat(section).as("README section").isNotNegative();
        int start = readme.indexOf("```java\n", section) + "```java\n".length();
        String block = readme.substring(start, readme.indexOf("```", start));
        String here = Files.readString(Path.of("src/test/java/io/kubeloop/workqueue/ReadmeExampleTest.java"))
                .replaceAll("\\s+", "");
        List<String> statements = block.lines()
                .map(line -> line.replaceAll("//.*$", "").replaceAll("\\s+", ""))
                .filter(line -> !line.isEmpty() && !line.startsWith("import"))
                .toList();
        assertThat(statements).hasSizeGreaterThan(10);
        assertThat(statements).allSatisfy(line -> assertThat(here).as("README line %s", line).contains(line));
    }
}
