package io.kubeloop.controller.client;

import java.util.Arrays;
import java.util.Objects;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * What a {@link Cache} holds of one type: controller-runtime's {@code cache.ByObject}. Start from
 * {@link #of(Class)} and narrow:
 *
 * {@snippet :
 * CacheOptions cache = CacheOptions.defaults()
 *         .with(ByObject.of(Pod.class).inNamespaces("shop").withLabelSelector("app=web"));
 * }
 *
 * <p>Immutable.
 *
 * @param type the type
 * @param namespaces the namespaces to hold (one informer each); empty for the cache's
 *     {@linkplain CacheOptions#defaultNamespaces() defaults}. Ignored for cluster-scoped kinds.
 * @param labelSelector a label selector the server applies, empty for none
 * @param fieldSelector a field selector the server applies, empty for none
 * @param transform applied to every object before it is stored (e.g. to drop managedFields), or
 *     null for none; must return an object of the same kind, name and namespace
 * @param unsafeDisableDeepCopy whether reads return the cached instances themselves rather than
 *     copies; the caller then must never change them
 * @param <T> the type
 */
public record ByObject<T>(
        Class<T> type,
        Set<String> namespaces,
        String labelSelector,
        String fieldSelector,
        UnaryOperator<T> transform,
        boolean unsafeDisableDeepCopy) {

    public ByObject {
        Objects.requireNonNull(type, "type");
        namespaces = Set.copyOf(namespaces);
        Objects.requireNonNull(labelSelector, "labelSelector");
        Objects.requireNonNull(fieldSelector, "fieldSelector");
        if (namespaces.contains("")) {
            throw new IllegalArgumentException("namespaces must be names; leave them out for all namespaces");
        }
    }

    /**
     * All objects of {@code type} in the cache's default namespaces, as they are, copied on read.
     *
     * @param type the type
     * @param <T> the type
     * @return the scope
     */
    public static <T> ByObject<T> of(Class<T> type) {
        return new ByObject<>(type, Set.of(), "", "", null, false);
    }

    /**
     * Only these namespaces.
     *
     * @param names namespace names
     * @return a changed copy
     */
    public ByObject<T> inNamespaces(String... names) {
        return new ByObject<>(
                type, Set.copyOf(Arrays.asList(names)), labelSelector, fieldSelector, transform, unsafeDisableDeepCopy);
    }

    /**
     * Only objects matching {@code selector} (label selector syntax, e.g. {@code app=web,tier!=db}).
     *
     * @param selector the selector
     * @return a changed copy
     */
    public ByObject<T> withLabelSelector(String selector) {
        return new ByObject<>(type, namespaces, selector, fieldSelector, transform, unsafeDisableDeepCopy);
    }

    /**
     * Only objects matching {@code selector} (field selector syntax, e.g. {@code spec.nodeName=node-1}).
     *
     * @param selector the selector
     * @return a changed copy
     */
    public ByObject<T> withFieldSelector(String selector) {
        return new ByObject<>(type, namespaces, labelSelector, selector, transform, unsafeDisableDeepCopy);
    }

    /**
     * Stores what {@code function} makes of each object.
     *
     * @param function the transform
     * @return a changed copy
     */
    public ByObject<T> withTransform(UnaryOperator<T> function) {
        return new ByObject<>(
                type,
                namespaces,
                labelSelector,
                fieldSelector,
                Objects.requireNonNull(function, "function"),
                unsafeDisableDeepCopy);
    }

    /**
     * Reads return the cached instances, not copies: faster, and the caller must never change them.
     *
     * @return a changed copy
     */
    public ByObject<T> withUnsafeDisableDeepCopy() {
        return new ByObject<>(type, namespaces, labelSelector, fieldSelector, transform, true);
    }
}
