package io.kubeloop.apiserver.internal.storage;

import java.util.ArrayList;
import java.util.List;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * The most recent {@code capacity} events of all resources, in revision order: what watches from a
 * resourceVersion and consistent list snapshots replay.
 *
 * <p>{@link #compactedRevision()} is the revision below which history is gone: events with a revision
 * greater than it are all present. A watch or snapshot at revision {@code r} is possible iff
 * {@code r >= compactedRevision()}.
 *
 * <p><b>Thread safety.</b> Not thread-safe; guarded by the {@link VersionedStore} lock.
 */
final class HistoryRing {

    private final StoreEvent[] ring;
    /** Index of the oldest event; valid when size > 0. */
    private int head;

    private int size;
    private long compacted;

    HistoryRing(int capacity, long startRevision) {
        if (capacity < 1) {
            throw new IllegalArgumentException("history size must be at least 1, got " + capacity);
        }
        this.ring = new StoreEvent[capacity];
        this.compacted = startRevision;
    }

    void add(StoreEvent e) {
        if (size == ring.length) {
            compacted = ring[head].resourceVersion();
            ring[head] = e;
            head = (head + 1) % ring.length;
        } else {
            ring[(head + size) % ring.length] = e;
            size++;
        }
    }

    long compactedRevision() {
        return compacted;
    }

    /** Drops everything up to {@code revision} (test hook: simulates etcd compaction). */
    void compactTo(long revision) {
        while (size > 0 && ring[head].resourceVersion() <= revision) {
            ring[head] = null;
            head = (head + 1) % ring.length;
            size--;
        }
        compacted = Math.max(compacted, revision);
    }

    /** Events of {@code resource} with a revision greater than {@code after}, oldest first. */
    void forEachAfter(String resource, long after, Consumer<StoreEvent> action) {
        int start = firstAfter(after);
        for (int i = start; i < size; i++) {
            StoreEvent e = ring[(head + i) % ring.length];
            if (e.resource().equals(resource)) {
                action.accept(e);
            }
        }
    }

    /** Events of {@code resource} with a revision greater than {@code after}, newest first. */
    void forEachAfterReversed(String resource, long after, Consumer<StoreEvent> action) {
        int start = firstAfter(after);
        for (int i = size - 1; i >= start; i--) {
            StoreEvent e = ring[(head + i) % ring.length];
            if (e.resource().equals(resource)) {
                action.accept(e);
            }
        }
    }

    /**
     * A key range of {@code resource} as it was at revision {@code at}: {@code current} (its state
     * now) with every newer event of this ring undone, sorted by key. Only objects of
     * {@code namespace} (null: all) at or after {@code startKey} (null: from the first) count.
     */
    List<StoredObject> stateAt(
            String resource, NavigableMap<String, StoredObject> current, long at, String namespace, String startKey) {
        TreeMap<String, StoredObject> snap = new TreeMap<>(current);
        forEachAfterReversed(resource, at, e -> {
            StoredObject o = e.object();
            if (namespace != null && !namespace.equals(o.namespace())
                    || startKey != null && o.key().compareTo(startKey) < 0) {
                return;
            }
            if (e.type() == ChangeType.ADDED) {
                snap.remove(e.key());
            } else {
                snap.put(e.key(), e.previous());
            }
        });
        return new ArrayList<>(snap.values());
    }

    /** The newest {@code limit} events of every resource, newest first. */
    List<StoreEvent> latest(int limit) {
        List<StoreEvent> out = new ArrayList<>(Math.min(limit, size));
        for (int i = size - 1; i >= 0 && out.size() < limit; i--) {
            out.add(ring[(head + i) % ring.length]);
        }
        return out;
    }

    /** Binary search: logical index of the first event with revision > {@code after}. */
    private int firstAfter(long after) {
        int lo = 0;
        int hi = size;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (ring[(head + mid) % ring.length].resourceVersion() <= after) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }
}
