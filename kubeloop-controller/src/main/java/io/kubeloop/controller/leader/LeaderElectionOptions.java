package io.kubeloop.controller.leader;

import io.kubeloop.time.Durations;
import io.kubeloop.time.Ticker;
import java.time.Duration;
import java.util.Objects;

/**
 * How a {@link LeaderElector} competes for a Lease ({@code coordination.k8s.io/v1}), with
 * controller-runtime's defaults: lease duration 15 s, renew deadline 10 s, retry period 2 s, no
 * release on stop, the system ticker.
 *
 * <p>Immutable and thread-safe.
 *
 * @param namespace the Lease's namespace
 * @param name the Lease's name (the election's ID)
 * @param identity this candidate's identity, unique among candidates (controller-runtime uses
 *     {@code <hostname>_<uuid>})
 * @param leaseDuration how long a Lease is valid after its holder last renewed it, as seen by the
 *     other candidates (measured on their own clocks from when they saw the renewal)
 * @param renewDeadline how long the leader keeps trying to renew before it gives up leadership
 * @param retryPeriod how often candidates try to acquire and the leader renews
 * @param releaseOnStop whether {@link LeaderElector#stop()} hands the Lease back (holder
 *     {@code ""}), so another candidate takes over at once instead of after {@code leaseDuration}
 * @param ticker the clock of the election: the retry and renew waits and the lease's validity
 *     (monotonic), the Lease's acquire and renew times (wall clock)
 */
public record LeaderElectionOptions(
        String namespace,
        String name,
        String identity,
        Duration leaseDuration,
        Duration renewDeadline,
        Duration retryPeriod,
        boolean releaseOnStop,
        Ticker ticker) {

    /** Validates: names not blank; leaseDuration > renewDeadline > 1.2 × retryPeriod > 0 (client-go's rule). */
    public LeaderElectionOptions {
        for (var e : new String[][] {{"namespace", namespace}, {"name", name}, {"identity", identity}}) {
            if (e[1] == null || e[1].isBlank()) {
                throw new IllegalArgumentException("leader election needs a " + e[0]);
            }
        }
        Objects.requireNonNull(leaseDuration, "leaseDuration");
        Objects.requireNonNull(renewDeadline, "renewDeadline");
        Objects.requireNonNull(retryPeriod, "retryPeriod");
        Objects.requireNonNull(ticker, "ticker");
        if (!retryPeriod.isPositive()) {
            throw new IllegalArgumentException("retryPeriod must be positive, got " + Durations.format(retryPeriod));
        }
        if (leaseDuration.compareTo(renewDeadline) <= 0) {
            throw new IllegalArgumentException("leaseDuration (" + Durations.format(leaseDuration)
                    + ") must be greater than renewDeadline (" + Durations.format(renewDeadline) + ")");
        }
        if (renewDeadline.toNanos() <= retryPeriod.toNanos() * 12 / 10) {
            throw new IllegalArgumentException("renewDeadline (" + Durations.format(renewDeadline)
                    + ") must be greater than 1.2 × retryPeriod (" + Durations.format(retryPeriod) + ")");
        }
    }

    /**
     * A configuration on the system ticker.
     *
     * @param namespace the Lease's namespace
     * @param name the Lease's name
     * @param identity this candidate's identity
     * @param leaseDuration the lease duration
     * @param renewDeadline the renew deadline
     * @param retryPeriod the retry period
     * @param releaseOnStop whether {@link LeaderElector#stop()} hands the Lease back
     */
    public LeaderElectionOptions(
            String namespace,
            String name,
            String identity,
            Duration leaseDuration,
            Duration renewDeadline,
            Duration retryPeriod,
            boolean releaseOnStop) {
        this(namespace, name, identity, leaseDuration, renewDeadline, retryPeriod, releaseOnStop, Ticker.system());
    }

    /**
     * The defaults for a Lease {@code namespace/name} and a candidate {@code identity}.
     *
     * @param namespace the Lease's namespace
     * @param name the Lease's name
     * @param identity this candidate's identity
     * @return the configuration
     */
    public static LeaderElectionOptions defaults(String namespace, String name, String identity) {
        return new LeaderElectionOptions(
                namespace,
                name,
                identity,
                Duration.ofSeconds(15),
                Duration.ofSeconds(10),
                Duration.ofSeconds(2),
                false);
    }

    /**
     * These settings with other timings.
     *
     * @param leaseDuration the lease duration
     * @param renewDeadline the renew deadline
     * @param retryPeriod the retry period
     * @return a new configuration
     */
    public LeaderElectionOptions withTimings(Duration leaseDuration, Duration renewDeadline, Duration retryPeriod) {
        return new LeaderElectionOptions(
                namespace, name, identity, leaseDuration, renewDeadline, retryPeriod, releaseOnStop, ticker);
    }

    /**
     * These settings, releasing the Lease on stop or not.
     *
     * @param release whether to release
     * @return a new configuration
     */
    public LeaderElectionOptions withReleaseOnStop(boolean release) {
        return new LeaderElectionOptions(
                namespace, name, identity, leaseDuration, renewDeadline, retryPeriod, release, ticker);
    }

    /**
     * These settings on another clock.
     *
     * @param ticker the clock; tests pass an {@code io.kubeloop.time.testing.FakeTicker}
     * @return a new configuration
     */
    public LeaderElectionOptions withTicker(Ticker ticker) {
        return new LeaderElectionOptions(
                namespace, name, identity, leaseDuration, renewDeadline, retryPeriod, releaseOnStop, ticker);
    }
}
