/**
 * API errors: the server's {@link io.kubeloop.api.errors.Status} and the typed, unchecked
 * {@link io.kubeloop.api.errors.ApiException} family, one class per Status reason.
 *
 * <p>{@link io.kubeloop.api.errors.ApiExceptions#from(int, String, byte[], java.time.Duration)} turns
 * any failed reply (a Status, or a proxy's HTML page) into the right subclass, so callers write
 * {@code catch (NotFoundException e)} instead of comparing codes. Every exception carries a Status,
 * the HTTP code and, where the server gave one, a retry-after hint.
 */
package io.kubeloop.api.errors;
