package io.kubeloop.workqueue;

import io.kubeloop.time.Ticker;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Objects;
import java.util.concurrent.ThreadFactory;

/**
 * How a queue is built: its name, time source, metrics and the thread factory of a delaying queue's
 * waiting loop. Immutable; derive variants with {@link #toBuilder()}.
 *
 * <p>Defaults ({@link #defaults()}): no name, {@link Ticker#system()}, {@link MetricsProvider#none()},
 * and a factory of virtual threads named {@code workqueue-delaying-loop}.
 *
 * <p><b>Thread safety:</b> immutable; the builder is not thread-safe.
 *
 * @param name the queue's name, the {@code name} label of its metrics; empty for an unnamed queue;
 *     must not be blank unless empty, and must not be empty when metrics are on (client-go reports
 *     metrics only for named queues)
 * @param ticker the time source for delays and metrics
 * @param metrics where metrics go
 * @param threadFactory creates the single waiting-loop thread of each delaying queue; the thread
 *     does not run user code
 */
public record WorkQueueOptions(String name, Ticker ticker, MetricsProvider metrics, ThreadFactory threadFactory) {

    /** Validates the configuration; see the record components for the rules. */
    public WorkQueueOptions {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(ticker, "ticker");
        Objects.requireNonNull(metrics, "metrics");
        Objects.requireNonNull(threadFactory, "threadFactory");
        if (!name.isEmpty() && name.isBlank()) {
            throw new IllegalArgumentException("work queue name must not be blank");
        }
        if (name.isEmpty() && metrics instanceof MetricsProvider.Micrometer) {
            throw new IllegalArgumentException("work queue metrics need a queue name (set WorkQueueOptions.name)");
        }
    }

    /**
     * Returns the default configuration (see the class comment).
     *
     * @return the defaults
     */
    public static WorkQueueOptions defaults() {
        return builder().build();
    }

    /**
     * Returns a builder holding the defaults.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Returns a builder holding this configuration's values.
     *
     * @return a new builder
     */
    public Builder toBuilder() {
        return new Builder().name(name).ticker(ticker).metrics(metrics).threadFactory(threadFactory);
    }

    /** Builds a {@link WorkQueueOptions}; single-threaded use only. */
    public static final class Builder {
        private String name = "";
        private Ticker ticker = Ticker.system();
        private MetricsProvider metrics = MetricsProvider.none();
        private ThreadFactory threadFactory;

        private Builder() {}

        /**
         * Sets the queue name (metrics label).
         *
         * @param name the name
         * @return this builder
         */
        public Builder name(String name) {
            this.name = name;
            return this;
        }

        /**
         * Sets the time source.
         *
         * @param ticker the ticker
         * @return this builder
         */
        public Builder ticker(Ticker ticker) {
            this.ticker = ticker;
            return this;
        }

        /**
         * Sets where metrics go.
         *
         * @param metrics the provider
         * @return this builder
         */
        public Builder metrics(MetricsProvider metrics) {
            this.metrics = metrics;
            return this;
        }

        /**
         * Shorthand for {@code metrics(MetricsProvider.micrometer(registry))}.
         *
         * @param registry the registry
         * @return this builder
         */
        public Builder meterRegistry(MeterRegistry registry) {
            return metrics(MetricsProvider.micrometer(registry));
        }

        /**
         * Sets the factory of the delaying loop's thread.
         *
         * @param threadFactory the factory
         * @return this builder
         */
        public Builder threadFactory(ThreadFactory threadFactory) {
            this.threadFactory = threadFactory;
            return this;
        }

        /**
         * Builds the configuration.
         *
         * @return the configuration
         * @throws IllegalArgumentException if the values break a rule stated on {@link WorkQueueOptions}
         */
        public WorkQueueOptions build() {
            ThreadFactory factory = threadFactory != null
                    ? threadFactory
                    : Thread.ofVirtual().name("workqueue-delaying-loop").factory();
            return new WorkQueueOptions(name, ticker, metrics, factory);
        }
    }

    /** Creates the hot-path metrics hooks this configuration asks for. */
    QueueMetrics newQueueMetrics(Iterable<? extends QueueEntry<?>> entries) {
        return switch (metrics) {
            case MetricsProvider.None none -> QueueMetrics.NOOP;
            case MetricsProvider.Micrometer m -> new MicrometerQueueMetrics(name, ticker, m.registry(), entries);
        };
    }
}
