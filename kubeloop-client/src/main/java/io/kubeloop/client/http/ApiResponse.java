package io.kubeloop.client.http;

import io.kubeloop.api.GroupResource;
import io.kubeloop.api.errors.ApiException;
import io.kubeloop.api.errors.ApiExceptions;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * One HTTP response. The body is a stream (watches read it incrementally); {@link #bytes()} reads
 * it fully once and keeps the bytes.
 *
 * <p>Not thread-safe: one reader at a time, except that {@link #close()} and
 * {@link #closeDeadConnection} may be called from another thread to abort a blocked read of a
 * streaming body. Close it (or read it fully) to release the connection.
 */
public final class ApiResponse implements AutoCloseable {

    private final ApiRequest request;
    private final int status;
    private final Map<String, List<String>> headers;
    private InputStream body;
    private byte[] bytes;
    private volatile boolean closed;
    /** Told when the body is closed as dead; set by the transport whose connection other requests share, else null. */
    private volatile Consumer<String> onDeadConnection;

    public ApiResponse(ApiRequest request, int status, Map<String, List<String>> headers, InputStream body) {
        this.request = Objects.requireNonNull(request, "request");
        this.status = status;
        this.headers = Map.copyOf(headers);
        this.body = body == null ? InputStream.nullInputStream() : body;
    }

    /** A response whose body is already in memory. */
    public static ApiResponse buffered(ApiRequest request, int status, Map<String, List<String>> headers, byte[] body) {
        ApiResponse r = new ApiResponse(request, status, headers, new ByteArrayInputStream(body));
        r.bytes = body;
        return r;
    }

    public ApiRequest request() {
        return request;
    }

    public int status() {
        return status;
    }

    public Map<String, List<String>> headers() {
        return headers;
    }

    /** The first value of a header (case-insensitive name), or null. */
    public String header(String name) {
        for (Map.Entry<String, List<String>> e : headers.entrySet()) {
            if (e.getKey().equalsIgnoreCase(name) && !e.getValue().isEmpty()) {
                return e.getValue().get(0);
            }
        }
        return null;
    }

    public boolean isSuccessful() {
        return status >= 200 && status < 300;
    }

    /** The body as a stream; after {@link #bytes()} it replays the kept bytes. */
    public InputStream body() {
        return bytes != null ? new ByteArrayInputStream(bytes) : body;
    }

    /** Reads the whole body (once) and returns it. */
    public byte[] bytes() {
        if (bytes == null) {
            try (InputStream in = body) {
                bytes = in.readAllBytes();
            } catch (IOException e) {
                throw new UncheckedIOException(
                        "reading the response body of " + request.method() + " " + request.uri() + " failed: "
                                + e.getMessage(),
                        e);
            }
            body = new ByteArrayInputStream(bytes);
        }
        return bytes;
    }

    /** The Retry-After header as a duration (seconds form only), or null. */
    public Duration retryAfter() {
        String value = header("Retry-After");
        if (value == null) {
            return null;
        }
        try {
            return Duration.ofSeconds(Long.parseLong(value.trim()));
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /**
     * Returns this response when its status is 2xx; otherwise reads the body and throws the
     * matching {@link ApiException}.
     */
    public ApiResponse requireSuccess() {
        return requireSuccess(null, null);
    }

    /**
     * {@link #requireSuccess()} for a request on {@code resource} (and the object {@code name}): a reply
     * that is not a Status names them as client-go does for a request built on a resource, e.g.
     * {@code the server could not find the requested resource (post gateways.gateway.networking.k8s.io)}
     * (see {@link ApiExceptions#from(int, String, byte[], Duration, String, io.kubeloop.api.GroupResource,
     * String)}).
     *
     * @param resource the resource the request is on, or null to name none
     * @param name the object's name in the request's path, or null
     */
    public ApiResponse requireSuccess(GroupResource resource, String name) {
        if (!isSuccessful()) {
            byte[] b;
            try {
                b = bytes();
            } finally {
                close();
            }
            throw ApiExceptions.from(status, header("Content-Type"), b, retryAfter(), request.method(), resource, name);
        }
        return this;
    }

    /**
     * Has {@code listener} told, with the reason, when this response is closed by
     * {@link #closeDeadConnection}: for a transport whose connection other requests share, which
     * then stops using it. Set once, by the transport that made the response, before handing it out.
     *
     * @param listener told the reason once, on the thread that closes the response as dead
     * @return this response
     */
    public ApiResponse onDeadConnection(Consumer<String> listener) {
        this.onDeadConnection = listener;
        return this;
    }

    /**
     * Closes the response as {@link #close()} does, because its connection is presumed dead: nothing
     * arrived on it for longer than a live one allows (a watch ended by its idle timeout or deadline).
     * The transport that made the response is told first, so that requests made once the body is
     * closed no longer use that connection: {@code DefaultApiTransport} replaces the connection its
     * requests share; a connection of the response's own just closes. Callable from any thread;
     * once the response is closed it is the same as {@link #close()}.
     *
     * @param reason what showed the connection dead, for the transport's log
     */
    public void closeDeadConnection(String reason) {
        Consumer<String> listener = onDeadConnection;
        if (listener != null && !closed) {
            listener.accept(reason);
        }
        close();
    }

    /** True once the body was closed or read fully: the connection is free again. */
    public boolean released() {
        return closed || bytes != null;
    }

    @Override
    public void close() {
        closed = true;
        try {
            body.close();
        } catch (IOException ignored) {
            // closing a broken stream: nothing to do
        }
    }
}
