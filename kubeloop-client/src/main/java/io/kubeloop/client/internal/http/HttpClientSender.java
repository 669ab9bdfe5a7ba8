package io.kubeloop.client.internal.http;

import io.kubeloop.client.http.ApiRequest;
import io.kubeloop.client.http.ApiResponse;
import io.kubeloop.client.http.Interceptor;
import io.kubeloop.client.http.TransportException;
import java.io.IOException;
import java.io.InputStream;
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
import java.util.concurrent.ScheduledThreadPoolExecutor;

/**
 * The last stage: sends the request with the JDK {@link HttpClient}. Non-streaming responses are
 * read whole within {@code requestTimeout}: the JDK's request timeout bounds the response head
 * (checked on JDK 25) and {@link HandoffBody}'s deadline, on this stage's timer thread, the rest, so a
 * body that stopped arriving on a dead HTTP/2 connection is not waited for forever. Streaming responses must bring
 * their head within {@code requestTimeout} (the JDK's request timeout) and their body is
 * handed over unread, without a timeout here: a watch's own bounds ({@code io.kubeloop.client.Watch})
 * end it by closing that body, which also ends a read blocked in another thread. Whole bodies are received
 * through {@link HandoffBody}, so the client keeps none of them. Failures to get an HTTP
 * answer become a one-line {@link TransportException}, e.g.
 * {@code cannot reach https://127.0.0.1:6443: connection refused}.
 *
 * <p>The client is the {@link SharedHttpClient}'s current one. A request without a response head
 * (or, non-streaming, without its whole response) within {@code requestTimeout} retires that client
 * (its connection is presumed dead), and so does a
 * streaming response closed as dead ({@link ApiResponse#closeDeadConnection}, a watch that went
 * silent); a request refused by a client retired just after it picked it was never sent and goes to
 * the new client.
 *
 * <p>Thread-safe (the HttpClient and the holder are).
 */
final class HttpClientSender implements Interceptor {

    /** Headers the JDK client sets itself and refuses from callers. */
    private static final Set<String> RESTRICTED = Set.of("connection", "content-length", "expect", "host", "upgrade");

    private final SharedHttpClient clients;
    private final Duration requestTimeout;
    private final long requestTimeoutNanos;
    private final TransportFailures failures;
    /** Ends bodies that miss their deadline; one daemon thread, started on first use. */
    private final ScheduledThreadPoolExecutor timer;

    HttpClientSender(SharedHttpClient clients, Duration requestTimeout, Duration connectTimeout) {
        this.clients = clients;
        this.requestTimeout = requestTimeout;
        long nanos;
        try {
            nanos = requestTimeout.toNanos();
        } catch (ArithmeticException tooLong) {
            nanos = Long.MAX_VALUE;
        }
        this.requestTimeoutNanos = nanos;
        this.failures = new TransportFailures(connectTimeout, requestTimeout);
        this.timer = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "kubeloop-http-deadlines");
            t.setDaemon(true);
            return t;
        });
        timer.setRemoveOnCancelPolicy(true);
    }

    /** Stops the deadline timer; bodies still being read then have no deadline. */
    void close() {
        timer.shutdownNow();
    }

    @Override
    public ApiResponse intercept(Chain chain) {
        ApiRequest request = chain.request();
        HttpRequest.Builder b = HttpRequest.newBuilder(request.uri())
                .method(
                        request.method(),
                        request.body() == null
                                ? HttpRequest.BodyPublishers.noBody()
                                : HttpRequest.BodyPublishers.ofByteArray(request.body()));
        b.timeout(requestTimeout); // the head; a non-streaming call's body has its deadline in HandoffBody
        request.headers().forEach((name, values) -> {
            if (!RESTRICTED.contains(name.toLowerCase(Locale.ROOT))) {
                values.forEach(v -> b.header(name, v));
            }
        });
        if (request.body() != null && request.header("Content-Type") == null) {
            b.header("Content-Type", "application/json");
        }
        HttpRequest httpRequest = b.build();
        SharedHttpClient.Generation generation = clients.current();
        try {
            try {
                return send(generation, request, httpRequest);
            } catch (IOException e) {
                if (!clients.refusedAsRetired(generation, e)) {
                    throw e;
                }
                generation = clients.current();
                return send(generation, request, httpRequest);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TransportException(request.uri(), request.method() + " " + request.uri() + ": interrupted", e);
        } catch (HttpConnectTimeoutException e) {
            throw failures.of(request, e, false);
        } catch (HttpTimeoutException e) {
            TransportException failure = failures.of(request, e, false);
            clients.retire(generation, failure.getMessage());
            throw failure;
        } catch (IOException | UnresolvedAddressException e) {
            throw failures.of(request, e, false);
        }
    }

    private ApiResponse send(SharedHttpClient.Generation generation, ApiRequest request, HttpRequest httpRequest)
            throws IOException, InterruptedException {
        if (request.streaming()) {
            HttpResponse<InputStream> r =
                    generation.client().send(httpRequest, HttpResponse.BodyHandlers.ofInputStream());
            return new ApiResponse(request, r.statusCode(), headers(r), r.body())
                    .onDeadConnection(reason -> clients.retire(generation, reason));
        }
        long deadline = System.nanoTime() + Math.min(requestTimeoutNanos, Long.MAX_VALUE / 4);
        HttpResponse<HandoffBody> r = generation.client().send(httpRequest, HandoffBody.handler(timer, deadline));
        return ApiResponse.buffered(
                request, r.statusCode(), headers(r), r.body().take());
    }

    /** What failed a call, as send would have thrown it: unchecked failures as they are, the others as IOExceptions. */
    private static IOException ioFailure(Throwable cause) {
        if (cause instanceof IOException io) {
            return io;
        }
        if (cause instanceof RuntimeException unchecked) {
            throw unchecked;
        }
        if (cause instanceof Error error) {
            throw error;
        }
        return new IOException(cause.getMessage(), cause);
    }

    private static Map<String, List<String>> headers(HttpResponse<?> r) {
        return r.headers().map();
    }
}
