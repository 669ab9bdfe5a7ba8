package io.kubeloop.workqueue;

import io.micrometer.core.instrument.MeterRegistry;
import java.util.Objects;

/**
 * Where a queue reports its metrics: nowhere ({@link #none()}, the default, with zero cost on the
 * hot path) or a Micrometer registry ({@link #micrometer(MeterRegistry)}).
 *
 * <p>With Micrometer, a queue named {@code N} registers these meters, tagged {@code name=N}; the
 * names in parentheses are what a Prometheus registry exports, identical to client-go's:
 * <ul>
 *   <li>{@code workqueue.depth} ({@code workqueue_depth}): items added and not yet handed out,
 *       counting an item added again while it is processed;</li>
 *   <li>{@code workqueue.adds} ({@code workqueue_adds_total}): effective adds (repeated adds of a
 *       dirty item are not counted);</li>
 *   <li>{@code workqueue.queue.duration} ({@code workqueue_queue_duration_seconds}): time from
 *       the add that made an item dirty to the {@code get} that handed it out;</li>
 *   <li>{@code workqueue.work.duration} ({@code workqueue_work_duration_seconds}): time from
 *       {@code get} to {@code done};</li>
 *   <li>{@code workqueue.unfinished.work} ({@code workqueue_unfinished_work_seconds}): the sum of
 *       the ages of all items being processed;</li>
 *   <li>{@code workqueue.longest.running.processor}
 *       ({@code workqueue_longest_running_processor_seconds}): the age of the oldest item being
 *       processed;</li>
 *   <li>{@code workqueue.retries} ({@code workqueue_retries_total}): calls of
 *       {@code addAfter}/{@code addRateLimited} on a running queue, whatever the delay.</li>
 * </ul>
 * The two durations are histograms with client-go's buckets (10 ns to 10 s, ×10 each); being
 * Micrometer timers, they also export a {@code _max} series (the longest recent duration), which
 * client-go has not. The two
 * "unfinished" gauges are computed when the registry reads them (client-go refreshes them every
 * 500 ms), so they cost nothing between scrapes. Only named queues may report metrics, and a name
 * must be unique per registry: a second queue with the same name would share the counters and
 * not be seen by the gauges.
 *
 * <p><b>Thread safety:</b> values are immutable and may be shared by any number of queues.
 *
 * @see <a href="https://github.com/kubernetes/client-go/blob/master/util/workqueue/metrics.go">client-go metrics.go</a>
 */
public sealed interface MetricsProvider permits MetricsProvider.None, MetricsProvider.Micrometer {

    /**
     * Returns the provider that reports nothing and costs nothing: the queue reads no clock and
     * touches no meter on its hot path. Thread-safe (a constant).
     *
     * @return the no-op provider
     */
    static MetricsProvider none() {
        return None.INSTANCE;
    }

    /**
     * Returns a provider registering the meters described above in {@code registry}. Thread-safe;
     * the provider is an immutable value.
     *
     * @param registry where to register; not null
     * @return the provider
     */
    static MetricsProvider micrometer(MeterRegistry registry) {
        return new Micrometer(registry);
    }

    /** No metrics. */
    enum None implements MetricsProvider {
        /** The only instance. */
        INSTANCE
    }

    /**
     * Metrics through Micrometer.
     *
     * @param registry the registry meters go to; not null
     */
    record Micrometer(MeterRegistry registry) implements MetricsProvider {
        /** Rejects a null registry. */
        public Micrometer {
            Objects.requireNonNull(registry, "registry");
        }
    }
}
