/**
 * Metrics of the client-side machinery under the names Kubernetes operators already alert on: the
 * REST client's requests ({@link io.kubeloop.controller.metrics.RestClientMetrics}). A {@link
 * io.kubeloop.controller.Manager} registers them in its registry, served on {@code /metrics}.
 */
package io.kubeloop.controller.metrics;
