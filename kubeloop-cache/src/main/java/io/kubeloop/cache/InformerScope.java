package io.kubeloop.cache;

import java.util.Objects;

/**
 * Which objects of a resource an informer caches: a namespace ({@code ""} for all namespaces or a
 * cluster-scoped resource) and optional label and field selectors sent to the server.
 *
 * <p>Immutable and thread-safe; a map key of {@link InformerFactory}.
 *
 * @param namespace the namespace, {@code ""} for all
 * @param labelSelector e.g. {@code app=web}; {@code ""} for none
 * @param fieldSelector e.g. {@code status.phase=Running}; {@code ""} for none
 */
public record InformerScope(String namespace, String labelSelector, String fieldSelector) {

    private static final InformerScope ALL = new InformerScope("", "", "");

    public InformerScope {
        namespace = namespace == null ? "" : namespace;
        labelSelector = labelSelector == null ? "" : labelSelector;
        fieldSelector = fieldSelector == null ? "" : fieldSelector;
    }

    /** Everything, in all namespaces. */
    public static InformerScope all() {
        return ALL;
    }

    /** Everything in one namespace. */
    public static InformerScope namespace(String namespace) {
        return new InformerScope(Objects.requireNonNull(namespace, "namespace"), "", "");
    }

    /** This scope with a label selector. */
    public InformerScope withLabelSelector(String selector) {
        return new InformerScope(namespace, selector, fieldSelector);
    }

    /** This scope with a field selector. */
    public InformerScope withFieldSelector(String selector) {
        return new InformerScope(namespace, labelSelector, selector);
    }

    @Override
    public String toString() {
        return (namespace.isEmpty() ? "*" : namespace)
                + (labelSelector.isEmpty() ? "" : " l:" + labelSelector)
                + (fieldSelector.isEmpty() ? "" : " f:" + fieldSelector);
    }
}
