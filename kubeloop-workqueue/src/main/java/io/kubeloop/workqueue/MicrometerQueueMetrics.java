package io.kubeloop.workqueue;

import io.kubeloop.time.Ticker;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * {@link QueueMetrics} through Micrometer, with client-go's metric names and meanings (see
 * {@link MetricsProvider}).
 *
 * <p><b>Thread safety:</b> hooks use Micrometer's thread-safe meters and a {@link LongAdder}; the
 * in-flight gauges iterate a snapshot of the queue's entries taken under the queue's lock, and read
 * entry fields written under that lock.
 */
final class MicrometerQueueMetrics implements QueueMetrics {

    /** client-go's histogram buckets: 10 ns, 100 ns, ... 10 s. */
    private static final Duration[] BUCKETS = buckets();

    private final Ticker ticker;
    private final Iterable<? extends QueueEntry<?>> entries;
    private final LongAdder depth = new LongAdder();
    private final Counter adds;
    private final Timer queueDuration;
    private final Timer workDuration;
    private final Counter retries;

    /**
     * Registers the meters of one queue.
     *
     * @param name the queue's name, the value of the {@code name} tag
     * @param ticker the queue's ticker, for ages and durations
     * @param registry where to register
     * @param entries gives a snapshot of the queue's entries each time it is iterated
     */
    MicrometerQueueMetrics(
            String name, Ticker ticker, MeterRegistry registry, Iterable<? extends QueueEntry<?>> entries) {
        this.ticker = ticker;
        this.entries = entries;
        Tags tags = Tags.of("name", name);
        Gauge.builder("workqueue.depth", depth, LongAdder::doubleValue)
                .description("Current depth of workqueue")
                .tags(tags)
                .strongReference(true)
                .register(registry);
        adds = Counter.builder("workqueue.adds")
                .description("Total number of adds handled by workqueue")
                .tags(tags)
                .register(registry);
        queueDuration = Timer.builder("workqueue.queue.duration")
                .description("How long an item stays in workqueue before being requested")
                .tags(tags)
                .serviceLevelObjectives(BUCKETS)
                .register(registry);
        workDuration = Timer.builder("workqueue.work.duration")
                .description("How long processing an item from workqueue takes")
                .tags(tags)
                .serviceLevelObjectives(BUCKETS)
                .register(registry);
        Gauge.builder("workqueue.unfinished.work", this, MicrometerQueueMetrics::unfinishedWorkSeconds)
                .description("How many seconds of work has been done that is in progress and hasn't "
                        + "been observed by work_duration. Large values indicate stuck threads.")
                .baseUnit("seconds")
                .tags(tags)
                .strongReference(true)
                .register(registry);
        Gauge.builder(
                        "workqueue.longest.running.processor",
                        this,
                        MicrometerQueueMetrics::longestRunningProcessorSeconds)
                .description("How many seconds has the longest running processor for workqueue been running.")
                .baseUnit("seconds")
                .tags(tags)
                .strongReference(true)
                .register(registry);
        retries = Counter.builder("workqueue.retries")
                .description("Total number of retries handled by workqueue")
                .tags(tags)
                .register(registry);
    }

    private static Duration[] buckets() {
        Duration[] b = new Duration[10];
        long nanos = 10;
        for (int i = 0; i < b.length; i++) {
            b[i] = Duration.ofNanos(nanos);
            nanos *= 10;
        }
        return b;
    }

    @Override
    public void added(QueueEntry<?> entry) {
        entry.addedAtNanos = ticker.nanoTime();
        adds.increment();
        depth.increment();
    }

    @Override
    public void handedOut(QueueEntry<?> entry) {
        long now = ticker.nanoTime();
        depth.decrement();
        queueDuration.record(Math.max(0, now - entry.addedAtNanos), TimeUnit.NANOSECONDS);
        entry.startedAtNanos = now;
    }

    @Override
    public void done(QueueEntry<?> entry) {
        workDuration.record(Math.max(0, ticker.nanoTime() - entry.startedAtNanos), TimeUnit.NANOSECONDS);
    }

    @Override
    public void retried() {
        retries.increment();
    }

    private double unfinishedWorkSeconds() {
        long now = ticker.nanoTime();
        long total = 0;
        for (QueueEntry<?> e : entries) {
            if (inFlight(e)) {
                total += Math.max(0, now - e.startedAtNanos);
            }
        }
        return total / 1e9;
    }

    private double longestRunningProcessorSeconds() {
        long now = ticker.nanoTime();
        long oldest = 0;
        for (QueueEntry<?> e : entries) {
            if (inFlight(e)) {
                oldest = Math.max(oldest, now - e.startedAtNanos);
            }
        }
        return oldest / 1e9;
    }

    private static boolean inFlight(QueueEntry<?> e) {
        int s = e.state();
        return s == QueueEntry.PROCESSING || s == QueueEntry.PROCESSING_DIRTY;
    }
}
