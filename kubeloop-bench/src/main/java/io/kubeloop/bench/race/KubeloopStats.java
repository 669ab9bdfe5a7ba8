package io.kubeloop.bench.race;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * The kubeloop operator's own view of its work, from its Manager's metrics, for the race's console
 * output: reconciles and their mean time, work-queue adds and the mean wait in the queue. Diagnostic;
 * not part of the report's comparison (the other frameworks' operators keep no such metrics by
 * default).
 *
 * <p>Stateless; thread-safe.
 */
final class KubeloopStats {

    private KubeloopStats() {}

    /** The statistics of {@code registry} as {@code key=value} fields. */
    static String of(MeterRegistry registry) {
        double reconciles = registry.find("controller_runtime.reconcile").counters().stream()
                .mapToDouble(Counter::count)
                .sum();
        double reconcileMillis = registry.find("controller_runtime.reconcile_time").timers().stream()
                .mapToDouble(t -> t.totalTime(TimeUnit.MILLISECONDS))
                .sum();
        double adds = registry.find("workqueue.adds").counters().stream()
                .mapToDouble(Counter::count)
                .sum();
        Timer queued = registry.find("workqueue.queue.duration").timer();
        return String.format(
                Locale.ROOT,
                "reconciles=%.0f reconcile_mean_ms=%.2f queue_adds=%.0f queue_wait_mean_ms=%.1f",
                reconciles,
                reconciles == 0 ? 0 : reconcileMillis / reconciles,
                adds,
                queued == null ? Double.NaN : queued.mean(TimeUnit.MILLISECONDS));
    }
}
