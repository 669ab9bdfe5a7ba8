package io.kubeloop.cache;

import io.kubeloop.api.ObjectKey;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiConsumer;

/**
 * A map from {@link ObjectKey} to object with named secondary indices, safe for concurrent use
 * (client-go's {@code ThreadSafeStore}). {@link Store} and {@link Indexer} add key computation on
 * top of it.
 *
 * <p><b>Invariant.</b> After every operation, for every index name {@code n} and value {@code v},
 * the keys indexed under {@code v} are exactly the keys whose object's index function {@code n}
 * yields {@code v}; values with no keys are removed (no leak with high-cardinality values).
 *
 * <p><b>Objects are shared and read-only.</b> Returned objects are the stored instances, not
 * copies. Changing one corrupts the indices (nothing re-indexes it) and every other reader's view;
 * copy before changing.
 *
 * <p><b>Thread safety.</b> One read-write lock: readers never block each other; a write excludes
 * readers only for the time of a map and index update. Index functions run under the write lock
 * and must not call back into the store.
 *
 * @param <T> the object type
 */
public interface ThreadSafeStore<T> {

    /** A store with the given indexers (copied); use {@link Map#of()} for none. */
    static <T> ThreadSafeStore<T> create(Map<String, IndexFunction<T>> indexers) {
        return new DefaultThreadSafeStore<>(indexers);
    }

    /**
     * Inserts or replaces the object under {@code key} and updates every index.
     *
     * @throws RuntimeException whatever an index function throws; the store is then unchanged
     */
    void update(ObjectKey key, T object);

    /** Removes the object under {@code key}; a no-op when there is none. */
    void delete(ObjectKey key);

    /** The object under {@code key}. */
    Optional<T> get(ObjectKey key);

    /** Every object, in no particular order; a new list. */
    List<T> list();

    /** Every key, in no particular order; a new list. */
    List<ObjectKey> listKeys();

    /** The number of objects. */
    int size();

    /**
     * Calls {@code action} for every entry while holding the read lock: a consistent snapshot.
     * The action must be quick and must not write to this store.
     */
    void forEach(BiConsumer<ObjectKey, ? super T> action);

    /**
     * Replaces the whole content with {@code items} and rebuilds every index. The store takes
     * ownership of the map: the caller must not use it afterwards.
     *
     * @throws RuntimeException whatever an index function throws; the store is then unchanged
     */
    void replace(Map<ObjectKey, T> items);

    /**
     * The objects that share at least one value of index {@code indexName} with {@code object}
     * (the union over all of its values, without duplicates).
     *
     * @throws IllegalArgumentException when there is no such index
     */
    List<T> index(String indexName, T object);

    /**
     * The objects indexed under {@code value}; empty for an unknown value.
     *
     * @throws IllegalArgumentException when there is no such index
     */
    List<T> byIndex(String indexName, String value);

    /**
     * The keys indexed under {@code value}, sorted (by namespace, then name); empty for an unknown value.
     *
     * @throws IllegalArgumentException when there is no such index
     */
    List<ObjectKey> indexKeys(String indexName, String value);

    /** The values index {@code indexName} holds keys for; empty for an unknown index. */
    List<String> listIndexFuncValues(String indexName);

    /** The registered indexers, read-only. */
    Map<String, IndexFunction<T>> indexers();

    /**
     * Registers more indexers and indexes every stored object for them at once (allowed at any
     * time, also when the store holds objects).
     *
     * @throws IllegalArgumentException when a name is already registered ("indexer conflict"); nothing is added then
     */
    void addIndexers(Map<String, IndexFunction<T>> newIndexers);
}
