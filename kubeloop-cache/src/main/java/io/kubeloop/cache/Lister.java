package io.kubeloop.cache;

import io.kubeloop.api.GroupResource;
import io.kubeloop.api.selector.LabelSelector;
import java.util.List;

/**
 * Read-only queries over an informer's {@link Indexer} (client-go's generic lister): served from
 * memory, never an API call.
 *
 * {@snippet :
 * Lister<DynamicObject> pods = Lister.create(informer.indexer(), new GroupResource("", "pods"));
 * List<DynamicObject> web = pods.namespace("shop").list(LabelSelector.parse("app=web"));
 * DynamicObject p = pods.namespace("shop").get("web-0"); // NotFoundException when absent
 * }
 *
 * <p>Results are the cache's shared objects: read-only, possibly stale. Thread-safe.
 *
 * @param <T> the object type
 */
public interface Lister<T> {

    /** A lister over {@code indexer}; {@code resource} names the resource in NotFound errors. */
    static <T> Lister<T> create(Indexer<T> indexer, GroupResource resource) {
        return new DefaultLister<>(indexer, resource, "");
    }

    /**
     * The objects (of all namespaces) whose labels match: a selector that matches nothing gives an
     * empty list, {@link LabelSelector#everything()} every object without evaluating labels.
     */
    List<T> list(LabelSelector selector);

    /** Every object. */
    default List<T> list() {
        return list(LabelSelector.everything());
    }

    /**
     * A cluster-scoped object by name.
     *
     * @throws io.kubeloop.api.errors.NotFoundException when the cache has no such object
     */
    T get(String name);

    /** Queries limited to one namespace (served from the namespace index when the indexer has one). */
    NamespaceLister<T> namespace(String namespace);
}
