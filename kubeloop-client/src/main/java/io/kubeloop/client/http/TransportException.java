package io.kubeloop.client.http;

import java.net.URI;

/**
 * The request did not get an HTTP answer: the server is unreachable, TLS failed, the connection
 * broke, or the call timed out. The message names the server and the cause in one line.
 * {@link io.kubeloop.client.WatchTimeoutException} is the one subclass: a watch the client ended
 * because its connection went silent.
 */
public class TransportException extends RuntimeException {

    private final URI uri;

    public TransportException(URI uri, String message, Throwable cause) {
        super(message, cause);
        this.uri = uri;
    }

    /** The URI of the failed request. */
    public URI uri() {
        return uri;
    }
}
