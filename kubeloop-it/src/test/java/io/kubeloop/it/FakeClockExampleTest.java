package io.kubeloop.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubeloop.time.testing.FakeTicker;
import io.kubeloop.workqueue.RateLimiter;
import io.kubeloop.workqueue.RateLimitingQueue;
import io.kubeloop.workqueue.WorkQueueOptions;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The example of "Testing with a fake clock" in the kubeloop-testing documentation, as it is printed. */
@Timeout(30)
class FakeClockExampleTest {

    @Test
    void aDelayedItemIsDueOnlyWhenTheTestStepsTheTicker() {
        FakeTicker ticker = new FakeTicker();
        RateLimitingQueue<String> queue = RateLimitingQueue.create(
                RateLimiter.defaultControllerRateLimiter(ticker),
                WorkQueueOptions.builder().name("example").ticker(ticker).build());
        queue.addAfter("retry", Duration.ofMinutes(5));
        ticker.awaitWaiters(1); // the queue's timer is parked on the ticker
        assertThat(queue.len()).isZero(); // nothing is due ...
        ticker.step(Duration.ofMinutes(5)); // ... until the test says five minutes have passed
        assertThat(queue.get()).contains("retry");
        queue.shutDown();
    }
}
