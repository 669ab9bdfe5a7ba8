/**
 * The plain-HTTP server behind a {@link io.kubeloop.controller.Manager}'s probes and metrics, and
 * the healthz/readyz answers it gives; used by the manager only. No API: exported to no module.
 */
package io.kubeloop.controller.internal.endpoints;
