/**
 * The server's {@link io.kubeloop.api.errors.Status} and the typed, unchecked {@link io.kubeloop.api.errors.ApiException} family, one class per reason.
 */
package io.kubeloop.api.errors;
