package io.kubeloop.client.discovery;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.kubeloop.api.json.KubeJson;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.function.UnaryOperator;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A real HTTP server (JDK HttpServer on loopback) serving the discovery fixtures like a 1.32 API
 * server: aggregated discovery for {@code /api} and {@code /apis} when the Accept header asks for it
 * (v2, else v2beta1) and the server is in aggregated mode, legacy documents otherwise. Records every
 * request; failures and document edits can be injected per path.
 */
final class FakeDiscoveryServer implements AutoCloseable {

    static final String V2 = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList";
    static final String V2BETA1 = "application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList";

    /** One recorded request. */
    record Request(String method, String path, String accept) {}

    private final HttpServer server;
    private final boolean aggregated;
    private final List<Request> requests = new CopyOnWriteArrayList<>();
    private final Map<String, Integer> failures = new ConcurrentHashMap<>();
    private final Map<String, UnaryOperator<ObjectNode>> edits = new ConcurrentHashMap<>();
    private final Map<String, String> contentTypes = new ConcurrentHashMap<>();

    private FakeDiscoveryServer(boolean aggregated) {
        this.aggregated = aggregated;
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/", this::handle);
        server.start();
    }

    /** A server that answers aggregated discovery when asked. */
    static FakeDiscoveryServer aggregated() {
        return new FakeDiscoveryServer(true);
    }

    /** A server that only knows legacy discovery. */
    static FakeDiscoveryServer legacy() {
        return new FakeDiscoveryServer(false);
    }

    /** {@code http://127.0.0.1:PORT}, as a kubeconfig would write it. */
    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    URI uri() {
        return URI.create(url());
    }

    /** Answer {@code path} with this status and a Status body. */
    void fail(String path, int status) {
        failures.put(path, status);
    }

    /** Rewrite the JSON document served at {@code path} (aggregated and legacy alike). */
    void edit(String path, UnaryOperator<ObjectNode> edit) {
        edits.put(path, edit);
    }

    void clearEdits() {
        edits.clear();
    }

    /** Serve the aggregated document at {@code path} with this Content-Type instead of the real one. */
    void contentType(String path, String contentType) {
        contentTypes.put(path, contentType);
    }

    List<Request> requests() {
        return List.copyOf(requests);
    }

    /** Requests to discovery endpoints ({@code /api...}, {@code /apis...}). */
    List<String> discoveryPaths() {
        List<String> out = new ArrayList<>();
        for (Request r : requests) {
            if ((r.path().equals("/api")
                            || r.path().equals("/apis")
                            || r.path().startsWith("/api/")
                            || r.path().startsWith("/apis/"))
                    && !r.path().contains("/namespaces/")) {
                out.add(r.path());
            }
        }
        return out;
    }

    void clearRequests() {
        requests.clear();
    }

    private void handle(HttpExchange ex) throws IOException {
        try (ex) {
            String path = ex.getRequestURI().getPath();
            String accept = ex.getRequestHeaders().getFirst("Accept");
            requests.add(new Request(ex.getRequestMethod(), path, accept));
            Integer failure = failures.get(path);
            if (failure != null) {
                send(ex, failure, "application/json", status(failure, "injected failure"));
                return;
            }
            String acceptText = accept == null ? "" : accept;
            boolean wantsV2 = acceptText.contains("v=v2;") && acceptText.contains("as=APIGroupDiscoveryList");
            boolean wantsV2beta1 = acceptText.contains("v=v2beta1;") && acceptText.contains("as=APIGroupDiscoveryList");
            String resource;
            String contentType = "application/json";
            switch (path) {
                case "/api", "/apis" -> {
                    String file = path.equals("/api") ? "api.json" : "apis.json";
                    if (aggregated && (wantsV2 || wantsV2beta1)) {
                        resource = "aggregated/" + file;
                        contentType = contentTypes.getOrDefault(path, wantsV2 ? V2 : V2BETA1);
                    } else {
                        resource = "legacy/" + file;
                    }
                }
                case "/version" -> {
                    send(ex, 200, "application/json", """
                            {"major":"1","minor":"32","gitVersion":"v1.32.2","gitCommit":"67a30c0adcf52bd3f56ff0893ce19966be12991f",\
                            "gitTreeState":"clean","buildDate":"2025-02-12T21:19:47Z","goVersion":"go1.23.6",\
                            "compiler":"gc","platform":"linux/amd64"}""");
                    return;
                }
                default -> {
                    if (path.contains("/namespaces/") || path.endsWith("/foos") || path.endsWith("/pods")) {
                        send(
                                ex,
                                200,
                                "application/json",
                                "{\"kind\":\"List\",\"apiVersion\":\"v1\",\"metadata\":{\"resourceVersion\":\"1\"},\"items\":[]}");
                        return;
                    }
                    resource = path.equals("/api/v1")
                            ? "legacy/api-v1.json"
                            : path.startsWith("/apis/")
                                            && path.chars()
                                                            .filter(c -> c == '/')
                                                            .count()
                                                    == 3
                                    ? "legacy/apis-" + path.substring(6).replace('/', '-') + ".json"
                                    : null;
                }
            }
            byte[] doc = resource == null ? null : fixture(resource);
            if (doc == null) {
                send(ex, 404, "text/plain; charset=utf-8", "404 page not found\n");
                return;
            }
            UnaryOperator<ObjectNode> edit = edits.get(path);
            if (edit != null || (contentType.equals(V2BETA1) && resource.startsWith("aggregated/"))) {
                ObjectNode node = (ObjectNode) KubeJson.mapper().readTree(doc);
                if (contentType.equals(V2BETA1)) {
                    node.put("apiVersion", "apidiscovery.k8s.io/v2beta1");
                }
                if (edit != null) {
                    node = edit.apply(node);
                }
                doc = KubeJson.mapper().writeValueAsBytes(node);
            }
            send(ex, 200, contentType, doc);
        }
    }

    static byte[] fixture(String name) {
        try (InputStream in = FakeDiscoveryServer.class.getResourceAsStream("/discovery/" + name)) {
            return in == null ? null : in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every aggregated resource entry (including core) for a group in the served fixture. */
    static JsonNode aggregatedFixture(String file) {
        return KubeJson.mapper().readTree(fixture("aggregated/" + file));
    }

    private static String status(int code, String message) {
        return "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\",\"message\":\""
                + message + "\",\"code\":" + code + "}";
    }

    private static void send(HttpExchange ex, int status, String contentType, String body) throws IOException {
        send(ex, status, contentType, body.getBytes(StandardCharsets.UTF_8));
    }

    private static void send(HttpExchange ex, int status, String contentType, byte[] body) throws IOException {
        ex.getResponseHeaders().set("Content-Type", contentType);
        ex.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
        ex.getResponseBody().write(body);
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
