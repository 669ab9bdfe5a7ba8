package io.kubeloop.apiserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.client.KubeClient;
import io.kubeloop.client.ListOptions;
import io.kubeloop.client.ResourceClient;
import io.kubeloop.time.Ticker;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * A CronJob runs on the server's clock: a server whose clock is moved to a few seconds before a minute boundary
 * creates, at that boundary, the Job {@code <cronjob>-<minutes since the epoch>} with its scheduled time, and
 * the CronJob's status follows it from active to its last successful time.
 */
class CronJobTest {

    /** The system clock, moved forward on request so that it reads 57 s past a minute. */
    private static final class ShiftedClock implements Ticker {
        private final Ticker system = Ticker.system();
        private volatile long shiftNanos;

        /** Moves the clock forward (never back) to the next time 57 s past a minute. */
        void shiftToSecond57() {
            Instant now = instant();
            long intoMinute = now.getEpochSecond() % 60;
            long forward = (57 - intoMinute + 60) % 60;
            shiftNanos += Duration.ofSeconds(forward).toNanos();
        }

        @Override
        public long nanoTime() {
            return system.nanoTime() + shiftNanos;
        }

        @Override
        public Instant instant() {
            return system.instant().plusNanos(shiftNanos);
        }

        @Override
        public void parkUntil(long deadlineNanos) {
            system.parkUntil(deadlineNanos - shiftNanos);
        }
    }

    static final ShiftedClock CLOCK = new ShiftedClock();
    static EmbeddedApiServer server;
    static KubeClient client;

    @BeforeAll
    static void start() {
        server = EmbeddedApiServer.start(ServerOptions.defaults().withTicker(CLOCK));
        client = server.client();
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    private static String text(DynamicObject o, String pointer) {
        return o.at(pointer).map(JsonNode::asString).orElse("");
    }

    @Test
    void aCronJobCreatesItsJobAtTheScheduledMinuteAndRecordsItsSuccess() {
        ResourceClient<DynamicObject> cronJobs = client.resource("cronjobs").inNamespace("default");
        CLOCK.shiftToSecond57(); // the next minute starts about three seconds from now
        cronJobs.create(DynamicObject.parse("""
                {"apiVersion":"batch/v1","kind":"CronJob","metadata":{"name":"tick"},
                 "spec":{"schedule":"* * * * *","jobTemplate":{"spec":{"template":{
                  "metadata":{"annotations":{"sim.kubeloop.io/run-time":"200ms"}},
                  "spec":{"restartPolicy":"Never","containers":[{"name":"c","image":"busybox"}]}}}}}}
                """));
        ResourceClient<DynamicObject> jobs = client.resource("jobs").inNamespace("default");
        await().atMost(Duration.ofSeconds(70))
                .untilAsserted(
                        () -> assertThat(jobs.list(ListOptions.none()).items()).isNotEmpty());
        DynamicObject job = jobs.list(ListOptions.none()).items().getFirst();
        String scheduled = text(job, "/metadata/annotations/batch.kubernetes.io~1cronjob-scheduled-timestamp");
        assertThat(scheduled).endsWith(":00Z");
        long minutes = Instant.parse(scheduled).getEpochSecond() / 60;
        assertThat(text(job, "/metadata/name")).isEqualTo("tick-" + minutes);
        assertThat(text(job, "/metadata/ownerReferences/0/kind")).isEqualTo("CronJob");

        await().atMost(Duration.ofSeconds(70)).untilAsserted(() -> {
            DynamicObject cj = cronJobs.get("tick");
            assertThat(text(cj, "/status/lastScheduleTime")).isEqualTo(scheduled);
            assertThat(text(cj, "/status/lastSuccessfulTime")).isNotEmpty();
            assertThat(cj.at("/status/active")).isEmpty();
        });
        List<DynamicObject> all = jobs.list(ListOptions.none()).items();
        assertThat(all)
                .allSatisfy(
                        j -> assertThat(text(j, "/status/conditions/1/type")).isEqualTo("Complete"));
    }
}
