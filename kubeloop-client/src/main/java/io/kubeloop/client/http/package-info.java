/**
 * The HTTP pipeline to one API server, built like OkHttp's: an {@link io.kubeloop.client.http.ApiTransport}
 * runs each {@link io.kubeloop.client.http.ApiRequest} through a list of
 * {@link io.kubeloop.client.http.Interceptor}s — application interceptors, retry of safe requests
 * on 429/5xx with Retry-After, a client-side token-bucket limiter, User-Agent, authentication
 * (one retry after 401), kubectl-style {@code -v} request logging with masked credentials — and
 * finally the JDK {@link java.net.http.HttpClient} (HTTP/2 preferred, TLS from the
 * {@link io.kubeloop.client.config.ClientConfig}).
 *
 * <p>{@link io.kubeloop.client.http.DefaultApiTransport} is the implementation; the individual
 * interceptors are package-private. Failures to get an HTTP answer are
 * {@link io.kubeloop.client.http.TransportException}s with one-line messages; HTTP error replies
 * are returned as responses and turned into typed API exceptions by
 * {@link io.kubeloop.client.http.ApiResponse#requireSuccess()}.
 *
 * <p>Threads: the transport is thread-safe and holds no threads of its own beyond the HttpClient's;
 * the rate limiter and retries block the calling thread (virtual threads are the intended callers).
 */
package io.kubeloop.client.http;
