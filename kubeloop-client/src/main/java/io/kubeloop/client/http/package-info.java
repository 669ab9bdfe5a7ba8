/**
 * The HTTP pipeline to one API server, built like OkHttp's: an {@link io.kubeloop.client.http.ApiTransport}
 * runs each {@link io.kubeloop.client.http.ApiRequest} through a list of
 * {@link io.kubeloop.client.http.Interceptor}s — application interceptors, retry of safe requests
 * on 429/5xx with Retry-After, a client-side token-bucket limiter, User-Agent, authentication
 * (one retry after 401), kubectl-style {@code -v} request logging with masked credentials — and
 * finally the sender: streaming GETs (watches, streamed lists) on an HTTP/1.1 TLS connection of their own each
 * ({@code SocketStreamSender}), everything else through the JDK {@link java.net.http.HttpClient}
 * (HTTP/2 preferred; whole bodies received by {@code HandoffBody}, which the client does not keep).
 * TLS comes from the {@link io.kubeloop.client.config.ClientConfig}; cipher suites are offered
 * ChaCha20-Poly1305 first ({@code CipherSuites}).
 *
 * <p>This package holds the pipeline's extension points: the transport, requests, responses,
 * interceptors and {@link io.kubeloop.client.http.TransportException}. The implementation — the
 * default transport {@code io.kubeloop.client.KubeClient#create} builds, the built-in interceptors
 * and the senders — is in {@code io.kubeloop.client.internal.http}, which is not API. Failures to
 * get an HTTP answer are {@link io.kubeloop.client.http.TransportException}s with one-line messages;
 * HTTP error replies are returned as responses and turned into typed API exceptions by
 * {@link io.kubeloop.client.http.ApiResponse#requireSuccess()}.
 *
 * <p>Timeouts: connecting within {@code connectTimeout}; a non-streaming call whole, and a streaming
 * call's response head, within {@code requestTimeout}. A streaming body has no timeout in the
 * transport: the watch that reads it bounds it ({@code io.kubeloop.client.Watch}) and ends it by closing
 * it. The dedicated watch connections have TCP keepalive (30 s). The HttpClient's shared connection
 * has no such check (the JDK sends no HTTP/2 PINGs): a request on it without a response head within
 * {@code requestTimeout}, or a watch on it that its bounds ended, makes the transport replace the
 * HttpClient ({@code SharedHttpClient}, see {@code DefaultApiTransport}).
 *
 * <p>Threads: the transport is thread-safe; beyond the HttpClient's threads it starts one virtual
 * thread per open TLS watch, which decrypts ahead of the reader ({@code PrefetchingInputStream})
 * and ends with the watch, and one per replaced HttpClient, which closes it once its requests have
 * ended. The rate limiter and retries block the calling thread (virtual threads
 * are the intended callers).
 */
package io.kubeloop.client.http;
