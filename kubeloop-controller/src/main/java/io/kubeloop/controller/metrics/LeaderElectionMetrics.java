package io.kubeloop.controller.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Objects;
import java.util.function.BooleanSupplier;

/**
 * A leader election's metrics in a Micrometer registry, under client-go's name for its status:
 *
 * <ul>
 * <li>{@code leader_election_master_status} ({@code name}: the Lease's name): 1 while this process
 *     leads, else 0, read when scraped;</li>
 * <li>{@code leader_election_transitions_total} ({@code name}): how often this process started or
 *     stopped leading.</li>
 * </ul>
 *
 * A {@link io.kubeloop.controller.Manager} with leader election registers them by itself.
 *
 * <p>Thread-safe.
 */
public final class LeaderElectionMetrics {

    private final Counter transitions;

    private LeaderElectionMetrics(Counter transitions) {
        this.transitions = transitions;
    }

    /**
     * Registers the meters of the election of Lease {@code name}.
     *
     * @param leading whether this process leads now; read at each scrape, from the scraping thread
     */
    public static LeaderElectionMetrics register(MeterRegistry registry, String name, BooleanSupplier leading) {
        Objects.requireNonNull(leading, "leading");
        Gauge.builder("leader.election.master.status", leading, l -> l.getAsBoolean() ? 1 : 0)
                .description("Gauge of if the reporting system is master of the relevant lease, 0 indicates"
                        + " backup, 1 indicates master. 'name' is the string used to identify the lease.")
                .tag("name", name)
                .strongReference(true)
                .register(registry);
        return new LeaderElectionMetrics(Counter.builder("leader.election.transitions")
                .description("Times this process started or stopped leading the lease 'name'.")
                .tag("name", name)
                .register(registry));
    }

    /** This process started or stopped leading. */
    public void transitioned() {
        transitions.increment();
    }
}
