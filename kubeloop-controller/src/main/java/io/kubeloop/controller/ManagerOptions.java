package io.kubeloop.controller;

import io.kubeloop.controller.leader.LeaderElectionConfig;
import java.net.InetSocketAddress;
import java.util.Objects;
import java.util.Optional;

/**
 * How a {@link Manager} runs: leader election, and where it serves metrics and health probes
 * (controller-runtime's {@code manager.Options}). Every part is off by default — no leader
 * election, no metrics server, no probe server — so a manager in a test binds nothing.
 *
 * @param leaderElection the Lease and timings, or empty to run the controllers at once
 * @param metricsAddress where to serve {@code /metrics} (Prometheus text), or empty for none;
 *     port 0 picks a free port ({@link Manager#metricsAddress()} tells which)
 * @param healthProbeAddress where to serve {@code /healthz} and {@code /readyz}, or empty for none
 */
public record ManagerOptions(Optional<LeaderElectionConfig> leaderElection, Optional<InetSocketAddress> metricsAddress,
                             Optional<InetSocketAddress> healthProbeAddress) {

    public ManagerOptions {
        Objects.requireNonNull(leaderElection, "leaderElection");
        Objects.requireNonNull(metricsAddress, "metricsAddress");
        Objects.requireNonNull(healthProbeAddress, "healthProbeAddress");
    }

    /** No leader election, no servers. */
    public static ManagerOptions defaults() {
        return new ManagerOptions(Optional.empty(), Optional.empty(), Optional.empty());
    }

    /** These options with leader election on {@code config}'s Lease. */
    public ManagerOptions withLeaderElection(LeaderElectionConfig config) {
        return new ManagerOptions(Optional.of(config), metricsAddress, healthProbeAddress);
    }

    /** These options serving metrics on {@code address} (e.g. {@code new InetSocketAddress(8080)}). */
    public ManagerOptions withMetricsAddress(InetSocketAddress address) {
        return new ManagerOptions(leaderElection, Optional.of(address), healthProbeAddress);
    }

    /** These options serving health probes on {@code address} (e.g. {@code new InetSocketAddress(8081)}). */
    public ManagerOptions withHealthProbeAddress(InetSocketAddress address) {
        return new ManagerOptions(leaderElection, metricsAddress, Optional.of(address));
    }
}
