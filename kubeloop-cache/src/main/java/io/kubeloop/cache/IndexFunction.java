package io.kubeloop.cache;

import io.kubeloop.api.ObjectAccess;
import java.util.List;

/**
 * Computes the values an object is indexed under in one named index (client-go's
 * {@code IndexFunc}). An object may have zero, one or many values; the values must depend only on
 * the object. Throwing is a programming error: the write that called the function fails before
 * anything changes.
 *
 * <p>Implementations must be deterministic, fast and thread-safe; single-valued functions should
 * return {@link List#of(Object)}.
 *
 * @param <T> the object type
 */
@FunctionalInterface
public interface IndexFunction<T> {

    /** The index values of {@code object}; never null (return an empty list for none). */
    List<String> values(T object);

    /**
     * client-go's {@code MetaNamespaceIndexFunc}: the object's namespace, {@code ""} for
     * cluster-scoped objects. Registered under {@link Indexer#NAMESPACE_INDEX}.
     */
    static <T> IndexFunction<T> namespace() {
        return object -> List.of(ObjectAccess.namespace(object));
    }

    /**
     * An index over the value of one label; objects without the label are not indexed.
     *
     * @param label the label key, e.g. {@code app}
     */
    static <T> IndexFunction<T> label(String label) {
        return object -> {
            String v = ObjectAccess.labels(object).get(label);
            return v == null ? List.of() : List.of(v);
        };
    }
}
