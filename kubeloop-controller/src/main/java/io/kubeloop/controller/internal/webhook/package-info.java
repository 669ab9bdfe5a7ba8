/** The webhook server's implementation: TLS from reloaded PEM files, JSON patches. Not API. */
package io.kubeloop.controller.internal.webhook;
