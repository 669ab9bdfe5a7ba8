package io.kubeloop.client.http;

import java.net.URI;

/**
 * Sends requests to one API server through kubeloop's interceptor chain (authentication, user
 * agent, rate limiting, retries, logging) and the JDK HttpClient.
 *
 * <p>Thread-safe; share one instance per server.
 */
public interface ApiTransport extends AutoCloseable {

    /** The server's base URI, e.g. {@code https://127.0.0.1:6443}. */
    URI server();

    /**
     * Sends one request and returns the response, whatever its status code. The caller closes the
     * response.
     *
     * @throws TransportException when no HTTP answer arrives
     */
    ApiResponse send(ApiRequest request);

    /** Releases connections; in-flight streaming responses end. */
    @Override
    void close();
}
