/**
 * The embedded server's TLS material: a CA and the server certificate it signs
 * ({@link io.kubeloop.apiserver.internal.tls.TlsMaterial}), generated per run or kept in a data directory
 * ({@code pki/}).
 *
 * <p>Internal to kubeloop-apiserver and no API: the module exports it to kubeloop-testing only (the
 * fault-injecting proxy's certificates); it may change in any release.
 */
package io.kubeloop.apiserver.internal.tls;
