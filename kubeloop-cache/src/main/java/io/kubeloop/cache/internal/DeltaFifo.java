package io.kubeloop.cache.internal;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import io.kubeloop.api.ObjectKey;
import io.kubeloop.cache.KeyFunction;
import io.kubeloop.cache.KnownObjects;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * client-go's classic {@code DeltaFIFO}: deltas accumulate per key, oldest first, and a key is
 * popped with all its deltas at the position where it was first queued.
 *
 * <ul>
 *   <li><b>Enqueue</b>: transform (not for Sync or tombstones), append, collapse the last two
 *       deltas when both are deletions (keeping a non-tombstone over a tombstone, else the older),
 *       queue the key if it was not queued.</li>
 *   <li><b>Delete</b> is ignored when the key is neither queued nor known (already reported).</li>
 *   <li><b>Replace</b> queues Replaced (or Sync without {@code emitDeltaTypeReplaced}) for every
 *       listed object, then a tombstone deletion for each queued key not listed (with its newest
 *       queued object) and each known key not listed and not queued (with the known object).</li>
 *   <li><b>Resync</b> queues Sync only for known keys with nothing queued: a queued delta is newer
 *       than the cache, and resyncing the cache would resurrect stale state.</li>
 *   <li><b>HasSynced</b> once every entry of the first replace has been popped, or an
 *       add/update/delete came first.</li>
 *   <li><b>Pop</b> calls the processor while holding the queue lock (producers wait).</li>
 * </ul>
 *
 * <p><b>Thread safety.</b> Thread-safe; one consumer may pop.
 *
 * @param <T> the object type
 * @see RealFifo
 */
public final class DeltaFifo<T> extends LockedInformerQueue<T> {

    private final KeyFunction keyFunction;
    private final KnownObjects<T> knownObjects;
    private final boolean emitDeltaTypeReplaced;
    private final UnaryOperator<T> transformer;

    /** Guarded by lock. Every list is non-empty, oldest first; a key is here exactly when it is in queue. */
    @GuardedBy("lock")
    private final Map<ObjectKey, List<Delta<T>>> items = new HashMap<>();
    /** Guarded by lock. Keys in pop order, without duplicates. */
    @GuardedBy("lock")
    private final ArrayDeque<ObjectKey> queue = new ArrayDeque<>();

    private DeltaFifo(Builder<T> b) {
        this.keyFunction = b.keyFunction;
        this.knownObjects = b.knownObjects;
        this.emitDeltaTypeReplaced = b.emitDeltaTypeReplaced;
        this.transformer = b.transformer;
    }

    /** A builder; defaults: {@link KeyFunction#metaNamespace()}, no known objects, Sync on replace, no transform. */
    public static <T> Builder<T> builder() {
        return new Builder<>();
    }

