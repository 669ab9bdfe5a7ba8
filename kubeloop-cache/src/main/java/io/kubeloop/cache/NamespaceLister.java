package io.kubeloop.cache;

import io.kubeloop.api.selector.LabelSelector;
import java.util.List;

/**
 * A {@link Lister} limited to one namespace. Read-only, from memory; thread-safe.
 *
 * @param <T> the object type
 */
public interface NamespaceLister<T> {

    /** The objects of this namespace whose labels match. */
    List<T> list(LabelSelector selector);

    /** Every object of this namespace. */
    default List<T> list() {
        return list(LabelSelector.everything());
    }

    /**
     * An object of this namespace by name.
     *
     * @throws io.kubeloop.api.errors.NotFoundException when the cache has no such object
     */
    T get(String name);
}
