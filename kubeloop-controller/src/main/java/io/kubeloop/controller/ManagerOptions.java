package io.kubeloop.controller;

import io.kubeloop.controller.leader.LeaderElectionConfig;
import io.kubeloop.time.Ticker;
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
 * @param ticker the clock of everything the manager runs: its informers (back-off, resync,
 *     cache-sync timeouts), its leader election (in place of the {@link LeaderElectionConfig}'s own
 *     ticker) and {@link Manager#awaitTermination(java.time.Duration)}; default the system ticker
 */
public record ManagerOptions(Optional<LeaderElectionConfig> leaderElection, Optional<InetSocketAddress> metricsAddress,
                             Optional<InetSocketAddress> healthProbeAddress, Ticker ticker) {

    public ManagerOptions {
        Objects.requireNonNull(leaderElection, "leaderElection");
        Objects.requireNonNull(metricsAddress, "metricsAddress");
        Objects.requireNonNull(healthProbeAddress, "healthProbeAddress");
        Objects.requireNonNull(ticker, "ticker");
    }

    /**
     * Options on the system ticker.
     *
     * @param leaderElection the Lease and timings, or empty to run the controllers at once
     * @param metricsAddress where to serve {@code /metrics}, or empty for none
     * @param healthProbeAddress where to serve {@code /healthz} and {@code /readyz}, or empty for none
     */
    public ManagerOptions(Optional<LeaderElectionConfig> leaderElection, Optional<InetSocketAddress> metricsAddress,
                          Optional<InetSocketAddress> healthProbeAddress) {
        this(leaderElection, metricsAddress, healthProbeAddress, Ticker.system());
    }

    /** No leader election, no servers, the system ticker. */
    public static ManagerOptions defaults() {
        return new ManagerOptions(Optional.empty(), Optional.empty(), Optional.empty());
    }

    /** These options with leader election on {@code config}'s Lease. */
    public ManagerOptions withLeaderElection(LeaderElectionConfig config) {
        return new ManagerOptions(Optional.of(config), metricsAddress, healthProbeAddress, ticker);
    }

    /** These options serving metrics on {@code address} (e.g. {@code new InetSocketAddress(8080)}). */
    public ManagerOptions withMetricsAddress(InetSocketAddress address) {
        return new ManagerOptions(leaderElection, Optional.of(address), healthProbeAddress, ticker);
    }

    /** These options serving health probes on {@code address} (e.g. {@code new InetSocketAddress(8081)}). */
    public ManagerOptions withHealthProbeAddress(InetSocketAddress address) {
        return new ManagerOptions(leaderElection, metricsAddress, Optional.of(address), ticker);
    }

    /** These options on another clock (tests pass an {@code io.kubeloop.testing.FakeTicker}). */
    public ManagerOptions withTicker(Ticker newTicker) {
        return new ManagerOptions(leaderElection, metricsAddress, healthProbeAddress, newTicker);
    }
}
