package io.kubeloop.workqueue;

import java.util.function.Consumer;

/**
 * The item → {@link QueueEntry} map of a {@link DefaultWorkQueue}: a chained hash table whose
 * chain links live in the entries themselves, plus a small free list of removed entries that are
 * reused for new items. A work item's life (add, get, done) thus allocates nothing in steady state
 * and does one hash probe per call, where a {@code HashMap<T, QueueEntry<T>>} allocates a map node
 * and an entry per new item.
 *
 * <p>Entries that {@code done} finished without the lock stay linked, in state DONE, until a lock
 * holder meets them: {@link #find} unlinks those in the chain it walks, and when the table fills
 * up all of them are unlinked before it is made bigger. For every other purpose a DONE entry is
 * absent. (So a done item stays reachable from the table until then: at most about
 * {@code table.length} of them.)
 *
 * <p>Invariants: {@code table.length} is a power of two; every linked entry (live or DONE) is in
 * the chain of bucket {@code hash & (table.length - 1)} exactly once, with {@code hash} its item's
 * spread hash code; {@link #size} counts linked entries; at most one linked entry that is not DONE
 * holds a given item; entries of the free list are REMOVED, hold no item and number at most
 * {@link #MAX_FREE}.
 *
 * <p><b>Thread safety:</b> the owning queue guards it with its lock; the one exception is
 * {@link #findUnlocked}, made for racing with lock holders.
 *
 * @param <T> the item type
 */
final class EntryTable<T> {

    /** Most removed entries kept for reuse: enough for every worker's in-flight item. */
    static final int MAX_FREE = 256;
    /** Most entries {@link #findUnlocked} visits before it gives up. */
    private static final int MAX_UNLOCKED_STEPS = 8;
    private static final int INITIAL_CAPACITY = 64;

    @SuppressWarnings("unchecked")
    private QueueEntry<T>[] table = new QueueEntry[INITIAL_CAPACITY];
    private int size;
    private QueueEntry<T> free;
    private int freeCount;

    /**
     * The spread hash of an item: its hash code multiplied by 2<sup>32</sup>/φ (Fibonacci hashing),
     * then the high half folded into the low one. The multiplication matters for regular keys:
     * with {@code HashMap}'s fold alone, keys that differ by multiples of the table size (such as
     * the benchmark's per-worker sequences {@code n * 64 + worker}) put each worker's keys in one
     * bucket for a thousand operations at a time, and that measured about a quarter slower with 16
     * workers on 2 cores (BENCHMARKS.md; why exactly was not pinned down).
     */
    static int hash(Object item) {
        int h = item.hashCode() * 0x9E3779B9;
        return h ^ (h >>> 16);
    }

    /**
     * The live (not DONE) entry of {@code item}, or null; unlinks the DONE entries of the chain on
     * the way. {@code hash} must be {@link #hash}{@code (item)}.
     */
    QueueEntry<T> find(Object item, int hash) {
        int i = hash & (table.length - 1);
        QueueEntry<T> prev = null;
        QueueEntry<T> e = table[i];
        while (e != null) {
            QueueEntry<T> next = e.nextInBucket;
            if (e.state() == QueueEntry.DONE) {
                if (prev == null) {
                    table[i] = next;
                } else {
                    prev.nextInBucket = next;
                }
                release(e);
            } else {
                if (e.hash == hash) {
                    Object k = e.item;
                    if (k == item || item.equals(k)) {
                        return e;
                    }
                }
                prev = e;
            }
            e = next;
        }
        return null;
    }

    /**
     * Without the lock: the entry holding {@code item}, or null when not found within a few steps.
     * Reads race with lock holders, so the walk may miss the entry or stray into other chains or
     * the free list (hence the bound); a caller acts on a found entry only through
     * {@link QueueEntry#casState}. Sound for an item the calling thread holds in PROCESSING: from
     * the lock acquisition that handed it out until its own {@code done}, no other entry can hold
     * that item, and no other thread can move that entry out of PROCESSING but to PROCESSING_DIRTY.
     */
    QueueEntry<T> findUnlocked(Object item, int hash) {
        QueueEntry<T>[] t = table;
        QueueEntry<T> e = t[hash & (t.length - 1)];
        for (int steps = 0; e != null && steps < MAX_UNLOCKED_STEPS; steps++) {
            if (e.hash == hash) {
                Object k = e.item;
                if (k == item || item.equals(k)) {
                    return e;
                }
            }
            e = e.nextInBucket;
        }
        return null;
    }

