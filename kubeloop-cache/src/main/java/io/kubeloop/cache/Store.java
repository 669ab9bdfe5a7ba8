package io.kubeloop.cache;

import io.kubeloop.api.ObjectKey;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A thread-safe object cache keyed by a {@link KeyFunction} (client-go's {@code Store}).
 *
 * <ul>
 *   <li>{@link #add} and {@link #update} are the same upsert; deleting an absent object is a silent no-op.</li>
 *   <li>{@link #list} and {@link #listKeys} come in no particular order.</li>
 *   <li>{@link #replace} computes every key first (a {@link KeyException} aborts with nothing
 *       changed), then swaps the content in at once, rebuilds every index and remembers the
 *       resourceVersion.</li>
 *   <li>{@link #resync} does nothing.</li>
 * </ul>
 *
 * <p><b>Objects are shared and read-only</b>: see {@link ThreadSafeStore}.
 *
 * <p><b>Thread safety.</b> Thread-safe; readers never block each other.
 *
 * @param <T> the object type
 */
public interface Store<T> extends ReflectorStore<T>, KnownObjects<T> {

    /** A store keyed by {@code keyFunction}, without indices. */
    static <T> Store<T> create(KeyFunction keyFunction) {
        return new DefaultIndexer<>(keyFunction, Map.of());
    }

    /**
     * Inserts or replaces the object.
     *
     * @throws KeyException when the object has no key
     */
    @Override
    void add(T object);

    /** The same as {@link #add}. */
    @Override
    void update(T object);

    /** Removes the object stored under the key of {@code object}; a no-op when there is none. */
    @Override
    void delete(T object);

    /** Removes the object under {@code key}; a no-op when there is none. */
    void deleteByKey(ObjectKey key);

    /** Every object; a new list. */
    List<T> list();

    /** Every key; a new list. */
    List<ObjectKey> listKeys();

    /** The number of objects. */
    int size();

    /** The stored object with the key of {@code object}. */
    Optional<T> get(T object);

    /** The key function of this store. */
    KeyFunction keyFunction();

    /**
     * The resourceVersion of the last {@link #replace} (client-go's
     * {@code LastStoreSyncResourceVersion}); empty before the first.
     */
    String lastSyncResourceVersion();
}
