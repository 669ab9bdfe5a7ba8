package io.kubeloop.cache.testing;

import io.kubeloop.api.ObjectAccess;
import io.kubeloop.api.selector.FieldSelector;
import io.kubeloop.api.selector.LabelSelector;
import io.kubeloop.client.ListOptions;

/**
 * The label and field selectors of a list or watch request, applied to objects as a server would.
 *
 * @param labels the label selector, or null for none
 * @param fields the field selector (metadata fields), or null for none
 */
record SelectorFilter(LabelSelector labels, FieldSelector fields) {

    /** The selectors of {@code options}; an invalid selector fails as the server would (400). */
    static SelectorFilter of(ListOptions options) {
        return new SelectorFilter(
                options.labelSelector() == null ? null : LabelSelector.parse(options.labelSelector()),
                options.fieldSelector() == null ? null : FieldSelector.parse(options.fieldSelector()));
    }

    /** True when {@code object} matches both selectors. */
    boolean test(Object object) {
        return (labels == null || labels.matches(ObjectAccess.labels(object)))
                && (fields == null || fields.matchesMetadata(object));
    }
}
