package io.kubeloop.workqueue;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Per-item failure counts of the per-item rate limiters, built so that the usual cycle — a failure
 * or two, then {@link #reset} — changes no map: a reset sets the item's counter to zero and leaves
 * it in place, so the next failure of the same item only increments it. Counters at zero are
 * removed in sweeps, run when an insertion finds the map at twice the number of counters the last
 * sweep left in use (and at least twice {@link #MIN_SWEEP_SIZE}), so memory stays within about
 * twice the items counted plus those reset since the last sweep, and a sweep's cost is paid for by
 * the insertions since the one before. (The threshold once came from the map's size when a sweep
 * ended; counters that other threads inserted and reset meanwhile then raised it, and under heavy
 * churn the map grew well past twice what was in use.)
 *
 * <p>Invariants: a counter holds a count ≥ 0 while it is in the map; a sweep removes a counter only
 * after changing it from 0 to {@link #GONE}, and an {@link #increment} that meets {@code GONE}
 * removes that counter itself and starts over with a fresh one, so no increment is lost and no
 * count survives its reset.
 *
 * <p><b>Thread safety:</b> thread-safe and lock-free apart from the map's own bin locks on
 * insertion and removal; sweeps are run by one thread at a time.
 *
 * @param <T> the item type
 */
final class FailureCounts<T> {

    /** Sweeps run only once the map holds at least twice this many counters. */
    static final int MIN_SWEEP_SIZE = 1024;
    /** Counter value of one that a sweep is removing. */
    private static final int GONE = -1;

    private final ConcurrentHashMap<T, AtomicInteger> counts = new ConcurrentHashMap<>();
    private final AtomicBoolean sweeping = new AtomicBoolean();
    /** The map size at which the next insertion sweeps. */
    private volatile int sweepAt = 2 * MIN_SWEEP_SIZE;

    /**
     * Counts one more failure of {@code item} (stopping at {@link Integer#MAX_VALUE}).
     *
     * @return the count before this failure
     */
    int increment(T item) {
        for (;;) {
            AtomicInteger c = counts.get(item);
            if (c == null) {
                AtomicInteger fresh = new AtomicInteger();
                c = counts.putIfAbsent(item, fresh);
                if (c == null) {
                    c = fresh;
                    if (counts.size() >= sweepAt) {
                        sweep();
                    }
                }
            }
            for (;;) {
                int n = c.get();
                if (n == GONE) {
                    counts.remove(item, c); // being swept: finish its removal, start over
                    break;
                }
                if (c.compareAndSet(n, n == Integer.MAX_VALUE ? n : n + 1)) {
                    return n;
                }
            }
        }
    }

    /** Sets the count of {@code item} back to zero (its counter stays until a sweep). */
    void reset(T item) {
        AtomicInteger c = counts.get(item);
        if (c == null) {
            return;
        }
        for (;;) {
            int n = c.get();
            if (n <= 0 || c.compareAndSet(n, 0)) {
                return;
            }
        }
    }

    /** The count of {@code item}: failures since it was last reset. */
    int count(T item) {
        AtomicInteger c = counts.get(item);
        return c == null ? 0 : Math.max(0, c.get());
    }

    /** Number of counters in the map (counted items and reset ones not yet swept); for tests. */
    int size() {
        return counts.size();
    }

    private void sweep() {
        if (!sweeping.compareAndSet(false, true)) {
            return;
        }
        try {
            int inUse = 0;
            for (var e : counts.entrySet()) {
                AtomicInteger c = e.getValue();
                if (c.compareAndSet(0, GONE)) {
                    counts.remove(e.getKey(), c);
                } else {
                    inUse++;
                }
            }
            // from the counters in use, not the map's size now: counters inserted (and reset) by
            // other threads while this sweep ran must not raise the next threshold
            sweepAt = Math.max(2 * MIN_SWEEP_SIZE, 2 * inUse);
        } finally {
            sweeping.set(false);
        }
    }
}
