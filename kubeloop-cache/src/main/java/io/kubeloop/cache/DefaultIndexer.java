package io.kubeloop.cache;

import io.kubeloop.api.ObjectKey;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BiConsumer;

/** The {@link Indexer} (and {@link Store}): a {@link KeyFunction} over a {@link ThreadSafeStore}. */
final class DefaultIndexer<T> implements Indexer<T> {

    private final KeyFunction keyFunction;
    private final ThreadSafeStore<T> store;
    private volatile String lastSyncResourceVersion = "";

    DefaultIndexer(KeyFunction keyFunction, Map<String, IndexFunction<T>> indexers) {
        this.keyFunction = Objects.requireNonNull(keyFunction, "keyFunction");
        this.store = new DefaultThreadSafeStore<>(indexers);
    }

    @Override
    public void add(T object) {
        store.update(keyFunction.key(object), object);
    }

    @Override
    public void update(T object) {
        store.update(keyFunction.key(object), object);
    }

    @Override
    public void delete(T object) {
        store.delete(keyFunction.key(object));
    }

    @Override
    public void deleteByKey(ObjectKey key) {
        store.delete(key);
    }

    @Override
    public List<T> list() {
        return store.list();
    }

    @Override
    public List<ObjectKey> listKeys() {
        return store.listKeys();
    }

    @Override
    public int size() {
        return store.size();
    }

    @Override
    public Optional<T> get(T object) {
        return store.get(keyFunction.key(object));
    }

    @Override
    public Optional<T> getByKey(ObjectKey key) {
        return store.get(key);
    }

    @Override
    public void forEach(BiConsumer<ObjectKey, ? super T> action) {
        store.forEach(action);
    }

    @Override
    public void replace(List<T> objects, String resourceVersion) {
        Map<ObjectKey, T> items = HashMap.newHashMap(objects.size());
        for (T o : objects) {
            items.put(keyFunction.key(o), o);
        }
        store.replace(items);
        lastSyncResourceVersion = resourceVersion == null ? "" : resourceVersion;
    }

    @Override
    public void resync() {
        // nothing to do: client-go's Store.Resync is a no-op
    }

    @Override
    public KeyFunction keyFunction() {
        return keyFunction;
    }

    @Override
    public String lastSyncResourceVersion() {
        return lastSyncResourceVersion;
    }

    @Override
    public List<T> index(String indexName, T object) {
        return store.index(indexName, object);
    }

    @Override
    public List<T> byIndex(String indexName, String value) {
        return store.byIndex(indexName, value);
    }

    @Override
    public List<ObjectKey> indexKeys(String indexName, String value) {
        return store.indexKeys(indexName, value);
    }

    @Override
    public List<String> listIndexFuncValues(String indexName) {
        return store.listIndexFuncValues(indexName);
    }

    @Override
    public Map<String, IndexFunction<T>> indexers() {
        return store.indexers();
    }

    @Override
    public void addIndexers(Map<String, IndexFunction<T>> newIndexers) {
        store.addIndexers(newIndexers);
    }
}
