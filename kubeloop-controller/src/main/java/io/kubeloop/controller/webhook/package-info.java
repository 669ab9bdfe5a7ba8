/**
 * Admission and conversion webhooks served from a controller, as controller-runtime serves them: a
 * {@link io.kubeloop.controller.webhook.WebhookServer} (HTTPS, certificates read from files and reloaded
 * when they change) with defaulting and validating webhooks for a type
 * ({@link io.kubeloop.controller.webhook.TypedWebhooks}) and conversion between a type's versions through a
 * hub version ({@link io.kubeloop.controller.webhook.Conversions}).
 */
package io.kubeloop.controller.webhook;
