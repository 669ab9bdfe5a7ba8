/**
 * What a {@link io.kubeloop.controller.Manager} serves over plain HTTP, as controller-runtime's
 * manager does: health probes ({@code /healthz}, {@code /readyz}) made of named
 * {@link io.kubeloop.controller.endpoints.HealthCheck}s, added with
 * {@link io.kubeloop.controller.Manager#addHealthzCheck} and
 * {@link io.kubeloop.controller.Manager#addReadyzCheck}, and Prometheus metrics ({@code /metrics}).
 */
package io.kubeloop.controller.endpoints;
