package io.kubeloop.bench.server;

import io.kubeloop.api.json.KubeJson;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PushbackInputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.net.http.HttpResponse.BodySubscribers;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509ExtendedTrustManager;
import tools.jackson.databind.JsonNode;

/**
 * The neutral client for every server: the JDK {@code HttpClient} over HTTPS, HTTP/1.1 only (one
 * connection per concurrent request or watch; WebSockets upgrade from HTTP/1.1 anyway), with TLS
 * verification off (both servers use self-signed certificates on loopback) and the server's bearer
 * token on every request (fabric8's mock ignores it). Nothing here knows which server it talks to.
 *
 * <p><b>Thread safety.</b> Thread-safe.
 */
final class Driver implements AutoCloseable {

    private final HttpClient client;
    private final URI base;
    private final String authorization;

    Driver(URI base, String token) {
        this(base, token, HttpClient.Version.HTTP_1_1);
    }

    /**
     * A driver whose requests use {@code version}: {@code HTTP_2} multiplexes the concurrent requests
     * on one connection (ALPN over TLS), for {@link ProtocolCostBenchmark}.
     */
    Driver(URI base, String token, HttpClient.Version version) {
        this.base = base;
        this.authorization = "Bearer " + token;
        this.client = HttpClient.newBuilder()
                .version(version)
                .sslContext(trustAll())
                .connectTimeout(Duration.ofSeconds(30))
                .build();
    }

    /**
     * Creates the object {@code json} in collection {@code path}; returns its resourceVersion.
     *
     * @throws IllegalStateException on any status but 201 (or 200)
     */
    long create(String path, byte[] json) {
        HttpResponse<String> r = send(
                HttpRequest.newBuilder(base.resolve(path))
                        .header("Authorization", authorization)
                        .header("Content-Type", "application/json")
                        .header("Accept", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofByteArray(json))
                        .build(),
                BodyHandlers.ofString());
        if (r.statusCode() != 201 && r.statusCode() != 200) {
            throw new IllegalStateException(
                    "POST " + path + " answered " + r.statusCode() + ": " + abbreviate(r.body()));
        }
        return Scan.resourceVersion(r.body());
    }

    /** Creates namespace {@code name}; an existing one is fine. */
    void createNamespace(String name) {
        HttpResponse<String> r = send(
                HttpRequest.newBuilder(base.resolve("/api/v1/namespaces"))
                        .header("Authorization", authorization)
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofByteArray(ConfigMaps.namespace(name)))
                        .build(),
                BodyHandlers.ofString());
        if (r.statusCode() != 201 && r.statusCode() != 200 && r.statusCode() != 409) {
            throw new IllegalStateException(
                    "creating namespace " + name + " answered " + r.statusCode() + ": " + abbreviate(r.body()));
        }
    }

    /**
     * One unpaginated LIST of {@code path}: time to the first body byte, time until the whole body is
     * parsed into a Jackson tree, its size and number of items.
     */
    ListResult list(String path) {
        long t0 = System.nanoTime();
        HttpResponse<InputStream> r = send(
                HttpRequest.newBuilder(base.resolve(path))
                        .header("Authorization", authorization)
                        .header("Accept", "application/json")
                        .GET()
                        .build(),
                BodyHandlers.ofInputStream());
        try (CountingStream counting = new CountingStream(r.body());
                PushbackInputStream in = new PushbackInputStream(counting, 1)) {
            int first = in.read();
            long firstByte = System.nanoTime() - t0;
            if (first < 0 || r.statusCode() != 200) {
                throw new IllegalStateException("LIST " + path + " answered " + r.statusCode());
            }
            in.unread(first);
            JsonNode tree = KubeJson.mapper().readTree(in);
            long parsed = System.nanoTime() - t0;
            return new ListResult(
                    tree.path("items").size(),
                    counting.count,
                    Duration.ofNanos(firstByte),
                    Duration.ofNanos(parsed),
                    Duration.ZERO);
        } catch (IOException e) {
            throw new UncheckedIOException("LIST " + path + ": " + e.getMessage(), e);
        }
    }

    /**
     * Opens a watch of collection {@code path} feeding {@code receiver}: chunked HTTP or WebSocket. The
     * receiver learns when it is open ({@link WatchReceiver#awaitOpen}).
     */
    void watch(String path, Transport transport, WatchReceiver receiver) {
        URI uri = base.resolve(path + "?watch=true");
        switch (transport) {
            case HTTP -> {
                CompletableFuture<HttpResponse<Void>> f = client.sendAsync(
                        HttpRequest.newBuilder(uri)
                                .header("Authorization", authorization)
                                .header("Accept", "application/json")
                                .GET()
                                .build(),
                        info -> {
                            if (info.statusCode() != 200) {
                                receiver.fail(new IllegalStateException("watch answered " + info.statusCode()));
                                return BodySubscribers.replacing(null);
                            }
                            return BodySubscribers.fromLineSubscriber(receiver);
                        });
                f.whenComplete((r, e) -> {
                    if (e != null) {
                        receiver.fail(e);
                    }
                });
            }
            case WEBSOCKET -> {
                URI ws = URI.create(uri.toString().replaceFirst("^http", "ws"));
                client.newWebSocketBuilder()
                        .header("Authorization", authorization)
                        .connectTimeout(Duration.ofSeconds(60))
                        .buildAsync(ws, receiver)
                        .whenComplete((w, e) -> {
                            if (e != null) {
                                receiver.fail(e);
                            }
                        });
            }
        }
    }

    private <T> HttpResponse<T> send(HttpRequest request, HttpResponse.BodyHandler<T> handler) {
        try {
            return client.send(request, handler);
        } catch (IOException e) {
            throw new UncheckedIOException(request.method() + " " + request.uri() + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static String abbreviate(String s) {
        return s.length() > 300 ? s.substring(0, 300) + "..." : s;
    }

    @Override
    public void close() {
        client.shutdownNow();
    }

    /** TLS that accepts any certificate and host name: loopback benchmark servers only. */
    private static SSLContext trustAll() {
        TrustManager tm = new X509ExtendedTrustManager() {
            @Override
            public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) {}

            @Override
            public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) {}

            @Override
            public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {}

            @Override
            public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {}

            @Override
            public void checkClientTrusted(X509Certificate[] chain, String authType) {}

            @Override
            public void checkServerTrusted(X509Certificate[] chain, String authType) {}

            @Override
            public X509Certificate[] getAcceptedIssuers() {
                return new X509Certificate[0];
            }
        };
        try {
            SSLContext ctx = SSLContext.getInstance("TLS");
            ctx.init(null, new TrustManager[] {tm}, new SecureRandom());
            return ctx;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("no TLS: " + e.getMessage(), e);
        }
    }

    /** Counts the bytes read through it. */
    private static final class CountingStream extends FilterInputStream {
        long count;

        CountingStream(InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b >= 0) {
                count++;
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = super.read(b, off, len);
            if (n > 0) {
                count += n;
            }
            return n;
        }
    }
}
