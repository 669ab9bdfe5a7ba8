/**
 * Helpers shared by kubeloop's modules: joining a component's threads on stop
 * ({@link io.kubeloop.time.internal.Joins}) and waiting on a ticker for a condition or a deadline
 * ({@link io.kubeloop.time.internal.Waiters}). Exported only to kubeloop's modules; not an API.
 */
package io.kubeloop.time.internal;
