/**
 * What a {@link io.kubeloop.controller.Manager} serves over plain HTTP, as controller-runtime's
 * manager does: health probes ({@code /healthz}, {@code /readyz}) made of named
 * {@link io.kubeloop.controller.endpoints.HealthCheck}s, added with
 * {@link io.kubeloop.controller.ManagerEndpoints#addHealthzCheck} and
 * {@link io.kubeloop.controller.ManagerEndpoints#addReadyzCheck}, and Prometheus metrics ({@code /metrics}).
 */
package io.kubeloop.controller.endpoints;
