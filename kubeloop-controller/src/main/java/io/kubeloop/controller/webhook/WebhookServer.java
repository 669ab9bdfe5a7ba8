package io.kubeloop.controller.webhook;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.kubeloop.api.json.KubeJson;
import io.kubeloop.controller.Component;
import io.kubeloop.controller.internal.webhook.ReloadingKeyManager;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import tools.jackson.databind.JsonNode;

/**
 * The HTTPS server of a controller's webhooks (controller-runtime's webhook server): each path answers
 * POSTed review objects (AdmissionReview, ConversionReview) with a {@link Handler}. The certificate and
 * key are read from {@code tls.crt} and {@code tls.key} in a directory (where Kubernetes mounts a
 * Secret, e.g. one cert-manager keeps) and read again whenever either file changes, so renewals need no
 * restart. Give it to {@code Manager.add(Component)} to start and stop it with the manager; webhooks
 * serve on every replica, leader or not.
 *
 * <pre>{@code
 * WebhookServer server = WebhookServer.create(WebhookServerOptions.defaults().withCertDir(dir));
 * TypedWebhooks.forType(Foo.class, client.scheme()).withDefaulter(new FooDefaulter()).registerWith(server);
 * manager.add(server);
 * }</pre>
 *
 * <p><b>Thread safety:</b> paths are registered before {@link #start()}; then thread-safe. Each request runs
 * on a virtual thread.
 */
public final class WebhookServer implements Component {

    /** controller-runtime's default port. */
    public static final int DEFAULT_PORT = 9443;

    /** Answers one review: the request's JSON in, the answer's JSON out. */
    @FunctionalInterface
    public interface Handler {
        JsonNode handle(JsonNode review);
    }

    private final WebhookServerOptions options;
    private final Map<String, Handler> handlers = new LinkedHashMap<>();
    private HttpsServer server;
    private ExecutorService executor;

    private WebhookServer(WebhookServerOptions options) {
        this.options = options;
    }

    /** A server not yet listening. */
    public static WebhookServer create(WebhookServerOptions options) {
        return new WebhookServer(Objects.requireNonNull(options, "options"));
    }

    /**
     * Serves {@code handler} on {@code path}.
     *
     * @throws IllegalStateException after {@link #start()} or when the path is taken
     */
    public synchronized WebhookServer register(String path, Handler handler) {
        if (server != null) {
            throw new IllegalStateException("register webhooks before the server starts");
        }
        if (handlers.putIfAbsent(path, Objects.requireNonNull(handler, "handler")) != null) {
            throw new IllegalStateException("a webhook is already registered at " + path);
        }
        return this;
    }

    /**
     * Reads the certificate, binds and serves; {@link #address()} is then the bound address.
     *
     * @throws UncheckedIOException when the port cannot be bound or the certificate files read
     * @throws IllegalArgumentException when the files hold no usable certificate and key
     */
    @Override
    public synchronized void start() {
        if (server != null) {
            throw new IllegalStateException("webhook server already started");
        }
        try {
            SSLContext ssl = SSLContext.getInstance("TLS");
            ssl.init(
                    new KeyManager[] {
                        new ReloadingKeyManager(
                                options.certDir().resolve("tls.crt"),
                                options.certDir().resolve("tls.key"))
                    },
                    null,
                    null);
            server = HttpsServer.create(options.address(), 0);
            server.setHttpsConfigurator(new HttpsConfigurator(ssl));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot serve webhooks on " + options.address() + ": " + e.getMessage(), e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("TLS is not available: " + e.getMessage(), e);
        }
        handlers.forEach((path, handler) -> server.createContext(path, exchange -> serve(exchange, path, handler)));
        executor = Executors.newVirtualThreadPerTaskExecutor();
        server.setExecutor(executor);
        server.start();
    }

    /** Webhooks serve on every replica: the API server calls whichever the Service picks. */
    @Override
    public boolean needsLeaderElection() {
        return false;
    }

    @Override
    public String name() {
        return "webhook-server";
    }

    /** The bound address once started. */
    public synchronized Optional<InetSocketAddress> address() {
        return server == null ? Optional.empty() : Optional.of(server.getAddress());
    }

    private static void serve(HttpExchange exchange, String path, Handler handler) throws IOException {
        try (exchange) {
            if (!exchange.getRequestURI().getPath().equals(path)) {
                reply(exchange, 404, "404 page not found\n".getBytes(StandardCharsets.UTF_8));
                return;
            }
            if (!exchange.getRequestMethod().equals("POST")) {
                reply(exchange, 405, "only POST is allowed\n".getBytes(StandardCharsets.UTF_8));
                return;
            }
            JsonNode review;
            try {
                review = KubeJson.mapper().readTree(exchange.getRequestBody().readAllBytes());
            } catch (RuntimeException e) {
                reply(
                        exchange,
                        400,
                        ("cannot decode the review: " + e.getMessage() + "\n").getBytes(StandardCharsets.UTF_8));
                return;
            }
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            reply(exchange, 200, KubeJson.mapper().writeValueAsBytes(handler.handle(review)));
        }
    }

    private static void reply(HttpExchange exchange, int status, byte[] body) throws IOException {
        exchange.sendResponseHeaders(status, body.length);
        exchange.getResponseBody().write(body);
    }

    /** Stops serving; idempotent. */
    @Override
    public synchronized void close() {
        if (server != null) {
            server.stop(0);
            executor.shutdownNow();
        }
    }
}
