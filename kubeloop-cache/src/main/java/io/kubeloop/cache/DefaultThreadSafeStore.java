package io.kubeloop.cache;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import io.kubeloop.api.ObjectKey;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.BiConsumer;

/**
 * The {@link ThreadSafeStore}: a {@link HashMap} of objects plus one {@link IndexTable} per indexer,
 * all guarded by one read-write lock.
 */
final class DefaultThreadSafeStore<T> implements ThreadSafeStore<T> {

    private static final List<String> NONE = List.of();

    private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
    /** Guarded by lock. */
    @GuardedBy("lock")
    private Map<ObjectKey, T> items = new HashMap<>();
    /** Guarded by lock; insertion-ordered so index evaluation order is stable. */
    @GuardedBy("lock")
    private final Map<String, IndexFunction<T>> indexers = new LinkedHashMap<>();
    /** Guarded by lock; same key set as indexers. */
    @GuardedBy("lock")
    private final Map<String, IndexTable> indices = new HashMap<>();

    DefaultThreadSafeStore(Map<String, IndexFunction<T>> indexers) {
        Objects.requireNonNull(indexers, "indexers");
        for (Map.Entry<String, IndexFunction<T>> e : indexers.entrySet()) {
            String name = e.getKey();
            this.indexers.put(
                    Objects.requireNonNull(name, "index name"), Objects.requireNonNull(e.getValue(), "index function"));
            this.indices.put(name, new IndexTable());
        }
    }

