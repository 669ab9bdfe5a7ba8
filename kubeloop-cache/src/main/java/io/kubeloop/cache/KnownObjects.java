package io.kubeloop.cache;

import io.kubeloop.api.ObjectKey;
import java.util.Optional;
import java.util.function.BiConsumer;

/**
 * What an informer queue needs to know about the cache behind it (client-go's
 * {@code KeyListerGetter}): which keys are known, and their objects. The informer's {@link Indexer}.
 *
 * <p>Implementations are thread-safe.
 *
 * @param <T> the object type
 */
public interface KnownObjects<T> {

    /** The object under {@code key}. */
    Optional<T> getByKey(ObjectKey key);

    /** True when an object is stored under {@code key}. */
    default boolean containsKey(ObjectKey key) {
        return getByKey(key).isPresent();
    }

    /**
     * Calls {@code action} for every key and object in one consistent snapshot (taken under the
     * store's read lock, so a key is never seen without its object).
     */
    void forEach(BiConsumer<ObjectKey, ? super T> action);
}
