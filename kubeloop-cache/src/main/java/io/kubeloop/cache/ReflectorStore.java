package io.kubeloop.cache;

import java.util.List;

/**
 * The part of a store a {@link Reflector} writes to (client-go's {@code ReflectorStore}): a
 * {@link Store}, or an informer queue ({@code RealFifo}, {@code DeltaFifo}) in front of one.
 *
 * <p>Implementations are thread-safe.
 *
 * @param <T> the object type
 */
public interface ReflectorStore<T> {

    /** An object appeared (watch ADDED). */
    void add(T object);

    /** An object changed (watch MODIFIED). */
    void update(T object);

    /** An object was deleted (watch DELETED); {@code object} is its last state. */
    void delete(T object);

    /**
     * The complete state at {@code resourceVersion} (a list, or the end of a watch-list's initial
     * events): whatever is not in {@code objects} is gone.
     *
     * @throws KeyException when an object has no key; nothing changes then
     */
    void replace(List<T> objects, String resourceVersion);

    /** A periodic resync tick (client-go's {@code Resync}); what it does depends on the store. */
    void resync();
}
