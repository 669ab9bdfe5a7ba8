package io.kubeloop.client.http;

import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import javax.net.ssl.SSLException;

/**
 * The last stage: sends the request with the JDK {@link HttpClient}. Non-streaming responses are
 * read whole within {@code requestTimeout}; streaming responses get no client timeout (the server's
 * {@code timeoutSeconds} ends them) and their body is handed over unread. Failures to get an HTTP
 * answer become a one-line {@link TransportException}, e.g.
 * {@code cannot reach https://127.0.0.1:6443: connection refused}.
 *
 * <p>Thread-safe (the HttpClient is).
 */
final class HttpClientSender implements Interceptor {

    /** Headers the JDK client sets itself and refuses from callers. */
    private static final Set<String> RESTRICTED = Set.of("connection", "content-length", "expect", "host", "upgrade");

    private final HttpClient client;
    private final Duration requestTimeout;
    private final Duration connectTimeout;

    HttpClientSender(HttpClient client, Duration requestTimeout, Duration connectTimeout) {
        this.client = client;
        this.requestTimeout = requestTimeout;
        this.connectTimeout = connectTimeout;
    }

    @Override
    public ApiResponse intercept(Chain chain) {
        ApiRequest request = chain.request();
        HttpRequest.Builder b = HttpRequest.newBuilder(request.uri())
                .method(request.method(), request.body() == null
                        ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofByteArray(request.body()));
        if (!request.streaming()) {
            b.timeout(requestTimeout);
        }
        request.headers().forEach((name, values) -> {
            if (!RESTRICTED.contains(name.toLowerCase(Locale.ROOT))) {
                values.forEach(v -> b.header(name, v));
            }
        });
        if (request.body() != null && request.header("Content-Type") == null) {
            b.header("Content-Type", "application/json");
        }
        try {
            if (request.streaming()) {
                HttpResponse<InputStream> r = client.send(b.build(), HttpResponse.BodyHandlers.ofInputStream());
                return new ApiResponse(request, r.statusCode(), headers(r), r.body());
            }
            HttpResponse<byte[]> r = client.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
            return ApiResponse.buffered(request, r.statusCode(), headers(r), r.body());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TransportException(request.uri(), request.method() + " " + request.uri() + ": interrupted", e);
        } catch (IOException | UnresolvedAddressException e) {
            throw failure(request, e);
        }
    }

    private static Map<String, List<String>> headers(HttpResponse<?> r) {
        return r.headers().map();
    }

    private TransportException failure(ApiRequest request, Exception e) {
        URI uri = request.uri();
        String server = uri.getScheme() + "://" + uri.getRawAuthority();
        String message;
        if (e instanceof HttpConnectTimeoutException) {
            message = "cannot reach " + server + ": connect timed out after " + seconds(connectTimeout);
        } else if (e instanceof HttpTimeoutException) {
            message = request.method() + " " + uri + ": no response within " + seconds(requestTimeout);
        } else if (e instanceof ConnectException) {
            message = "cannot reach " + server + ": " + describe(e, "connection refused");
        } else if (e instanceof UnresolvedAddressException || causedBy(e, UnresolvedAddressException.class)) {
            message = "cannot reach " + server + ": unknown host " + uri.getHost();
        } else if (e instanceof SSLException || causedBy(e, SSLException.class)) {
            message = "TLS handshake with " + server + " failed: " + describe(e, e.getClass().getSimpleName());
        } else {
            message = request.method() + " " + uri + " failed: " + describe(e, e.getClass().getSimpleName());
        }
        return new TransportException(uri, message, e);
    }

    private static String seconds(Duration d) {
        return d.toMillis() % 1000 == 0 ? d.toSeconds() + "s" : d.toMillis() + "ms";
    }

    private static boolean causedBy(Throwable e, Class<? extends Throwable> type) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (type.isInstance(t)) {
                return true;
            }
        }
        return false;
    }

    /** The innermost non-empty message, first letter lower-cased, or the fallback. */
    private static String describe(Throwable e, String fallback) {
        String found = null;
        for (Throwable t = e; t != null; t = t.getCause()) {
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
