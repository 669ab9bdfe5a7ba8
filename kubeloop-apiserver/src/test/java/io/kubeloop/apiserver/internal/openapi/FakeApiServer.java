package io.kubeloop.apiserver.internal.openapi;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.kubeloop.api.json.KubeJson;
import io.kubeloop.apiserver.internal.schema.ServedKind;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * A minimal plain-HTTP API server for kubectl: legacy discovery for the given kinds, the OpenAPI v3
 * documents and the v2 document (JSON or protobuf by {@code Accept}) under test, and create (echo), get, patch (echo) on an in-memory map. Records every
 * request. Test-only.
 */
final class FakeApiServer implements AutoCloseable {

    record Request(String method, String path, String query, String contentType, String accept, String body) {}

    private final HttpServer server;
    private final List<ServedKind> kinds;
    private final OpenApiV3.Documents openapi;
    private final OpenApiV2.Document openapiV2;
    private final boolean serveV3;
    private final List<Request> requests = new CopyOnWriteArrayList<>();
    private final Map<String, ObjectNode> objects = new ConcurrentHashMap<>();

    FakeApiServer(List<ServedKind> kinds) throws IOException {
        this(kinds, true);
    }

    /** With {@code serveV3} false, {@code /openapi/v3} answers 404 (a server that has only v2). */
    FakeApiServer(List<ServedKind> kinds, boolean serveV3) throws IOException {
        this.kinds = List.copyOf(kinds);
        this.serveV3 = serveV3;
        this.openapi = OpenApiV3.documents(kinds);
        this.openapiV2 = OpenApiV2.served(kinds);
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", this::handle);
        server.start();
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    List<Request> requests() {
        return List.copyOf(requests);
    }

    void put(String path, ObjectNode object) {
        objects.put(path, object);
    }

    @Override
    public void close() {
        server.stop(0);
    }

    private void handle(HttpExchange ex) throws IOException {
        String method = ex.getRequestMethod();
        String path = ex.getRequestURI().getPath();
        String query = ex.getRequestURI().getRawQuery();
        String body = new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        requests.add(new Request(
                method,
                path,
                query == null ? "" : query,
                ex.getRequestHeaders().getFirst("Content-Type"),
                ex.getRequestHeaders().getFirst("Accept"),
                body));
        try {
            route(ex, method, path, body);
        } finally {
            ex.close();
        }
    }

    private void route(HttpExchange ex, String method, String path, String body) throws IOException {
        JsonNodeFactory f = JsonNodeFactory.instance;
        if (method.equals("GET") && path.equals("/api")) {
            ObjectNode v = f.objectNode().put("kind", "APIVersions");
            v.putArray("versions").add("v1");
            v.putArray("serverAddressByClientCIDRs")
                    .addObject()
                    .put("clientCIDR", "0.0.0.0/0")
                    .put("serverAddress", "127.0.0.1");
            send(ex, 200, v);
        } else if (method.equals("GET") && path.equals("/apis")) {
            ObjectNode list = f.objectNode().put("kind", "APIGroupList").put("apiVersion", "v1");
            ArrayNode groups = list.putArray("groups");
            kinds.stream()
                    .map(k -> k.gvk().groupVersion())
                    .filter(gv -> !gv.isCore())
                    .distinct()
                    .forEach(gv -> {
                        ObjectNode g = groups.addObject().put("name", gv.group());
                        g.putArray("versions")
                                .addObject()
                                .put("groupVersion", gv.apiVersion())
                                .put("version", gv.version());
                        g.putObject("preferredVersion")
                                .put("groupVersion", gv.apiVersion())
                                .put("version", gv.version());
                    });
            send(ex, 200, list);
        } else if (method.equals("GET") && (path.equals("/api/v1") || path.matches("/apis/[^/]+/[^/]+"))) {
            String gv = path.equals("/api/v1") ? "v1" : path.substring("/apis/".length());
            ObjectNode list = f.objectNode()
                    .put("kind", "APIResourceList")
                    .put("apiVersion", "v1")
                    .put("groupVersion", gv);
            ArrayNode resources = list.putArray("resources");
            kinds.stream().filter(k -> k.gvk().apiVersion().equals(gv)).forEach(k -> {
                ObjectNode r = resources
                        .addObject()
                        .put("name", k.resource())
                        .put("singularName", k.gvk().kind().toLowerCase())
                        .put("namespaced", k.namespaced())
                        .put("kind", k.gvk().kind());
                ArrayNode verbs = r.putArray("verbs");
                k.verbs().forEach(verbs::add);
            });
            send(ex, 200, list);
        } else if (method.equals("GET") && path.equals("/openapi/v2")) {
            // as kube-openapi's handler: negotiate on Accept, the JSON's ETag for both forms
            var type = OpenApiV2.negotiate(ex.getRequestHeaders().getFirst("Accept"));
            ex.getResponseHeaders().add("Vary", "Accept");
            if (type.isEmpty()) {
                ex.sendResponseHeaders(406, -1);
                return;
            }
            ex.getResponseHeaders().set("ETag", "\"" + openapiV2.etag() + "\"");
            byte[] bytes = openapiV2.body(type.get());
            ex.getResponseHeaders().set("Content-Type", type.get());
            ex.sendResponseHeaders(200, bytes.length);
            ex.getResponseBody().write(bytes);
        } else if (method.equals("GET") && path.startsWith("/openapi/v3") && !serveV3) {
            sendBytes(ex, 404, "404 page not found".getBytes(StandardCharsets.UTF_8));
        } else if (method.equals("GET") && path.equals("/openapi/v3")) {
            sendBytes(ex, 200, openapi.root());
        } else if (method.equals("GET") && path.startsWith("/openapi/v3/")) {
            var doc = openapi.find(path.substring("/openapi/v3/".length()));
            if (doc.isPresent()) {
                sendBytes(ex, 200, doc.get().json());
            } else {
                sendBytes(ex, 404, "not found".getBytes(StandardCharsets.UTF_8));
            }
        } else if (method.equals("POST")) {
            ObjectNode obj = (ObjectNode) KubeJson.mapper().readTree(body);
            obj.withObject("metadata").put("uid", "0000-1111").put("resourceVersion", "1");
            send(ex, 201, obj);
        } else if (method.equals("GET") && objects.containsKey(path)) {
            send(ex, 200, objects.get(path));
        } else if (method.equals("PATCH") && objects.containsKey(path)) {
            send(ex, 200, objects.get(path));
        } else {
            ObjectNode status = f.objectNode()
                    .put("kind", "Status")
                    .put("apiVersion", "v1")
                    .put("status", "Failure")
                    .put("reason", "NotFound")
                    .put("code", 404)
                    .put("message", path + " not found");
            status.putObject("metadata");
            send(ex, 404, status);
        }
    }

    private static void send(HttpExchange ex, int code, JsonNode body) throws IOException {
        sendBytes(ex, code, KubeJson.mapper().writeValueAsBytes(body));
    }

    private static void sendBytes(HttpExchange ex, int code, byte[] bytes) throws IOException {
        ex.getResponseHeaders().set("Content-Type", "application/json");
        ex.sendResponseHeaders(code, bytes.length);
        ex.getResponseBody().write(bytes);
    }

    /** The requests as one line each, for assertion messages. */
    String describe() {
        List<String> lines = new ArrayList<>();
        requests.forEach(r -> lines.add(r.method() + " " + r.path() + (r.query().isEmpty() ? "" : "?" + r.query())));
        return lines.stream().collect(Collectors.joining("\n"));
    }
}