    @Override
    public void update(ObjectKey key, T object) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(object, "object");
        lock.writeLock().lock();
        try {
            T old = items.get(key);
            if (indexers.isEmpty()) {
                items.put(key, object);
                return;
            }
            // Compute every value first: an index function that throws leaves the store unchanged.
            List<List<String>> oldValues = valuesLocked(old);
            List<List<String>> newValues = valuesLocked(object);
            items.put(key, object);
            applyLocked(key, oldValues, newValues);
        } finally {
            lock.writeLock().unlock();
        }
    }

    @Override
    public void delete(ObjectKey key) {
        lock.writeLock().lock();
        try {
            T old = items.get(key);
            if (old == null) {
                return;
            }
            List<List<String>> oldValues = indexers.isEmpty() ? List.of() : valuesLocked(old);
            items.remove(key);
            if (!indexers.isEmpty()) {
                applyLocked(key, oldValues, null);
            }
        } finally {
            lock.writeLock().unlock();
        }
    }

    /** The values of every indexer for {@code object} (null object: no values), in indexer order. */
    @GuardedBy("lock")
    private List<List<String>> valuesLocked(T object) {
        if (object == null) {
            return null;
        }
        List<List<String>> all = new ArrayList<>(indexers.size());
        for (Map.Entry<String, IndexFunction<T>> e : indexers.entrySet()) {
            List<String> v = e.getValue().values(object);
            if (v == null) {
                throw new IllegalStateException("index function " + e.getKey() + " returned null");
            }
            all.add(v);
        }
        return all;
    }

    @GuardedBy("lock")
    private void applyLocked(ObjectKey key, List<List<String>> oldValues, List<List<String>> newValues) {
        int i = 0;
        for (String name : indexers.keySet()) {
            List<String> before = oldValues == null ? NONE : oldValues.get(i);
            List<String> after = newValues == null ? NONE : newValues.get(i);
            i++;
            if (before.size() == 1 && after.size() == 1 && before.get(0).equals(after.get(0))) {
                continue;
            }
            IndexTable table = indices.get(name);
            for (String v : before) {
                table.remove(v, key);
            }
            for (String v : after) {
                table.add(v, key);
            }
        }
    }

    @Override
    public Optional<T> get(ObjectKey key) {
        lock.readLock().lock();
        try {
            return Optional.ofNullable(items.get(key));
        } finally {
            lock.readLock().unlock();
        }
    }

    @Override
    public List<T> list() {
        lock.readLock().lock();
        try {
            return new ArrayList<>(items.values());
        } finally {
            lock.readLock().unlock();
        }
    }

    @Override
    public List<ObjectKey> listKeys() {
        lock.readLock().lock();
        try {
            return new ArrayList<>(items.keySet());
        } finally {
            lock.readLock().unlock();
        }
    }

    @Override
    public int size() {
        lock.readLock().lock();
        try {
            return items.size();
        } finally {
            lock.readLock().unlock();
        }
    }

    @Override
    public void forEach(BiConsumer<ObjectKey, ? super T> action) {
        lock.readLock().lock();
        try {
            items.forEach(action);
        } finally {
            lock.readLock().unlock();
        }
    }

    @Override
    public void replace(Map<ObjectKey, T> newItems) {
        Objects.requireNonNull(newItems, "items");
        lock.writeLock().lock();
        try {
            Map<String, IndexTable> rebuilt = buildLocked(indexers, newItems);
            items = newItems;
            indices.clear();
            indices.putAll(rebuilt);
        } finally {
            lock.writeLock().unlock();
        }
    }

    /** Fresh index tables for {@code fns} over {@code content}; throws before anything is committed. */
    private static <T> Map<String, IndexTable> buildLocked(
            Map<String, IndexFunction<T>> fns, Map<ObjectKey, T> content) {
        Map<String, IndexTable> tables = new HashMap<>();
        for (Map.Entry<String, IndexFunction<T>> e : fns.entrySet()) {
            IndexTable table = new IndexTable();
            IndexFunction<T> fn = e.getValue();
            for (Map.Entry<ObjectKey, T> item : content.entrySet()) {
                for (String v : fn.values(item.getValue())) {
                    table.add(v, item.getKey());
                }
            }
            tables.put(e.getKey(), table);
        }
        return tables;
    }

    @Override
    public List<T> index(String indexName, T object) {
        lock.readLock().lock();
        try {
            IndexFunction<T> fn = indexerLocked(indexName);
            List<String> values = fn.values(object);
            IndexTable table = indices.get(indexName);
            if (values.size() == 1) {
                return objectsLocked(table, values.get(0));
            }
            Set<ObjectKey> keys = new HashSet<>();
            for (String v : values) {
                table.forEachKey(v, keys::add);
            }
            List<T> out = new ArrayList<>(keys.size());
            for (ObjectKey k : keys) {
                out.add(items.get(k));
            }
            return out;
        } finally {
            lock.readLock().unlock();
        }
    }

    @Override
    public List<T> byIndex(String indexName, String value) {
        lock.readLock().lock();
        try {
            indexerLocked(indexName);
            return objectsLocked(indices.get(indexName), value);
        } finally {
            lock.readLock().unlock();
        }
    }

    @GuardedBy("lock")
    private List<T> objectsLocked(IndexTable table, String value) {
        List<T> out = new ArrayList<>(table.count(value));
        table.collect(value, items, out);
        return out;
    }

    @Override
    public List<ObjectKey> indexKeys(String indexName, String value) {
        lock.readLock().lock();
        try {
            indexerLocked(indexName);
            IndexTable table = indices.get(indexName);
            List<ObjectKey> out = new ArrayList<>(table.count(value));
            table.forEachKey(value, out::add);
            Collections.sort(out);
            return out;
        } finally {
            lock.readLock().unlock();
        }
    }

    @Override
    public List<String> listIndexFuncValues(String indexName) {
        lock.readLock().lock();
        try {
            IndexTable table = indices.get(indexName);
            return table == null ? new ArrayList<>() : table.values();
        } finally {
            lock.readLock().unlock();
        }
    }

    @GuardedBy("lock")
    private IndexFunction<T> indexerLocked(String indexName) {
        IndexFunction<T> fn = indexers.get(indexName);
        if (fn == null) {
            throw new IllegalArgumentException("Index with name " + indexName + " does not exist");
        }
        return fn;
    }

    @Override
    public Map<String, IndexFunction<T>> indexers() {
        lock.readLock().lock();
        try {
            return Collections.unmodifiableMap(new LinkedHashMap<>(indexers));
        } finally {
            lock.readLock().unlock();
        }
    }

    @Override
    public void addIndexers(Map<String, IndexFunction<T>> newIndexers) {
        Objects.requireNonNull(newIndexers, "indexers");
        lock.writeLock().lock();
        try {
            List<String> conflicts = new ArrayList<>();
            for (String name : newIndexers.keySet()) {
                if (indexers.containsKey(name)) {
                    conflicts.add(name);
                }
            }
            if (!conflicts.isEmpty()) {
                throw new IllegalArgumentException("indexer conflict: " + conflicts);
            }
            Map<String, IndexTable> built = buildLocked(newIndexers, items);
            indexers.putAll(newIndexers);
            indices.putAll(built);
        } finally {
            lock.writeLock().unlock();
        }
    }
}
