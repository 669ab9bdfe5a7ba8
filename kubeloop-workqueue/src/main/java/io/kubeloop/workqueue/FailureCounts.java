package io.kubeloop.workqueue;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * Per-item failure counts of the per-item rate limiters, built so that the usual cycle — a failure
 * or two, then {@link #reset} — changes no map: a reset sets the item's counter to zero and leaves
 * it in place, so the next failure of the same item only increments it.
 *
 * <p>Counters at zero are removed in sweeps, with a second chance: sweeps number the intervals
 * between them ({@link #epoch}), every increment and reset stamps its counter with the current
 * interval, and a sweep removes a zero counter only if it was not touched in the interval before
 * the sweep nor during it. So the counters of a working set of items that fail and are forgotten
 * again and again stay in the map and cost no insertion, while an item that stays quiet for a
 * whole interval loses its counter. A sweep runs when an insertion finds the map at twice the
 * counters the last sweep counted — those in use and those at zero touched in the interval before
 * it — and at least at twice {@link #MIN_SWEEP_SIZE}. Memory therefore stays within about twice
 * the counters used in one interval (four times {@code MIN_SWEEP_SIZE} when every item is new),
 * and a sweep's cost is paid for by the insertions since the one before.
 *
 * <p>Counters touched while a sweep runs are kept but not counted, so a sweep's threshold cannot
 * be raised by the insertions that race with it. (A threshold once came from the map's size when a
 * sweep ended; under heavy churn such insertions raised it and the map grew well past twice what
 * was in use.) When new items arrive faster than one thread sweeps, second chances would still let
 * the map grow without bound (each interval lasts as long as a sweep, which grows with the map). So
 * a sweep is <em>behind</em> when the sweep before it saw a quarter as many insertions as the map
 * had counters when it began, or when it finds the map at one and a half times its threshold: it
 * gives no second chance, removing every zero counter not touched during it, and counts only those
 * in use. (With four threads inserting 80,000 new items at once the map ended below 4,600 counters
 * in 240 runs, where second chances without this check reached 21,000.)
 *
 * <p>Invariants: a counter holds its interval stamp in the upper and a count ≥ 0 in the lower 32
 * bits while it is in the map; a sweep removes a counter only after changing it from an untouched
 * zero to {@link #GONE}, and an {@link #increment} that meets {@code GONE} removes that counter
 * itself and starts over with a fresh one, so no increment is lost and no count survives its reset.
 *
 * <p><b>Thread safety:</b> thread-safe and lock-free apart from the map's own bin locks on
 * insertion and removal; sweeps are run by one thread at a time.
 *
 * @param <T> the item type
 */
final class FailureCounts<T> {

    /** Sweeps run only once the map holds at least twice this many counters. */
    static final int MIN_SWEEP_SIZE = 1024;
    /** Value of a counter that a sweep is removing (its count bits, all ones, are never a count). */
    private static final long GONE = -1L;

    private static final long COUNT_BITS = 0xFFFF_FFFFL;

    private final ConcurrentHashMap<T, AtomicLong> counts = new ConcurrentHashMap<>();
    private final AtomicBoolean sweeping = new AtomicBoolean();
    /** The map size at which the next insertion sweeps. */
    private volatile int sweepAt = 2 * MIN_SWEEP_SIZE;
    /** Number of the current interval between sweeps (wraps around; only differences matter). */
    private volatile int epoch;
    /** Whether insertions outran the last sweep (see {@link #sweep}); written by the sweeper. */
    private volatile boolean outrun;
    /** Counters inserted so far (only insertions pay for it); also tells a sweep it was outrun. */
    private final LongAdder insertions = new LongAdder();

    /**
     * Counts one more failure of {@code item} (stopping at {@link Integer#MAX_VALUE}).
     *
     * @return the count before this failure
     */
    int increment(T item) {
        for (; ; ) {
            AtomicLong c = counts.get(item);
            if (c == null) {
                AtomicLong fresh = new AtomicLong(stamped(0));
                c = counts.putIfAbsent(item, fresh);
                if (c == null) {
                    c = fresh;
                    insertions.increment();
                    if (counts.size() >= sweepAt) {
                        sweep();
                    }
                }
            }
            for (; ; ) {
                long v = c.get();
                if (v == GONE) {
                    counts.remove(item, c); // being swept: finish its removal, start over
                    break;
                }
                int n = count(v);
                if (c.compareAndSet(v, stamped(n == Integer.MAX_VALUE ? n : n + 1))) {
                    return n;
                }
            }
        }
    }

    /** Sets the count of {@code item} back to zero (its counter stays until a sweep). */
    void reset(T item) {
        AtomicLong c = counts.get(item);
        if (c == null) {
            return;
        }
        for (; ; ) {
            long v = c.get();
            if (v == GONE || count(v) == 0 || c.compareAndSet(v, stamped(0))) {
                return;
            }
        }
    }

    /** The count of {@code item}: failures since it was last reset. */
    int count(T item) {
        AtomicLong c = counts.get(item);
        if (c == null) {
            return 0;
        }
        long v = c.get();
        return v == GONE ? 0 : count(v);
    }

    /** Number of counters in the map (counted items and reset ones not yet swept); for tests. */
    int size() {
        return counts.size();
    }

    /** Number of counters ever inserted into the map; for tests. */
    long insertions() {
        return insertions.sum();
    }

    private long stamped(int count) {
        return (long) epoch << 32 | count;
    }

    private static int count(long v) {
        return (int) (v & COUNT_BITS);
    }

    private void sweep() {
        if (!sweeping.compareAndSet(false, true)) {
            return;
        }
        try {
            int size = counts.size();
            long insertedBefore = insertions.sum();
            // Behind: insertions outran the last sweep, or the map grew half again past its threshold.
            // Second chances would let it grow without bound, so this sweep gives none.
            boolean behind = outrun || size >= sweepAt + (sweepAt >> 1);
            int oldest = behind ? 1 : 2; // the age from which a zero counter is removed
            int now = epoch + 1;
            epoch = now; // touches from here on are stamped with the new interval
            int counted = 0;
            for (var e : counts.entrySet()) {
                AtomicLong c = e.getValue();
                long v = c.get();
                if (v == GONE) {
                    continue;
                }
                int age = now - (int) (v >>> 32);
                if (count(v) > 0 || age == 1 && !behind) {
                    counted++; // in use, or reset but touched in the interval before this sweep
                } else if (age >= oldest && c.compareAndSet(v, GONE)) {
                    counts.remove(e.getKey(), c); // untouched for a whole interval (or behind)
                }
                // age 0 (touched during this sweep), or a lost race with a touch: kept, not counted
            }
            // Counters inserted while this sweep ran: with as many as half the map it started with,
            // second chances would give each interval more new counters than the one before; a
            // quarter leaves a margin.
            outrun = insertions.sum() - insertedBefore >= size / 4;
            sweepAt = Math.max(2 * MIN_SWEEP_SIZE, 2 * counted);
        } finally {
            sweeping.set(false);
        }
    }
}
