package io.kubeloop.controller;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@link ReconcileMetrics} through Micrometer, with controller-runtime's names and meanings; each
 * tagged {@code controller=<name>}. In parentheses what a Prometheus registry exports:
 * <ul>
 *   <li>{@code controller_runtime.reconcile} ({@code controller_runtime_reconcile_total}), tagged
 *       {@code result} = {@code success}, {@code error}, {@code requeue} or
 *       {@code requeue_after}: reconciles by outcome;</li>
 *   <li>{@code controller_runtime.reconcile_errors} ({@code ..._reconcile_errors_total}):
 *       reconciles that threw;</li>
 *   <li>{@code controller_runtime.terminal_reconcile_errors}
 *       ({@code ..._terminal_reconcile_errors_total}): of those, the terminal ones;</li>
 *   <li>{@code controller_runtime.reconcile_panics} ({@code ..._reconcile_panics_total}):
 *       {@link Error}s recovered;</li>
 *   <li>{@code controller_runtime.reconcile_time} ({@code ..._reconcile_time_seconds}): a
 *       histogram of reconcile durations, controller-runtime's buckets (5 ms to 60 s);</li>
 *   <li>{@code controller_runtime.max_concurrent_reconciles} and
 *       {@code controller_runtime.active_workers}: gauges of the worker count and of the workers
 *       reconciling now.</li>
 * </ul>
 * Every series is registered, at zero, when the controller is created (as controller-runtime does
 * when it starts), so a dashboard sees the controller before its first reconcile.
 *
 * <p><b>Thread safety:</b> Micrometer's meters and an {@link AtomicInteger}; safe from any thread.
 */
final class MicrometerReconcileMetrics implements ReconcileMetrics {

    private static final double[] BUCKETS_SECONDS = {
        0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.25, 1.5,
        1.75, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5, 6, 7, 8, 9, 10, 15, 20, 25, 30, 40, 50, 60
    };

    private final Map<Outcome, Counter> totals = new EnumMap<>(Outcome.class);
    private final Counter errors;
    private final Counter terminalErrors;
    private final Counter panics;
    private final Timer time;
    private final AtomicInteger active = new AtomicInteger();

    MicrometerReconcileMetrics(String controller, int workers, MeterRegistry registry) {
        Tags tags = Tags.of("controller", controller);
        for (Outcome o : Outcome.values()) {
            totals.put(
                    o,
                    Counter.builder("controller_runtime.reconcile")
                            .description("Total number of reconciliations per controller")
                            .tags(tags)
                            .tag("result", o.label)
                            .register(registry));
        }
        errors = Counter.builder("controller_runtime.reconcile_errors")
                .description("Total number of reconciliation errors per controller")
                .tags(tags)
                .register(registry);
        terminalErrors = Counter.builder("controller_runtime.terminal_reconcile_errors")
                .description("Total number of terminal reconciliation errors per controller")
                .tags(tags)
                .register(registry);
        panics = Counter.builder("controller_runtime.reconcile_panics")
                .description("Total number of reconciliation panics per controller")
                .tags(tags)
                .register(registry);
        Duration[] slos = new Duration[BUCKETS_SECONDS.length];
        for (int i = 0; i < slos.length; i++) {
            slos[i] = Duration.ofNanos(Math.round(BUCKETS_SECONDS[i] * 1e9));
        }
        time = Timer.builder("controller_runtime.reconcile_time")
                .description("Length of time per reconciliation per controller")
                .tags(tags)
                .serviceLevelObjectives(slos)
                .register(registry);
        Gauge.builder("controller_runtime.max_concurrent_reconciles", () -> workers)
                .description("Maximum number of concurrent reconciles per controller")
                .tags(tags)
                .strongReference(true)
                .register(registry);
        Gauge.builder("controller_runtime.active_workers", active, AtomicInteger::get)
                .description("Number of currently used workers per controller")
                .tags(tags)
                .strongReference(true)
                .register(registry);
    }

    @Override
    public boolean timed() {
        return true;
    }

    @Override
    public void activeWorkers(int delta) {
        active.addAndGet(delta);
    }

    @Override
    public void reconciled(Outcome outcome, long nanos) {
        totals.get(outcome).increment();
        time.record(nanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void error() {
        errors.increment();
    }

    @Override
    public void terminalError() {
        terminalErrors.increment();
    }

    @Override
    public void panic() {
        panics.increment();
    }
}
