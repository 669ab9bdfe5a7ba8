package io.kubeloop.controller;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

/**
 * The meter registry of a {@link Manager} and the JVM meters bound to it. Its one job is to choose the
 * registry — a Prometheus one when micrometer-registry-prometheus is there, else an in-memory
 * {@link SimpleMeterRegistry} — and to bind, then release, the JVM's meters.
 *
 * <p>Invariants: one registry per manager, made once and never replaced; the GC listener bound by
 * {@link #bindJvm()} is removed by {@link #close()}.
 *
 * <p><b>Thread safety:</b> the registry is thread-safe; {@link #bindJvm()} and {@link #close()} are
 * each called once, by the manager's constructor and its stop. Package-private: it needs
 * {@link PrometheusMetrics}.
 */
final class ManagerMeters implements AutoCloseable {

    /** A Prometheus registry when micrometer-registry-prometheus is there, else a simple one; never both. */
    private final MeterRegistry registry =
            PrometheusMetrics.AVAILABLE ? PrometheusMetrics.newRegistry() : inMemoryRegistry();
    /** Listens to GC notifications until closed. */
    private final JvmGcMetrics gcMetrics = new JvmGcMetrics();

    MeterRegistry registry() {
        return registry;
    }

    /** Binds the JVM's memory, GC, thread, processor and uptime meters to the registry. */
    void bindJvm() {
        new JvmMemoryMetrics().bindTo(registry);
        gcMetrics.bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
    }

    /** Stops listening to GC notifications. */
    @Override
    public void close() {
        gcMetrics.close();
    }

    /**
     * A simple registry without the per-bucket gauges it would derive from histograms: it names
     * buckets in seconds with six decimals, so client-go's 10 ns and 100 ns queue buckets would both
     * be "le=0" (one dropped, with a warning), and nothing scrapes an in-memory registry anyway.
     */
    private static MeterRegistry inMemoryRegistry() {
        SimpleMeterRegistry simple = new SimpleMeterRegistry();
        simple.config()
                .meterFilter(MeterFilter.deny(
                        id -> id.getType() == Meter.Type.GAUGE && id.getName().endsWith(".histogram")));
        return simple;
    }
}
