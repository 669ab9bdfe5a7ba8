package io.kubeloop.controller.internal.endpoints;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.kubeloop.time.Ticker;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;

/**
 * A small plain-HTTP server for a manager's probes, metrics and live view: {@link #health} routes a path
 * to a {@link HealthEndpoint}, {@link #text} to a supplier of a text body, {@link #events} to a stream of
 * server-sent events; everything answers GET and HEAD only (405 otherwise) and 404 outside its routes.
 * Each request runs on a virtual thread.
 *
 * <p><b>Thread safety:</b> routes are added before {@link #start}; then thread-safe.
 */
public final class EndpointServer implements AutoCloseable {

    /** How a route answers: status, content type, body. */
    private interface Route {
        Reply reply(String subPath, Map<String, List<String>> query);
    }

    private record Reply(int status, String contentType, String body) {}

    /** A stream of server-sent events: each {@code data} answer, then a wait, until the client leaves. */
    private record Stream(Supplier<String> data, Duration interval, Ticker ticker) {}

    private final String what;
    private final Map<String, Route> routes = new LinkedHashMap<>();
    private final Map<String, Stream> streams = new LinkedHashMap<>();
    /** Set by {@link #close()}: streams end at their next tick. */
    private volatile boolean closing;

    private HttpServer server;
    private ExecutorService executor;

    /**
     * A server not yet listening.
     *
     * @param what a short description for messages, e.g. {@code "metrics"}
     */
    public EndpointServer(String what) {
        this.what = Objects.requireNonNull(what, "what");
    }

    /**
     * Serves {@code endpoint} on {@code path} and below it ({@code path/<check>}).
     *
     * @param path e.g. {@code /healthz}
     * @param endpoint the checks
     * @return this server
     */
    public EndpointServer health(String path, HealthEndpoint endpoint) {
        routes.put(path, (sub, query) -> {
            HealthEndpoint.Answer a = endpoint.answer(sub, query);
            return new Reply(a.status(), "text/plain; charset=utf-8", a.body());
        });
        return this;
    }

    /**
     * Serves {@code body} on exactly {@code path}.
     *
     * @param path e.g. {@code /metrics}
     * @param contentType the body's content type
     * @param body called per request
     * @return this server
     */
    public EndpointServer text(String path, String contentType, Supplier<String> body) {
        routes.put(
                path,
                (sub, query) -> sub.isEmpty()
                        ? new Reply(200, contentType, body.get())
                        : new Reply(404, "text/plain; charset=utf-8", "404 page not found\n"));
        return this;
    }

    /**
     * Serves server-sent events on exactly {@code path} ({@code text/event-stream}): one {@code data:}
     * event with {@code data}'s answer (one line) at once and then every {@code interval} on {@code
     * ticker}, until the client disconnects or the server closes.
     *
     * @param path e.g. {@code /loops/events}
     * @return this server
     */
    public EndpointServer events(String path, Supplier<String> data, Duration interval, Ticker ticker) {
        streams.put(path, new Stream(data, interval, ticker));
        return this;
    }

    /**
     * Binds and starts serving.
     *
     * @param address where to listen (port 0: a free port)
     * @return the bound address
     * @throws UncheckedIOException with the address in its message when it cannot bind
     */
    public synchronized InetSocketAddress start(InetSocketAddress address) {
        if (server != null) {
            throw new IllegalStateException(what + " server already started");
        }
        try {
            server = HttpServer.create(address, 0);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot serve " + what + " on " + address + ": " + e.getMessage(), e);
        }
        executor = Executors.newVirtualThreadPerTaskExecutor();
        server.setExecutor(executor);
        server.createContext("/", this::handle);
        server.start();
        return server.getAddress();
    }

    /** The bound address, once started. */
    public synchronized InetSocketAddress address() {
        if (server == null) {
            throw new IllegalStateException(what + " server not started");
        }
        return server.getAddress();
    }

    private void handle(HttpExchange exchange) throws IOException {
        Stream stream = streams.get(exchange.getRequestURI().getPath());
        if (stream != null && exchange.getRequestMethod().equals("GET")) {
            stream(exchange, stream);
            return;
        }
        try (exchange) {
            String method = exchange.getRequestMethod();
            Reply reply;
            if (!method.equals("GET") && !method.equals("HEAD")) {
                exchange.getResponseHeaders().set("Allow", "GET, HEAD");
                reply = new Reply(405, "text/plain; charset=utf-8", "405 method not allowed\n");
            } else {
                reply = route(
                        exchange.getRequestURI().getPath(),
                        query(exchange.getRequestURI().getRawQuery()));
            }
            byte[] body = reply.body().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", reply.contentType());
            exchange.getResponseHeaders().set("X-Content-Type-Options", "nosniff");
            boolean head = method.equals("HEAD");
            exchange.sendResponseHeaders(reply.status(), head ? -1 : body.length == 0 ? -1 : body.length);
            if (!head && body.length > 0) {
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(body);
                }
            }
        }
    }

    private void stream(HttpExchange exchange, Stream stream) {
        try (exchange) {
            exchange.getResponseHeaders().set("Content-Type", "text/event-stream; charset=utf-8");
            exchange.getResponseHeaders().set("Cache-Control", "no-cache");
            exchange.getResponseHeaders().set("X-Content-Type-Options", "nosniff");
            exchange.sendResponseHeaders(200, 0);
            OutputStream out = exchange.getResponseBody();
            while (!closing) {
                String line = stream.data().get().replace('\n', ' ');
                out.write(("data: " + line + "\n\n").getBytes(StandardCharsets.UTF_8));
                out.flush();
                stream.ticker().sleep(stream.interval());
            }
        } catch (IOException e) {
            // the client went away
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private Reply route(String path, Map<String, List<String>> query) {
        for (Map.Entry<String, Route> r : routes.entrySet()) {
            String prefix = r.getKey();
            if (path.equals(prefix) || path.startsWith(prefix + "/")) {
                return r.getValue().reply(path.substring(prefix.length()), query);
            }
        }
        return new Reply(404, "text/plain; charset=utf-8", "404 page not found\n");
    }

    private static Map<String, List<String>> query(String raw) {
        Map<String, List<String>> out = new LinkedHashMap<>();
        if (raw == null || raw.isEmpty()) {
            return out;
        }
        for (String param : raw.split("&")) {
            int eq = param.indexOf('=');
            String key = URLDecoder.decode(eq < 0 ? param : param.substring(0, eq), StandardCharsets.UTF_8);
            String value = eq < 0 ? "" : URLDecoder.decode(param.substring(eq + 1), StandardCharsets.UTF_8);
            out.computeIfAbsent(key, k -> new ArrayList<>()).add(value);
        }
        return out;
    }

    /** Stops listening at once; idempotent. */
    @Override
    public synchronized void close() {
        closing = true;
        if (server != null) {
            server.stop(0);
            executor.close();
        }
    }
}
