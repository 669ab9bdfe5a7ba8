package io.kubeloop.controller;

import io.kubeloop.controller.client.CacheOptions;
import io.kubeloop.controller.leader.LeaderElectionOptions;
import io.kubeloop.controller.rbac.AccessRecorder;
import io.kubeloop.time.Durations;
import io.kubeloop.time.Ticker;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * How a {@link Manager} runs: leader election, and where it serves metrics and health probes
 * (controller-runtime's {@code manager.Options}). Every part is off by default — no leader
 * election, no metrics server, no probe server — so a manager in a test binds nothing.
 *
 * {@snippet :
 * ManagerOptions options = ManagerOptions.defaults()
 *         .withLeaderElection(LeaderElectionOptions.defaults("ns", "foo-lock", id))
 *         .withMetricsAddress(new InetSocketAddress(8080))
 *         .withHealthProbeAddress(new InetSocketAddress(8081));
 * }
 *
 * <p>The parts:
 * <ul>
 *   <li>{@link #leaderElection()}: the Lease and timings, or none to run the controllers at once;</li>
 *   <li>{@link #metricsAddress()}: where to serve {@code /metrics} (Prometheus text; needs
 *       {@code io.micrometer:micrometer-registry-prometheus}, see {@link Manager}), or none; port 0
 *       picks a free port ({@link ManagerEndpoints#metricsAddress()} tells which);</li>
 *   <li>{@link #healthProbeAddress()}: where to serve {@code /healthz} and {@code /readyz}, or none;</li>
 *   <li>{@link #ticker()}: the clock of everything the manager runs: its informers (back-off, resync,
 *       cache-sync timeouts), its leader election (in place of the {@link LeaderElectionOptions}'s own
 *       ticker) and {@link Manager#awaitTermination(java.time.Duration)}; default the system ticker;</li>
 *   <li>{@link #accessRecorder()}: a recorder noting every request of the manager's client (its
 *       informers, reconcilers' writes, Events, leader election), to compare with
 *       {@link Manager#permissions()}; or none (the default).</li>
 * </ul>
 *
 * <p>Immutable and thread-safe; every {@code with…} method returns a changed copy. Equal when all
 * parts are equal.
 */
public final class ManagerOptions {

    private static final ManagerOptions DEFAULTS = new ManagerOptions(
            null, null, null, Ticker.system(), CacheOptions.defaults(), Duration.ofSeconds(30), null);

    private final LeaderElectionOptions leaderElection;
    private final InetSocketAddress metricsAddress;
    private final InetSocketAddress healthProbeAddress;
    private final Ticker ticker;
    private final CacheOptions cache;
    private final Duration gracefulShutdownTimeout;
    private final AccessRecorder accessRecorder;

    private ManagerOptions(
            LeaderElectionOptions leaderElection,
            InetSocketAddress metricsAddress,
            InetSocketAddress healthProbeAddress,
            Ticker ticker,
            CacheOptions cache,
            Duration gracefulShutdownTimeout,
            AccessRecorder accessRecorder) {
        this.accessRecorder = accessRecorder;
        this.leaderElection = leaderElection;
        this.metricsAddress = metricsAddress;
        this.healthProbeAddress = healthProbeAddress;
        this.ticker = Objects.requireNonNull(ticker, "ticker");
        this.cache = Objects.requireNonNull(cache, "cache");
        this.gracefulShutdownTimeout = Objects.requireNonNull(gracefulShutdownTimeout, "gracefulShutdownTimeout");
        if (gracefulShutdownTimeout.isNegative()) {
            throw new IllegalArgumentException(
                    "gracefulShutdownTimeout must not be negative, got " + Durations.format(gracefulShutdownTimeout));
        }
    }

    /** No leader election, no servers, the system ticker. */
    public static ManagerOptions defaults() {
        return DEFAULTS;
    }

    /** A builder holding the {@link #defaults()}. */
    public static Builder builder() {
        return new Builder(DEFAULTS);
    }

    /** A builder holding these options. */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /** The Lease and timings of leader election; empty to run the controllers at once. */
    public Optional<LeaderElectionOptions> leaderElection() {
        return Optional.ofNullable(leaderElection);
    }

    /** Where {@code /metrics} is served; empty for nowhere. */
    public Optional<InetSocketAddress> metricsAddress() {
        return Optional.ofNullable(metricsAddress);
    }

    /** Where {@code /healthz} and {@code /readyz} are served; empty for nowhere. */
    public Optional<InetSocketAddress> healthProbeAddress() {
        return Optional.ofNullable(healthProbeAddress);
    }

    /** The clock of everything the manager runs. */
    public Ticker ticker() {
        return ticker;
    }

    /** These options with leader election on {@code config}'s Lease. */
    /** What the manager's cache holds; by default every object of every type used, in all namespaces. */
    public CacheOptions cache() {
        return cache;
    }

    /**
     * How long closing the manager waits for the reconciles it cancelled to end (controller-runtime's
     * {@code GracefulShutdownTimeout}); default 30 seconds. Controllers built with
     * {@code ControllerBuilder.build(manager, …)} take it unless their options set another.
     */
    public Duration gracefulShutdownTimeout() {
        return gracefulShutdownTimeout;
    }

    /**
     * The recorder noting every request the manager's client sends; empty for none (the default).
     * See {@link io.kubeloop.controller.rbac.AccessRecorder}.
     */
    public Optional<AccessRecorder> accessRecorder() {
        return Optional.ofNullable(accessRecorder);
    }

    /**
     * These options with every request of the manager's client noted by {@code recorder}.
     *
     * @param recorder the recorder
     * @return new options
     */
    public ManagerOptions withAccessRecorder(AccessRecorder recorder) {
        return toBuilder()
                .accessRecorder(Objects.requireNonNull(recorder, "recorder"))
                .build();
    }

    /**
     * These options with the cache scoped by {@code cache}.
     *
     * @param cache what the cache holds
     * @return new options
     */
    public ManagerOptions withCache(CacheOptions cache) {
        return toBuilder().cache(cache).build();
    }

    /**
     * These options with another graceful shutdown timeout.
     *
     * @param timeout zero or more
     * @return new options
     */
    public ManagerOptions withGracefulShutdownTimeout(Duration timeout) {
        return toBuilder().gracefulShutdownTimeout(timeout).build();
    }

    public ManagerOptions withLeaderElection(LeaderElectionOptions config) {
        return toBuilder()
                .leaderElection(Objects.requireNonNull(config, "config"))
                .build();
    }

    /** These options serving metrics on {@code address} (e.g. {@code new InetSocketAddress(8080)}). */
    public ManagerOptions withMetricsAddress(InetSocketAddress address) {
        return toBuilder()
                .metricsAddress(Objects.requireNonNull(address, "address"))
                .build();
    }

    /** These options serving health probes on {@code address} (e.g. {@code new InetSocketAddress(8081)}). */
    public ManagerOptions withHealthProbeAddress(InetSocketAddress address) {
        return toBuilder()
                .healthProbeAddress(Objects.requireNonNull(address, "address"))
                .build();
    }

    /** These options on another clock (tests pass an {@code io.kubeloop.time.testing.FakeTicker}). */
    public ManagerOptions withTicker(Ticker newTicker) {
        return toBuilder().ticker(newTicker).build();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ManagerOptions other
                && Objects.equals(leaderElection, other.leaderElection)
                && Objects.equals(metricsAddress, other.metricsAddress)
                && Objects.equals(healthProbeAddress, other.healthProbeAddress)
                && ticker.equals(other.ticker)
                && cache.equals(other.cache)
                && gracefulShutdownTimeout.equals(other.gracefulShutdownTimeout)
                && Objects.equals(accessRecorder, other.accessRecorder);
    }

    @Override
    public int hashCode() {
        return Objects.hash(
                leaderElection,
                metricsAddress,
                healthProbeAddress,
                ticker,
                cache,
                gracefulShutdownTimeout,
                accessRecorder);
    }

    @Override
    public String toString() {
        return "ManagerOptions[leaderElection=" + leaderElection + ", metricsAddress=" + metricsAddress
                + ", healthProbeAddress=" + healthProbeAddress + ", ticker=" + ticker + ", cache=" + cache
                + ", gracefulShutdownTimeout=" + gracefulShutdownTimeout + ", accessRecorder=" + accessRecorder + "]";
    }

    /** Builds {@link ManagerOptions}; a null part is "none". Not thread-safe. */
    public static final class Builder {
        private LeaderElectionOptions leaderElection;
        private InetSocketAddress metricsAddress;
        private InetSocketAddress healthProbeAddress;
        private Ticker ticker;
        private CacheOptions cache;
        private Duration gracefulShutdownTimeout;
        private AccessRecorder accessRecorder;

        private Builder(ManagerOptions from) {
            this.accessRecorder = from.accessRecorder;
            this.cache = from.cache;
            this.gracefulShutdownTimeout = from.gracefulShutdownTimeout;
            this.leaderElection = from.leaderElection;
            this.metricsAddress = from.metricsAddress;
            this.healthProbeAddress = from.healthProbeAddress;
            this.ticker = from.ticker;
        }

        /**
         * Leader election on {@code config}'s Lease; null (the default) for none.
         *
         * @param config the Lease and timings, or null
         * @return this builder
         */
        public Builder leaderElection(LeaderElectionOptions config) {
            this.leaderElection = config;
            return this;
        }

        /**
         * Where to serve {@code /metrics}; null (the default) for nowhere.
         *
         * @param address the address, or null
         * @return this builder
         */
        public Builder metricsAddress(InetSocketAddress address) {
            this.metricsAddress = address;
            return this;
        }

        /**
         * Where to serve {@code /healthz} and {@code /readyz}; null (the default) for nowhere.
         *
         * @param address the address, or null
         * @return this builder
         */
        public Builder healthProbeAddress(InetSocketAddress address) {
            this.healthProbeAddress = address;
            return this;
        }

        /**
         * The clock of everything the manager runs; default {@link Ticker#system()}.
         *
         * @param ticker the ticker
         * @return this builder
         */
        public Builder ticker(Ticker ticker) {
            this.ticker = Objects.requireNonNull(ticker, "ticker");
            return this;
        }

        /** The options. */
        /**
         * What the manager's cache holds.
         *
         * @param cache the cache's scope
         * @return this builder
         */
        public Builder cache(CacheOptions cache) {
            this.cache = Objects.requireNonNull(cache, "cache");
            return this;
        }

        /**
         * How long closing waits for cancelled reconciles.
         *
         * @param timeout zero or more
         * @return this builder
         */
        public Builder gracefulShutdownTimeout(Duration timeout) {
            this.gracefulShutdownTimeout = Objects.requireNonNull(timeout, "timeout");
            return this;
        }

        /**
         * The recorder noting every request of the manager's client; null (the default) for none.
         *
         * @param recorder the recorder, or null
         * @return this builder
         */
        public Builder accessRecorder(AccessRecorder recorder) {
            this.accessRecorder = recorder;
            return this;
        }

        public ManagerOptions build() {
            return new ManagerOptions(
                    leaderElection,
                    metricsAddress,
                    healthProbeAddress,
                    ticker,
                    cache,
                    gracefulShutdownTimeout,
                    accessRecorder);
        }
    }
}
