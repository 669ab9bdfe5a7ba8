/**
 * Not API: the implementation of the HTTP pipeline whose extension points are in {@link
 * io.kubeloop.client.http} — {@code DefaultApiTransport}, which {@code KubeClient.create} builds;
 * the built-in interceptors (retry, rate limit, User-Agent, authentication, request logging); the
 * senders (one HTTP/1.1 TLS connection per streaming GET, the JDK HttpClient for everything else)
 * and their body streams. Exported to no module; its types may change in any release.
 */
package io.kubeloop.client.internal.http;
