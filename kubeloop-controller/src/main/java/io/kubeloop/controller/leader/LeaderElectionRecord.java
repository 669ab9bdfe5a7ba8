package io.kubeloop.controller.leader;

import java.time.Instant;

/**
 * What a Lease's spec says about its holder ({@code holderIdentity}, {@code leaseDurationSeconds},
 * {@code acquireTime}, {@code renewTime}, {@code leaseTransitions}).
 *
 * @param holderIdentity the holder, {@code ""} when released
 * @param leaseDurationSeconds how long the holder's claim lasts after a renewal
 * @param acquireTime when the holder acquired it
 * @param renewTime when the holder last renewed it
 * @param leaseTransitions how many times the holder changed
 */
public record LeaderElectionRecord(
        String holderIdentity,
        int leaseDurationSeconds,
        Instant acquireTime,
        Instant renewTime,
        int leaseTransitions) {}
