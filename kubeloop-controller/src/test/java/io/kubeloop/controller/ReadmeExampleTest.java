package io.kubeloop.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The README's controller example, as written there (printing replaced by recording). */
@Timeout(30)
class ReadmeExampleTest {

    @Test
    void theReadmeExampleReconcilesTheRequestItWasGiven() {
        List<Request> seen = new CopyOnWriteArrayList<>();

        Controller controller = Controller.create(
                request -> {
                    seen.add(request);
                    return Result.done();
                },
                ControllerOptions.builder("foo-controller")
                        .maxConcurrentReconciles(4)
                        .build());
        controller.start();

        controller.queue().add(Request.of("default", "foo"));

        await().atMost(Duration.ofSeconds(10)).until(() -> !seen.isEmpty());
        controller.close();

        assertThat(seen).containsExactly(Request.of("default", "foo"));
        assertThat(seen.getFirst()).hasToString("default/foo");
    }
}
