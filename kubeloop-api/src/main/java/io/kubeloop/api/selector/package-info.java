/**
 * Label and field selectors: parse, print canonically, and match — the query language of
 * {@code ?labelSelector=} and {@code ?fieldSelector=}, with apimachinery's grammar and semantics.
 *
 * <p>{@link io.kubeloop.api.selector.LabelSelector} (with {@link io.kubeloop.api.selector.LabelRequirement}
 * and the {@code metav1.LabelSelector} JSON form {@link io.kubeloop.api.selector.LabelSelectorSpec})
 * and {@link io.kubeloop.api.selector.FieldSelector} are immutable values; malformed text throws
 * {@link io.kubeloop.api.selector.SelectorParseException} with the offending position.
 */
package io.kubeloop.api.selector;
