package io.kubeloop.cache;

import io.kubeloop.api.ObjectAccess;
import io.kubeloop.api.ObjectKey;
import java.util.Objects;

/**
 * Computes the {@link ObjectKey} under which a store keeps an object (client-go's {@code KeyFunc}).
 * Keys are records of the namespace and name the object already holds, so computing one allocates
 * a single small record and never concatenates strings; the {@code ns/name} text form is only
 * built by {@link ObjectKey#toString()}.
 *
 * <p>Implementations must be deterministic, fast and thread-safe.
 */
@FunctionalInterface
public interface KeyFunction {

    /**
     * The key of {@code object}.
     *
     * @throws KeyException when the object has no name (or cannot be read at all)
     */
    ObjectKey key(Object object);

    /**
     * client-go's {@code MetaNamespaceKeyFunc}: {@code namespace/name}, or {@code name} for
     * cluster-scoped objects. An {@link ObjectKey} is its own key ({@code ExplicitKey}).
     */
    static KeyFunction metaNamespace() {
        return KeyFunctions.META_NAMESPACE;
    }

    /**
     * client-go's {@code DeletionHandlingMetaNamespaceKeyFunc}: the key of a
     * {@link DeletedFinalStateUnknown} is its {@code key}, taken verbatim; anything else is
     * delegated. Informer indexers use it.
     */
    static KeyFunction deletionHandling(KeyFunction delegate) {
        Objects.requireNonNull(delegate, "delegate");
        return object -> object instanceof DeletedFinalStateUnknown<?> d ? d.key() : delegate.key(object);
    }

    /**
     * client-go's {@code SplitMetaNamespaceKey}: {@code name} gives a cluster-scoped key,
     * {@code ns/name} a namespaced one.
     *
     * @throws KeyException for more than one {@code /} or an empty part
     */
    static ObjectKey split(String key) {
        Objects.requireNonNull(key, "key");
        try {
            return ObjectKey.parse(key);
        } catch (IllegalArgumentException e) {
            throw new KeyException(key, "unexpected key format: \"" + key + "\"", e);
        }
    }
}

/** Holder of the shared stateless key functions. */
final class KeyFunctions {

    static final KeyFunction META_NAMESPACE = object -> {
        if (object instanceof ObjectKey explicit) {
            return explicit;
        }
        if (object == null) {
            throw new KeyException(null, "cannot compute the key of null", null);
        }
        try {
            return ObjectAccess.key(object);
        } catch (RuntimeException e) {
            throw new KeyException(
                    object, "cannot compute the key of " + object.getClass().getName() + ": " + e.getMessage(), e);
        }
    };

    private KeyFunctions() {}
}
