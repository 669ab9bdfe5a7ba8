package io.kubeloop.workqueue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kubeloop.time.testing.FakeTicker;
import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class MetricsTest {

    private final FakeTicker ticker = new FakeTicker();
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final WorkQueue<String> queue = WorkQueue.create(WorkQueueOptions.builder()
            .name("q")
            .ticker(ticker)
            .meterRegistry(registry)
            .build());

    private double gauge(String name) {
        return registry.get(name).tag("name", "q").gauge().value();
    }

    @Test
    void prometheusScrapeShowsClientGoMetricNamesLabelledByQueueName() {
        PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        try (DelayingQueue<String> q = DelayingQueue.create(WorkQueueOptions.builder()
                .name("foos")
                .meterRegistry(prometheus)
                .build())) {
            q.add("a");
            q.get();
            q.done("a");
            q.addAfter("b", Duration.ZERO);

            String scrape = prometheus.scrape();

            assertThat(scrape)
                    .contains(
                            "workqueue_depth{name=\"foos\"} 1",
                            "workqueue_adds_total{name=\"foos\"} 2",
                            "workqueue_queue_duration_seconds_bucket{name=\"foos\",le=\"1.0E-8\"}",
                            "workqueue_queue_duration_seconds_bucket{name=\"foos\",le=\"10.0\"}",
                            "workqueue_work_duration_seconds_count{name=\"foos\"} 1",
                            "workqueue_unfinished_work_seconds{name=\"foos\"} 0",
                            "workqueue_longest_running_processor_seconds{name=\"foos\"} 0",
                            "workqueue_retries_total{name=\"foos\"} 1");
        }
    }

    @Test
    void queueAndWorkDurationsAreMeasuredWithTheTicker() {
        queue.add("x");
        ticker.step(Duration.ofSeconds(2));
        queue.get();
        ticker.step(Duration.ofSeconds(3));
        queue.done("x");

        var queued = registry.get("workqueue.queue.duration").tag("name", "q").timer();
        var work = registry.get("workqueue.work.duration").tag("name", "q").timer();
        assertThat(queued.count()).isEqualTo(1);
        assertThat(queued.totalTime(TimeUnit.SECONDS)).isEqualTo(2.0);
        assertThat(work.totalTime(TimeUnit.SECONDS)).isEqualTo(3.0);
    }

    @Test
    void unfinishedWorkSumsTheAgesOfInFlightItemsAndLongestRunningIsTheOldest() {
        queue.add("a");
        queue.add("b");
        queue.get();
        ticker.step(Duration.ofSeconds(4));
        queue.get();
        ticker.step(Duration.ofSeconds(1));

        assertThat(gauge("workqueue.unfinished.work")).isEqualTo(6.0); // 5 + 1
        assertThat(gauge("workqueue.longest.running.processor")).isEqualTo(5.0);

        queue.done("a");
        queue.done("b");
        assertThat(gauge("workqueue.unfinished.work")).isZero();
    }

    @Test
    void repeatedAddsOfADirtyItemAreNotCountedButAnAddDuringProcessingIs() {
        queue.add("x");
        queue.add("x");
        assertThat(gauge("workqueue.depth")).isEqualTo(1);
        queue.get();
        assertThat(gauge("workqueue.depth")).isZero();
        queue.add("x");
        queue.add("x");

        assertThat(registry.get("workqueue.adds").tag("name", "q").counter().count())
                .isEqualTo(2);
        assertThat(gauge("workqueue.depth"))
                .as("client-go counts the dirty item")
                .isEqualTo(1);
    }

    @Test
    void metricsNeedAQueueName() {
        assertThatThrownBy(
                        () -> WorkQueueOptions.builder().meterRegistry(registry).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("work queue metrics need a queue name (set WorkQueueOptions.name)");
    }

    @Test
    void aQueueWithoutMetricsRegistersNothingInMicrometersGlobalRegistry() {
        SimpleMeterRegistry global = new SimpleMeterRegistry();
        Metrics.addRegistry(global);
        try (RateLimitingQueue<String> q = RateLimitingQueue.create(
                RateLimiter.defaultControllerRateLimiter(),
                WorkQueueOptions.builder().name("quiet").build())) {
            q.add("x");
            q.done(q.get().orElseThrow());
            q.addAfter("y", Duration.ofHours(1));
            q.addRateLimited("z");
            q.forget("z");

            assertThat(global.getMeters()).noneMatch(m -> m.getId().getName().startsWith("workqueue"));
            assertThat(registry.find("workqueue.adds").tag("name", "quiet").counter())
                    .isNull();
        } finally {
            Metrics.removeRegistry(global);
        }
    }

    private static int clockReadsOfAddGetDone(WorkQueueOptions.Builder config, CountingTicker ticker) {
        WorkQueue<String> q = WorkQueue.create(config.ticker(ticker).build());
        try {
            int before = ticker.reads.get();
            for (int i = 0; i < 100; i++) {
                q.add("item-" + i);
                q.done(q.get().orElseThrow());
            }
            return ticker.reads.get() - before;
        } finally {
            q.shutDown();
        }
    }

    @Test
    void withoutMetricsAddGetAndDoneNeverReadTheClock() {
        CountingTicker off = new CountingTicker();
        CountingTicker on = new CountingTicker();

        int readsWithout = clockReadsOfAddGetDone(WorkQueueOptions.builder().name("off"), off);
        int readsWith =
                clockReadsOfAddGetDone(WorkQueueOptions.builder().name("on").meterRegistry(registry), on);

        assertThat(readsWithout).isZero();
        assertThat(readsWith).as("with metrics the same calls time the items").isGreaterThanOrEqualTo(300);
    }
}