    @Override
    public void add(T object) {
        lock.lock();
        try {
            populated = true;
            queueActionLocked(new Delta.Added<>(transform(object)));
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void update(T object) {
        lock.lock();
        try {
            populated = true;
            queueActionLocked(new Delta.Updated<>(transform(object)));
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void delete(T object) {
        ObjectKey key = keyFunction.key(object);
        lock.lock();
        try {
            populated = true;
            boolean queued = items.containsKey(key);
            if (!queued && (knownObjects == null || !knownObjects.containsKey(key))) {
                return; // already reported deleted (e.g. by a relist)
            }
            queueActionLocked(new Delta.Deleted<>(transform(object), false));
        } finally {
            lock.unlock();
        }
    }

    private T transform(T object) {
        return transformer == null
                ? object
                : Objects.requireNonNull(transformer.apply(object), "transform returned null");
    }

    @GuardedBy("lock")
    private void queueActionLocked(Delta<T> delta) {
        ObjectKey key = keyFunction.key(delta.object());
        List<Delta<T>> deltas = items.get(key);
        if (deltas == null) {
            deltas = new ArrayList<>(2);
            items.put(key, deltas);
            queue.addLast(key);
        }
        deltas.add(delta);
        dedupLocked(deltas);
        notEmpty.signalAll();
    }

    /** Collapses the last two deltas when both are deletions. */
    private static <T> void dedupLocked(List<Delta<T>> deltas) {
        int n = deltas.size();
        if (n < 2
                || !(deltas.get(n - 1) instanceof Delta.Deleted<T> newer)
                || !(deltas.get(n - 2) instanceof Delta.Deleted<T> older)) {
            return;
        }
        deltas.remove(n - 1);
        if (older.finalStateUnknown()) {
            deltas.set(n - 2, newer);
        }
    }

    @Override
    public void replace(List<T> objects, String resourceVersion) {
        List<ObjectKey> keys = new ArrayList<>(objects.size());
        for (T o : objects) {
            keys.add(keyFunction.key(o)); // a key error aborts before anything changes
        }
        lock.lock();
        try {
            Set<ObjectKey> listed = HashSet.newHashSet(keys.size());
            for (T o : objects) {
                T t = transform(o);
                queueActionLocked(emitDeltaTypeReplaced ? new Delta.Replaced<>(t) : new Delta.Sync<>(t));
            }
            listed.addAll(keys);
            int queuedDeletions = 0;
            for (ObjectKey k : new ArrayList<>(queue)) {
                if (listed.contains(k)) {
                    continue;
                }
                List<Delta<T>> deltas = items.get(k);
                T newest = deltas.get(deltas.size() - 1).object();
                queuedDeletions++;
                queueActionLocked(new Delta.Deleted<>(newest, true));
            }
            if (knownObjects != null) {
                List<Map.Entry<ObjectKey, T>> unlisted = new ArrayList<>();
                knownObjects.forEach((k, known) -> {
                    if (!listed.contains(k)) {
                        unlisted.add(Map.entry(k, known));
                    }
                });
                // items is read here, not in the callback: the checker cannot see that forEach calls back under the
                // lock
                List<Delta<T>> tombstones = new ArrayList<>();
                for (Map.Entry<ObjectKey, T> e : unlisted) {
                    if (!items.containsKey(e.getKey())) {
                        tombstones.add(new Delta.Deleted<>(e.getValue(), true));
                    }
                }
                for (Delta<T> d : tombstones) {
                    queuedDeletions++;
                    queueActionLocked(d);
                }
            }
            if (!populated) {
                populated = true;
                initialPopulationCount = listed.size() + queuedDeletions;
            }
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void resync() {
        if (knownObjects == null) {
            return;
        }
        lock.lock();
        try {
            List<Map.Entry<ObjectKey, T>> known = new ArrayList<>();
            knownObjects.forEach((k, o) -> known.add(Map.entry(k, o)));
            // items is read here, not in the callback: the checker cannot see that forEach calls back under the lock
            List<Delta<T>> syncs = new ArrayList<>();
            for (Map.Entry<ObjectKey, T> e : known) {
                if (!items.containsKey(e.getKey())) {
                    syncs.add(new Delta.Sync<>(e.getValue()));
                }
            }
            for (Delta<T> d : syncs) {
                queueActionLocked(d);
            }
        } finally {
            lock.unlock();
        }
    }

    @Override
    public boolean pop(PopProcessor<T> processor) {
        lock.lock();
        try {
            while (queue.isEmpty()) {
                if (closed) {
                    return false;
                }
                try {
                    notEmpty.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
            boolean isInInitialList = !hasSyncedLocked();
            ObjectKey key = queue.removeFirst();
            List<Delta<T>> deltas = items.remove(key);
            if (initialPopulationCount > 0) {
                initialPopulationCount--;
            }
            processor.process(deltas, isInInitialList);
            return true;
        } finally {
            lock.unlock();
        }
    }

    @Override
    @GuardedBy("lock")
    int sizeLocked() {
        return queue.size();
    }

    /** The queued keys in pop order (a snapshot), for tests and debugging. */
    public List<ObjectKey> queuedKeys() {
        lock.lock();
        try {
            return new ArrayList<>(queue);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Builder of a {@link DeltaFifo}; not thread-safe.
     *
     * @param <T> the object type
     */
    public static final class Builder<T> {
        private KeyFunction keyFunction = KeyFunction.metaNamespace();
        private KnownObjects<T> knownObjects;
        private boolean emitDeltaTypeReplaced;
        private UnaryOperator<T> transformer;

        private Builder() {}

        /** How keys are computed; default {@link KeyFunction#metaNamespace()}. */
        public Builder<T> keyFunction(KeyFunction keyFunction) {
            this.keyFunction = Objects.requireNonNull(keyFunction, "keyFunction");
            return this;
        }

        /** The cache behind the queue (an informer's indexer), for deletions, replace and resync. */
        public Builder<T> knownObjects(KnownObjects<T> knownObjects) {
            this.knownObjects = knownObjects;
            return this;
        }

        /** Replace queues {@link Delta.Replaced} instead of {@link Delta.Sync}; informers set it. */
        public Builder<T> emitDeltaTypeReplaced(boolean emit) {
            this.emitDeltaTypeReplaced = emit;
            return this;
        }

        /** Applied to every added, updated, deleted and replaced object at enqueue; never to Sync or tombstones. */
        public Builder<T> transformer(UnaryOperator<T> transformer) {
            this.transformer = transformer;
            return this;
        }

        public DeltaFifo<T> build() {
            return new DeltaFifo<>(this);
        }
    }
}
