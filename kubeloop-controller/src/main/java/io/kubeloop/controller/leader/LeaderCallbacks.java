package io.kubeloop.controller.leader;

/**
 * What a {@link LeaderElector} tells its owner. Every method has an empty default.
 *
 * <p><b>Threads:</b> {@link #onStartedLeading()} and {@link #onNewLeader} run on threads of their
 * own (so a slow callback cannot delay renewals); {@link #onStoppedLeading()} runs on the elector's
 * thread as its last act.
 */
public interface LeaderCallbacks {

    /** This candidate became the leader: start the leader-only work. */
    default void onStartedLeading() {}

    /**
     * This candidate is not (or no longer) the leader: stop the leader-only work at once. Called
     * exactly once when the elector ends, whether it ever led or not (client-go's rule).
     */
    default void onStoppedLeading() {}

    /**
     * The Lease names a new holder (possibly this candidate).
     *
     * @param identity the holder's identity
     */
    default void onNewLeader(String identity) {}
}