    /**
     * Adds a QUEUED entry for an item that has none (the caller has checked with {@link #find}),
     * reusing a removed entry when one is free.
     */
    QueueEntry<T> insert(T item, int hash) {
        QueueEntry<T> e = free;
        if (e != null) {
            free = e.nextInBucket;
            freeCount--;
            e.item = item;
            e.setState(QueueEntry.QUEUED);
        } else {
            e = new QueueEntry<>(item);
        }
        e.hash = hash;
        if (++size > table.length - (table.length >>> 2)) {
            unlinkAllDone();
            if (size > table.length >>> 1) {
                grow();
            }
        }
        int i = hash & (table.length - 1);
        e.nextInBucket = table[i];
        table[i] = e;
        return e;
    }

    /** Unlinks a linked entry, marks it REMOVED and keeps it for reuse if the free list has room. */
    void remove(QueueEntry<T> e) {
        int i = e.hash & (table.length - 1);
        QueueEntry<T> p = table[i];
        if (p == e) {
            table[i] = e.nextInBucket;
        } else {
            while (p.nextInBucket != e) {
                p = p.nextInBucket;
            }
            p.nextInBucket = e.nextInBucket;
        }
        release(e);
    }

    /** Marks an entry just unlinked REMOVED, counts it out, and keeps it for reuse if there is room. */
    private void release(QueueEntry<T> e) {
        size--;
        e.setState(QueueEntry.REMOVED);
        e.item = null;
        e.nextReady = null;
        if (freeCount < MAX_FREE) {
            e.nextInBucket = free;
            free = e;
            freeCount++;
        } else {
            e.nextInBucket = null;
        }
    }

    /** Number of buckets; for tests. */
    int capacity() {
        return table.length;
    }

    /** Number of linked entries, DONE ones included. */
    int size() {
        return size;
    }

    /** Calls {@code action} with every linked entry that is not DONE. */
    void forEach(Consumer<QueueEntry<T>> action) {
        for (QueueEntry<T> head : table) {
            for (QueueEntry<T> e = head; e != null; e = e.nextInBucket) {
                if (e.state() != QueueEntry.DONE) {
                    action.accept(e);
                }
            }
        }
    }

    /**
     * True when some entry is PROCESSING or PROCESSING_DIRTY, its state read as a volatile (a
     * drain's check, which races with lock-free done).
     */
    boolean anyProcessing() {
        for (QueueEntry<T> head : table) {
            for (QueueEntry<T> e = head; e != null; e = e.nextInBucket) {
                int s = e.stateVolatile();
                if (s == QueueEntry.PROCESSING || s == QueueEntry.PROCESSING_DIRTY) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Unlinks every DONE entry. */
    private void unlinkAllDone() {
        for (int i = 0; i < table.length; i++) {
            QueueEntry<T> prev = null;
            QueueEntry<T> e = table[i];
            while (e != null) {
                QueueEntry<T> next = e.nextInBucket;
                if (e.state() == QueueEntry.DONE) {
                    if (prev == null) {
                        table[i] = next;
                    } else {
                        prev.nextInBucket = next;
                    }
                    release(e);
                } else {
                    prev = e;
                }
                e = next;
            }
        }
    }

    private void grow() {
        QueueEntry<T>[] old = table;
        @SuppressWarnings("unchecked")
        QueueEntry<T>[] bigger = new QueueEntry[old.length * 2];
        int mask = bigger.length - 1;
        for (QueueEntry<T> head : old) {
            QueueEntry<T> e = head;
            while (e != null) {
                QueueEntry<T> next = e.nextInBucket;
                int i = e.hash & mask;
                e.nextInBucket = bigger[i];
                bigger[i] = e;
                e = next;
            }
        }
        table = bigger;
    }
}
