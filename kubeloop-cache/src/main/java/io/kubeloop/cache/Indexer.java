package io.kubeloop.cache;

import io.kubeloop.api.ObjectKey;
import java.util.List;
import java.util.Map;

/**
 * A {@link Store} with named secondary indices (client-go's {@code Indexer}). Every index is
 * consistent with the stored objects after every operation; see {@link ThreadSafeStore} for the
 * exact semantics of each query.
 *
 * {@snippet :
 * Indexer<DynamicObject> pods = Indexer.create(KeyFunction.metaNamespace(),
 *         Map.of(Indexer.NAMESPACE_INDEX, IndexFunction.namespace(), "app", IndexFunction.label("app")));
 * pods.add(pod);
 * List<DynamicObject> web = pods.byIndex("app", "web");
 * }
 *
 * <p><b>Thread safety.</b> Thread-safe; readers never block each other.
 *
 * @param <T> the object type
 */
public interface Indexer<T> extends Store<T> {

    /** The name of the namespace index (client-go's {@code NamespaceIndex}). */
    String NAMESPACE_INDEX = "namespace";

    /**
     * An indexer keyed by {@code keyFunction} with the given indexers.
     *
     * @param indexers index name to function; use {@link Map#of()} for none
     */
    static <T> Indexer<T> create(KeyFunction keyFunction, Map<String, IndexFunction<T>> indexers) {
        return new DefaultIndexer<>(keyFunction, indexers);
    }

    /** An indexer with the deletion-handling namespace key function and the namespace index, as informers use. */
    static <T> Indexer<T> withNamespaceIndex() {
        return new DefaultIndexer<>(
                KeyFunction.deletionHandling(KeyFunction.metaNamespace()),
                Map.of(NAMESPACE_INDEX, IndexFunction.namespace()));
    }

    /** @see ThreadSafeStore#index */
    List<T> index(String indexName, T object);

    /** @see ThreadSafeStore#byIndex */
    List<T> byIndex(String indexName, String value);

    /** @see ThreadSafeStore#indexKeys */
    List<ObjectKey> indexKeys(String indexName, String value);

    /** @see ThreadSafeStore#listIndexFuncValues */
    List<String> listIndexFuncValues(String indexName);

    /** The registered indexers, read-only. */
    Map<String, IndexFunction<T>> indexers();

    /** @see ThreadSafeStore#addIndexers */
    void addIndexers(Map<String, IndexFunction<T>> newIndexers);
}
