package io.kubeloop.apiserver.internal.live;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.kubeloop.api.json.KubeJson;
import io.kubeloop.apiserver.internal.registry.ResourceDefinition;
import io.kubeloop.apiserver.internal.registry.ResourceRegistry;
import io.kubeloop.apiserver.internal.storage.StoreEvent;
import io.kubeloop.apiserver.internal.storage.StoredObject;
import io.kubeloop.apiserver.internal.storage.VersionedStore;
import io.kubeloop.time.Ticker;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The embedded server's live view, on plain HTTP beside it (for a browser on the same machine, no
 * credentials): {@code /} is a page of the stored resources with their object counts and open watches,
 * and a feed of the latest changes, updated every second from server-sent events on {@code /events}.
 * It reads the store directly, so it costs the server no requests and needs no token; it binds to
 * loopback unless told otherwise.
 *
 * <p>Thread-safe; {@link #close()} stops it.
 */
public final class ServerLiveView implements AutoCloseable {

    /** Changes the feed shows. */
    static final int FEED = 50;

    private static final String HTML = load();

    private final ResourceRegistry resources;
    private final VersionedStore store;
    private final URI apiServer;
    private final Ticker ticker;
    private final HttpServer http;
    private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
    private volatile boolean closing;

    private ServerLiveView(
            ResourceRegistry resources, VersionedStore store, URI apiServer, Ticker ticker, HttpServer http) {
        this.resources = resources;
        this.store = store;
        this.apiServer = apiServer;
        this.ticker = ticker;
        this.http = http;
    }

    /**
     * Serves the view on {@code address}.
     *
     * @param apiServer the API server's URL, shown on the page
     * @throws UncheckedIOException when the address cannot be bound, naming it
     */
    public static ServerLiveView start(
            InetSocketAddress address, ResourceRegistry resources, VersionedStore store, URI apiServer, Ticker ticker) {
        HttpServer http;
        try {
            http = HttpServer.create(address, 0);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot serve the live view on " + address + ": " + e.getMessage(), e);
        }
        ServerLiveView view = new ServerLiveView(resources, store, apiServer, ticker, http);
        http.setExecutor(view.executor);
        http.createContext("/", view::handle);
        http.start();
        return view;
    }

    /** Where it listens. */
    public InetSocketAddress address() {
        return http.getAddress();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String path = exchange.getRequestURI().getPath();
            exchange.getResponseHeaders().set("X-Content-Type-Options", "nosniff");
            if (!exchange.getRequestMethod().equals("GET")) {
                send(exchange, 405, "text/plain; charset=utf-8", "405 method not allowed\n");
            } else if (path.equals("/")) {
                send(exchange, 200, "text/html; charset=utf-8", HTML);
            } else if (path.equals("/events")) {
                stream(exchange);
            } else {
                send(exchange, 404, "text/plain; charset=utf-8", "404 page not found\n");
            }
        }
    }

    private static void send(HttpExchange exchange, int status, String type, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", type);
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    private void stream(HttpExchange exchange) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", "text/event-stream; charset=utf-8");
        exchange.getResponseHeaders().set("Cache-Control", "no-cache");
        exchange.sendResponseHeaders(200, 0);
        OutputStream out = exchange.getResponseBody();
        try {
            while (!closing) {
                out.write(("data: " + snapshot() + "\n\n").getBytes(StandardCharsets.UTF_8));
                out.flush();
                ticker.sleep(Duration.ofSeconds(1));
            }
        } catch (IOException e) {
            // the browser went away
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * The server now: {@code {"time", "server", "revision", "resources": [{"resource", "objects",
     * "watchers"}], "changes": [{"resourceVersion", "type", "resource", "namespace", "name"}]}}, resources
     * with most objects first, changes newest first.
     */
    String snapshot() {
        ObjectNode root = KubeJson.mapper().createObjectNode();
        root.put("time", ticker.instant().toEpochMilli());
        root.put("server", apiServer.toString());
        root.put("revision", store.currentRevision());
        Map<String, ResourceDefinition> stored = new LinkedHashMap<>();
        for (ResourceDefinition def : resources.all()) {
            if (def.verbs().contains("watch")) {
                stored.putIfAbsent(def.qualifiedResource(), def);
            }
        }
        ArrayNode list = root.putArray("resources");
        stored.values().stream()
                .map(def -> new Row(
                        def.qualifiedResource(),
                        store.count(def.storageId(), null),
                        store.watcherCount(def.storageId())))
                .sorted(Comparator.comparingInt(Row::objects).reversed().thenComparing(Row::resource))
                .forEach(r -> list.addObject()
                        .put("resource", r.resource())
                        .put("objects", r.objects())
                        .put("watchers", r.watchers()));
        Map<String, String> names = new LinkedHashMap<>();
        stored.values().forEach(def -> names.put(def.storageId(), def.qualifiedResource()));
        ArrayNode changes = root.putArray("changes");
        for (StoreEvent e : store.recentEvents(FEED)) {
            StoredObject o = e.object();
            changes.addObject()
                    .put("resourceVersion", e.resourceVersion())
                    .put("type", e.type().name().toUpperCase(Locale.ROOT))
                    .put("resource", names.getOrDefault(e.resource(), e.resource()))
                    .put("namespace", o.namespace())
                    .put("name", o.name());
        }
        return root.toString();
    }

    private record Row(String resource, int objects, int watchers) {}

    private static String load() {
        try (InputStream in = ServerLiveView.class.getResourceAsStream("server.html")) {
            if (in == null) {
                throw new IllegalStateException("server.html is missing from kubeloop-apiserver's jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Stops serving; open streams end within a second. Idempotent. */
    @Override
    public void close() {
        closing = true;
        http.stop(0);
        executor.close();
    }
}
