package io.kubeloop.cli;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;

/**
 * A small plain-HTTP server answering legacy discovery like a 1.32 API server (for the CLI's
 * output and error handling; TLS is covered in kubeloop-client). In {@code unauthorized} or
 * {@code forbidden} mode every request gets that Status.
 */
final class FixtureApiServer implements AutoCloseable {

    static final String TOKEN = "s3cr3t-token-value";

    private static final Map<String, String> DOCS = Map.of(
            "/api", """
                    {"kind":"APIVersions","versions":["v1"],"serverAddressByClientCIDRs":[{"clientCIDR":"0.0.0.0/0","serverAddress":"127.0.0.1:6443"}]}""",
            "/apis", """
                    {"kind":"APIGroupList","apiVersion":"v1","groups":[
                    {"name":"apps","versions":[{"groupVersion":"apps/v1","version":"v1"}],"preferredVersion":{"groupVersion":"apps/v1","version":"v1"}},
                    {"name":"samplecontroller.k8s.io","versions":[{"groupVersion":"samplecontroller.k8s.io/v1alpha1","version":"v1alpha1"}],"preferredVersion":{"groupVersion":"samplecontroller.k8s.io/v1alpha1","version":"v1alpha1"}}]}""",
            "/api/v1", """
                    {"kind":"APIResourceList","groupVersion":"v1","resources":[
                    {"name":"configmaps","singularName":"configmap","namespaced":true,"kind":"ConfigMap","verbs":["create","delete","deletecollection","get","list","patch","update","watch"],"shortNames":["cm"],"storageVersionHash":"qFsyl6wFWjQ="},
                    {"name":"namespaces","singularName":"namespace","namespaced":false,"kind":"Namespace","verbs":["create","delete","get","list","patch","update","watch"],"shortNames":["ns"],"storageVersionHash":"Q3oi5N2YM8M="},
                    {"name":"namespaces/status","singularName":"","namespaced":false,"kind":"Namespace","verbs":["get","patch","update"]},
                    {"name":"pods","singularName":"pod","namespaced":true,"kind":"Pod","verbs":["create","delete","deletecollection","get","list","patch","update","watch"],"shortNames":["po"],"categories":["all"],"storageVersionHash":"xPOwRZ+Yhw8="},
                    {"name":"pods/status","singularName":"","namespaced":true,"kind":"Pod","verbs":["get","patch","update"]}]}""",
            "/apis/apps/v1", """
                    {"kind":"APIResourceList","apiVersion":"v1","groupVersion":"apps/v1","resources":[
                    {"name":"deployments","singularName":"deployment","namespaced":true,"kind":"Deployment","verbs":["create","delete","deletecollection","get","list","patch","update","watch"],"shortNames":["deploy"],"categories":["all"],"storageVersionHash":"8aSe+NMegvE="},
                    {"name":"deployments/scale","singularName":"","namespaced":true,"group":"autoscaling","version":"v1","kind":"Scale","verbs":["get","patch","update"]},
                    {"name":"replicasets","singularName":"replicaset","namespaced":true,"kind":"ReplicaSet","verbs":["create","delete","deletecollection","get","list","patch","update","watch"],"shortNames":["rs"],"categories":["all"],"storageVersionHash":"P1RzHs8/mWQ="}]}""",
            "/apis/samplecontroller.k8s.io/v1alpha1", """
                    {"kind":"APIResourceList","apiVersion":"v1","groupVersion":"samplecontroller.k8s.io/v1alpha1","resources":[
                    {"name":"foos","singularName":"foo","namespaced":true,"kind":"Foo","verbs":["delete","deletecollection","get","list","patch","create","update","watch"],"storageVersionHash":"Hy6XWXKEC5A="}]}""",
            "/version", """
                    {"major":"1","minor":"32","gitVersion":"v1.32.0","gitCommit":"0","gitTreeState":"clean","buildDate":"2024-12-11T17:59:15Z","goVersion":"go1.23.3","compiler":"gc","platform":"linux/amd64"}""");

    enum Mode {
        OK,
        UNAUTHORIZED,
        FORBIDDEN
    }

    private final HttpServer server;
    private final List<String> requests = new CopyOnWriteArrayList<>();
    private volatile Mode mode = Mode.OK;

    FixtureApiServer() {
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/", this::handle);
        server.start();
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    void mode(Mode newMode) {
        mode = newMode;
    }

    /** The request lines seen, e.g. {@code GET /api}. */
    List<String> requests() {
        return requests;
    }

    /** Writes a kubeconfig for this server with a token user, returning its path. */
    Path kubeconfig(Path dir) throws IOException {
        Path file = dir.resolve("kubeconfig");
        Files.writeString(file, """
                apiVersion: v1
                kind: Config
                clusters:
                - name: fixture
                  cluster:
                    server: %s
                users:
                - name: fixture
                  user:
                    token: %s
                contexts:
                - name: fixture
                  context:
                    cluster: fixture
                    user: fixture
                current-context: fixture
                """.formatted(url(), TOKEN));
        return file;
    }

    private void handle(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getPath();
        requests.add(exchange.getRequestMethod() + " " + exchange.getRequestURI());
        switch (mode) {
            case UNAUTHORIZED -> reply(exchange, 401, status(401, "Unauthorized", "Unauthorized"));
            case FORBIDDEN ->
                reply(
                        exchange,
                        403,
                        status(
                                403,
                                "Forbidden",
                                "forbidden: User \\\"system:anonymous\\\" cannot get path \\\"" + path + "\\\""));
            case OK -> {
                String doc = DOCS.get(path);
                if (doc == null) {
                    reply(exchange, 404, status(404, "NotFound", "the server could not find the requested resource"));
                } else {
                    reply(exchange, 200, doc);
                }
            }
        }
    }

    private static String status(int code, String reason, String message) {
        return "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\",\"message\":\""
                + message + "\",\"reason\":\"" + reason + "\",\"code\":" + code + "}";
    }

    private static void reply(HttpExchange exchange, int code, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(code, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
