/**
 * HTTP face of the embedded API server on Jetty 12 (core Handler API): TLS, bearer-token authentication,
 * routing, discovery, OpenAPI v2/v3 ({@link io.kubeloop.apiserver.internal.http.LibraryOpenApiDocuments}), Tables, watch
 * streaming over chunked HTTP and WebSocket.
 *
 * <h2>Concurrency</h2>
 * <ul>
 *   <li><b>Threads</b>: Jetty's {@code VirtualThreadPool} runs every request on its own virtual thread;
 *       handlers block freely (body reads, watch loops). A WebSocket watch gets one extra virtual thread
 *       pumping its events. Thousands of open watches cost thousands of virtual threads, not platform
 *       threads.</li>
 *   <li><b>Locks</b>: none here; the storage lock is taken only inside registry calls. Discovery
 *       documents are cached in a concurrent map keyed by the registry revision; OpenAPI documents are
 *       rebuilt under one lock on the first request after the revision changed.</li>
 *   <li><b>Buffers</b>: a watch reads from its storage {@code Watcher} (bounded, see the storage package)
 *       and writes batches of ready events with one blocking write + flush; a slow client therefore
 *       slows only its own thread, and when its storage buffer overflows the store ends the watch (the
 *       response completes, the client re-watches or relists).</li>
 *   <li><b>Timeouts</b>: connector idle timeout 2 h (silent watches must not be cut); watches end at
 *       {@code timeoutSeconds} or after 30–60 min.</li>
 * </ul>
 *
 * <p>Internal to kubeloop-apiserver and no API: the module does not export it; it may change in any
 * release.
 */
package io.kubeloop.apiserver.internal.http;
