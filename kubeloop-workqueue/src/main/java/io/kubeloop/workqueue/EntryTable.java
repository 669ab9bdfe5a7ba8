package io.kubeloop.workqueue;

import java.util.function.Consumer;

/**
 * The item → {@link QueueEntry} map of a {@link DefaultWorkQueue}: a chained hash table whose
 * chain links live in the entries themselves, plus a small free list of removed entries that are
 * reused for new items. A work item's life (add, get, done) thus allocates nothing in steady state
 * and does one hash probe per call, where a {@code HashMap<T, QueueEntry<T>>} allocates a map node
 * and an entry per new item.
 *
 * <p>Invariants: {@code table.length} is a power of two; every live entry is in the chain of
 * bucket {@code hash & (table.length - 1)} exactly once, with {@code hash} its item's spread hash
 * code; {@link #size} counts live entries; entries of the free list are REMOVED, hold no item
 * (so the table never keeps a removed item reachable) and number at most {@link #MAX_FREE}.
 *
 * <p><b>Thread safety:</b> none; the owning queue guards it with its lock.
 *
 * @param <T> the item type
 */
final class EntryTable<T> {

    /** Most removed entries kept for reuse: enough for every worker's in-flight item. */
    static final int MAX_FREE = 256;

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

    /** The live entry of {@code item}, or null; {@code hash} must be {@link #hash}{@code (item)}. */
    QueueEntry<T> find(Object item, int hash) {
        QueueEntry<T> e = table[hash & (table.length - 1)];
        while (e != null) {
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
            grow();
        }
        int i = hash & (table.length - 1);
        e.nextInBucket = table[i];
        table[i] = e;
        return e;
    }

    /** Unlinks a live entry, marks it REMOVED and keeps it for reuse if the free list has room. */
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

    /** Number of live entries. */
    int size() {
        return size;
    }

    /** Calls {@code action} with every live entry. */
    void forEach(Consumer<QueueEntry<T>> action) {
        for (QueueEntry<T> head : table) {
            for (QueueEntry<T> e = head; e != null; e = e.nextInBucket) {
                action.accept(e);
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
