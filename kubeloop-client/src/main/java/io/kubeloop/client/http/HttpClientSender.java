package io.kubeloop.client.http;

import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.channels.UnresolvedAddressException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The last stage: sends the request with the JDK {@link HttpClient}. Non-streaming responses are
 * read whole within {@code requestTimeout}; streaming responses must bring their head within
 * {@code requestTimeout} (the JDK's request timeout ends at the head for them) and their body is
 * handed over unread, without a timeout here: a watch's own bounds ({@code io.kubeloop.client.Watch})
 * end it by closing that body, which also ends a read blocked in another thread. Whole bodies are received
 * through {@link HandoffBody}, so the client keeps none of them. Failures to get an HTTP
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
    private final TransportFailures failures;

    HttpClientSender(HttpClient client, Duration requestTimeout, Duration connectTimeout) {
        this.client = client;
        this.requestTimeout = requestTimeout;
        this.failures = new TransportFailures(connectTimeout, requestTimeout);
    }

    @Override
    public ApiResponse intercept(Chain chain) {
        ApiRequest request = chain.request();
        HttpRequest.Builder b = HttpRequest.newBuilder(request.uri())
                .method(request.method(), request.body() == null
                        ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofByteArray(request.body()));
        b.timeout(requestTimeout);
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
            HttpResponse<HandoffBody> r = client.send(b.build(), HandoffBody.handler());
            return ApiResponse.buffered(request, r.statusCode(), headers(r), r.body().take());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TransportException(request.uri(), request.method() + " " + request.uri() + ": interrupted", e);
        } catch (IOException | UnresolvedAddressException e) {
            throw failures.of(request, e, false);
        }
    }

    private static Map<String, List<String>> headers(HttpResponse<?> r) {
        return r.headers().map();
    }

}
