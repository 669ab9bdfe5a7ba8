/**
 * The owned objects of {@code ReconcileContext.owned}: the comparison of a desired state with what
 * the cache holds ({@link io.kubeloop.controller.internal.desired.JsonSubset}), the canonical form of
 * quantities, and a controller's memory of its last applies. Not an API.
 */
package io.kubeloop.controller.internal.desired;
