package io.kubeloop.client.internal.http;

import io.kubeloop.api.errors.Causes;
import io.kubeloop.client.http.ApiRequest;
import io.kubeloop.client.http.TransportException;
import io.kubeloop.time.Durations;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.UnknownHostException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import java.time.Duration;
import javax.net.ssl.SSLException;

/**
 * Turns what a sender caught while getting an HTTP answer into the one-line
 * {@link TransportException} both senders throw, e.g. {@code cannot reach https://127.0.0.1:6443:
 * connection refused} or {@code TLS handshake with https://… failed: …}.
 *
 * <p>Stateless apart from the two timeouts named in messages; thread-safe.
 */
final class TransportFailures {

    private final Duration connectTimeout;
    private final Duration requestTimeout;

    TransportFailures(Duration connectTimeout, Duration requestTimeout) {
        this.connectTimeout = connectTimeout;
        this.requestTimeout = requestTimeout;
    }

    /**
     * The exception for a failed request.
     *
     * @param connecting true while the connection (TCP and TLS) was being opened: a timeout then
     *        is a connect timeout whatever its type
     */
    TransportException of(ApiRequest request, Exception e, boolean connecting) {
        URI uri = request.uri();
        String server = uri.getScheme() + "://" + uri.getRawAuthority();
        String message;
        if (e instanceof HttpConnectTimeoutException || connecting && e instanceof SocketTimeoutException) {
            message = "cannot reach " + server + ": connect timed out after " + Durations.format(connectTimeout);
        } else if (e instanceof HttpTimeoutException || e instanceof SocketTimeoutException) {
            message = request.method() + " " + uri + ": no response within " + Durations.format(requestTimeout);
        } else if (e instanceof ConnectException) {
            message = "cannot reach " + server + ": " + describe(e, "connection refused");
        } else if (e instanceof UnresolvedAddressException
                || e instanceof UnknownHostException
                || causedBy(e, UnresolvedAddressException.class)) {
            message = "cannot reach " + server + ": unknown host " + uri.getHost();
        } else if (e instanceof SSLException || causedBy(e, SSLException.class)) {
            message = "TLS handshake with " + server + " failed: "
                    + describe(e, e.getClass().getSimpleName());
        } else {
            message = request.method() + " " + uri + " failed: "
                    + describe(e, e.getClass().getSimpleName());
        }
        return new TransportException(uri, message, e);
    }

    private static boolean causedBy(Throwable e, Class<? extends Throwable> type) {
        return Causes.has(e, type);
    }

    /** The innermost non-empty message, first letter lower-cased, or the fallback. */
    private static String describe(Throwable e, String fallback) {
        String found = null;
        for (Throwable t : Causes.chain(e)) {
            if (t.getMessage() != null && !t.getMessage().isBlank()) {
                found = t.getMessage();
            }
        }
        if (found == null) {
            return fallback;
        }
        found = found.strip();
        return Character.toLowerCase(found.charAt(0)) + found.substring(1);
    }
}
