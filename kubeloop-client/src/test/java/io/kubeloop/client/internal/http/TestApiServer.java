package io.kubeloop.client.internal.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsExchange;
import com.sun.net.httpserver.HttpsParameters;
import com.sun.net.httpserver.HttpsServer;
import io.kubeloop.client.config.AuthProvider;
import io.kubeloop.client.config.ClientConfig;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.ExtendedSSLSession;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SNIServerName;
import javax.net.ssl.SSLParameters;

/**
 * A real HTTPS server on 127.0.0.1 (the JDK's {@link HttpsServer}) that records every request and
 * answers with the first matching route, else 404 with a NotFound Status. Routes are added by tests;
 * handlers run on virtual threads, so a watch handler may block.
 */
public final class TestApiServer implements AutoCloseable {

    /** One request as the server saw it. */
    public record Recorded(
            String method,
            String path,
            String rawQuery,
            Map<String, List<String>> headers,
            byte[] body,
            List<String> sniNames,
            String cipherSuite) {

        public String header(String name) {
            for (Map.Entry<String, List<String>> e : headers.entrySet()) {
                if (e.getKey().equalsIgnoreCase(name)) {
                    return e.getValue().get(0);
                }
            }
            return null;
        }

        public String bodyText() {
            return new String(body, StandardCharsets.UTF_8);
        }

        /** The query parameters, decoded, in order. */
        public Map<String, String> query() {
            Map<String, String> q = new LinkedHashMap<>();
            if (rawQuery != null) {
                for (String pair : rawQuery.split("&")) {
                    int eq = pair.indexOf('=');
                    q.put(decode(eq < 0 ? pair : pair.substring(0, eq)), eq < 0 ? "" : decode(pair.substring(eq + 1)));
                }
            }
            return q;
        }

        private static String decode(String s) {
            return URLDecoder.decode(s, StandardCharsets.UTF_8);
        }
    }

    /** Answers one request. */
    @FunctionalInterface
    public interface Handler {
        void handle(Recorded request, HttpExchange exchange) throws IOException;
    }

    private record Route(String method, String path, Handler handler) {}

    private final TestTls tls = TestTls.create();
    private final HttpsServer server;
    private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
    private final List<Route> routes = new CopyOnWriteArrayList<>();
    private final List<Recorded> requests = new CopyOnWriteArrayList<>();

    public TestApiServer() {
        try {
            server = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        server.setHttpsConfigurator(new HttpsConfigurator(tls.serverContext()) {
            @Override
            public void configure(HttpsParameters params) {
                SSLParameters p = getSSLContext().getDefaultSSLParameters();
                p.setUseCipherSuitesOrder(false); // the client's preference decides, as in Go's crypto/tls
                params.setSSLParameters(p);
            }
        });
        server.setExecutor(executor);
        server.createContext("/", this::dispatch);
        server.start();
    }

    /** Routes {@code method path} (exact path, any query) to a handler; earlier routes win. */
    public TestApiServer on(String method, String path, Handler handler) {
        routes.add(new Route(method, path, handler));
        return this;
    }

    /**
     * Routes {@code GET path} to a streaming reply: headers first, then each chunk written and
     * flushed on its own (as the API server sends watch events), then, when {@code holdUntil} is not
     * null, the response stays open until it is counted down (at most 10 s); then it ends.
     */
    public TestApiServer stream(String path, List<String> chunks, CountDownLatch holdUntil) {
        return on("GET", path, (r, ex) -> {
            ex.getResponseHeaders().set("Content-Type", "application/json");
            ex.sendResponseHeaders(200, 0);
            OutputStream out = ex.getResponseBody();
            out.flush(); // headers first, as the API server does
            for (String chunk : chunks) {
                out.write(chunk.getBytes(StandardCharsets.UTF_8));
                out.flush();
            }
            if (holdUntil != null) {
                try {
                    holdUntil.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            try {
                out.close();
            } catch (IOException e) {
                // the client went away
            }
            ex.close();
        });
    }

    /** Routes to a fixed JSON reply. */
    public TestApiServer reply(String method, String path, int status, String json) {
        return on(method, path, (r, ex) -> respond(ex, status, json, Map.of()));
    }

    public URI uri() {
        return URI.create("https://127.0.0.1:" + server.getAddress().getPort());
    }

    public TestTls tls() {
        return tls;
    }

    public ClientConfig config(AuthProvider auth) {
        return new ClientConfig(uri(), tls.clientContext(), null, auth, "default", null, "test");
    }

    public ClientConfig config() {
        return config(AuthProvider.none());
    }

    public List<Recorded> requests() {
        return new ArrayList<>(requests);
    }

    public Recorded lastRequest() {
        return requests.get(requests.size() - 1);
    }

    public static void respond(HttpExchange ex, int status, String body, Map<String, String> headers)
            throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", "application/json");
        headers.forEach((k, v) -> ex.getResponseHeaders().set(k, v));
        ex.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        if (bytes.length > 0) {
            try (OutputStream out = ex.getResponseBody()) {
                out.write(bytes);
            }
        }
        ex.close();
    }

    public static String status(int code, String reason, String message) {
        return "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\",\"message\":\""
                + message + "\",\"reason\":\"" + reason + "\",\"code\":" + code + "}";
    }

    private void dispatch(HttpExchange ex) throws IOException {
        try {
            List<String> sni = new ArrayList<>();
            String cipherSuite =
                    ex instanceof HttpsExchange https ? https.getSSLSession().getCipherSuite() : null;
            if (ex instanceof HttpsExchange https && https.getSSLSession() instanceof ExtendedSSLSession s) {
                for (SNIServerName n : s.getRequestedServerNames()) {
                    if (n instanceof SNIHostName h) {
                        sni.add(h.getAsciiName());
                    }
                }
            }
            Recorded r = new Recorded(
                    ex.getRequestMethod(),
                    ex.getRequestURI().getRawPath(),
                    ex.getRequestURI().getRawQuery(),
                    Map.copyOf(ex.getRequestHeaders()),
                    ex.getRequestBody().readAllBytes(),
                    List.copyOf(sni),
                    cipherSuite);
            requests.add(r);
            for (Route route : routes) {
                if (route.method().equals(r.method()) && route.path().equals(r.path())) {
                    route.handler().handle(r, ex);
                    return;
                }
            }
            respond(ex, 404, status(404, "NotFound", "the server could not find the requested resource"), Map.of());
        } catch (IOException | RuntimeException e) {
            ex.close();
            throw e;
        }
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
