package io.kubeloop.apiserver.internal.http;

import io.kubeloop.api.json.KubeJson;
import io.kubeloop.apiserver.EmbeddedApiServer;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;

/** Exact-bytes HTTP against an embedded server (test helper). */
final class RawHttp {

    private final EmbeddedApiServer server;
    private final String token;
    private final HttpClient client;
    private final AtomicInteger namespaces = new AtomicInteger();

    RawHttp(EmbeddedApiServer server) {
        this(server, server.token());
    }

    /** Requests sent with {@code bearerToken} (a user of the server's token file, say) instead of the admin's. */
    RawHttp(EmbeddedApiServer server, String bearerToken) {
        this.server = server;
        this.token = bearerToken;
        this.client = HttpClient.newBuilder()
                .sslContext(server.clientConfig().sslContext())
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5))
                .build();
    }

    /** Creates a namespace named {@code prefix} plus a number unique to this helper, and returns its name. */
    String newNamespace(String prefix) {
        String ns = prefix + namespaces.incrementAndGet();
        HttpResponse<String> r = post("/api/v1/namespaces", "{\"metadata\":{\"name\":\"" + ns + "\"}}");
        if (r.statusCode() != 201) {
            throw new AssertionError("creating namespace " + ns + ": " + r.statusCode() + " " + r.body());
        }
        return ns;
    }

    /** {@link #newNamespace(String)} labelled {@code key=value}. */
    String newNamespace(String prefix, String key, String value) {
        String ns = newNamespace(prefix);
        HttpResponse<String> r = patch(
                "/api/v1/namespaces/" + ns,
                "application/merge-patch+json",
                "{\"metadata\":{\"labels\":{\"" + key + "\":\"" + value + "\"}}}");
        if (r.statusCode() != 200) {
            throw new AssertionError("labelling namespace " + ns + ": " + r.statusCode() + " " + r.body());
        }
        return ns;
    }

    /** POSTs a ConfigMap {@code name} with {@code data} (a JSON object) in {@code namespace}. */
    HttpResponse<String> createConfigMap(String namespace, String name, String data) {
        return post(
                "/api/v1/namespaces/" + namespace + "/configmaps",
                "{\"metadata\":{\"name\":\"" + name + "\"},\"data\":" + data + "}");
    }

    /** The value of one series of the server's {@code /metrics}, e.g. {@code up{job="x"}}; 0 when absent. */
    double metric(String series) {
        Matcher m = Pattern.compile("(?m)^" + Pattern.quote(series) + " (\\S+)$")
                .matcher(get("/metrics").body());
        return m.find() ? Double.parseDouble(m.group(1)) : 0;
    }

    /** The watches of {@code resource} the server holds open ({@code apiserver_registered_watchers}). */
    int registeredWatchers(String resource) {
        return (int) metric("apiserver_registered_watchers{resource=\"" + resource + "\"}");
    }

    HttpRequest.Builder req(String path) {
        return HttpRequest.newBuilder(URI.create(server.url() + path))
                .header("Authorization", "Bearer " + token)
                .timeout(Duration.ofSeconds(20));
    }

    /**
     * Sends once more when a pooled keep-alive connection turns out to have been closed by the server
     * before any byte of the answer came back (the request never reached a handler), as Go's and
     * kubectl's transports do for a reused connection; the JDK client retries only GETs by itself.
     */
    HttpResponse<String> send(HttpRequest r) {
        try {
            try {
                return client.send(r, HttpResponse.BodyHandlers.ofString());
            } catch (IOException e) {
                if (e.getMessage() == null || !e.getMessage().contains("received no bytes")) {
                    throw e;
                }
                return client.send(r, HttpResponse.BodyHandlers.ofString());
            }
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    HttpResponse<String> get(String path) {
        return send(req(path).GET().build());
    }

    HttpResponse<String> get(String path, String accept) {
        return send(req(path).header("Accept", accept).GET().build());
    }

    HttpResponse<String> post(String path, String json) {
        return send(req(path)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json))
                .build());
    }

    HttpResponse<String> put(String path, String json) {
        return send(req(path)
                .header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(json))
                .build());
    }

    HttpResponse<String> patch(String path, String contentType, String body) {
        return send(req(path)
                .header("Content-Type", contentType)
                .method("PATCH", HttpRequest.BodyPublishers.ofString(body))
                .build());
    }

    HttpResponse<String> delete(String path) {
        return send(req(path).DELETE().build());
    }

    HttpResponse<String> delete(String path, String body) {
        return send(req(path)
                .header("Content-Type", "application/json")
                .method("DELETE", HttpRequest.BodyPublishers.ofString(body))
                .build());
    }

    /** Opens a watch; lines are read with {@link Lines#next()}. */
    Lines watch(String path) {
        return watch(req(path));
    }

    /** Opens a watch sending {@code accept}; lines are read with {@link Lines#next()}. */
    Lines watch(String path, String accept) {
        return watch(req(path).header("Accept", accept));
    }

    private Lines watch(HttpRequest.Builder request) {
        try {
            HttpResponse<InputStream> r = client.send(request.GET().build(), HttpResponse.BodyHandlers.ofInputStream());
            return new Lines(r);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    static JsonNode json(HttpResponse<String> r) {
        return KubeJson.mapper().readTree(r.body());
    }

    /**
     * A watch response read line by line. Reading an event asserts what makes the line one: the response is a
     * 200 (else the failure quotes its status and body, a Status as a rule) and the line is a JSON object with
     * a {@code type} (else the failure quotes the line, the response's status and its Content-Type).
     */
    static final class Lines implements AutoCloseable {
        final HttpResponse<InputStream> response;
        private final BufferedReader reader;

        Lines(HttpResponse<InputStream> response) {
            this.response = response;
            this.reader = new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8));
        }

        /** The next event, or null at the end of the stream. */
        JsonNode next() {
            try {
                if (response.statusCode() != 200) {
                    String body = new String(response.body().readAllBytes(), StandardCharsets.UTF_8);
                    throw new AssertionError("the watch " + response.request().uri() + " was answered HTTP "
                            + response.statusCode() + ", not 200: " + body);
                }
                String line = reader.readLine();
                if (line == null) {
                    return null;
                }
                JsonNode event = line.isBlank() ? null : KubeJson.mapper().readTree(line);
                if (event == null || !event.path("type").isString()) {
                    throw new AssertionError("not a watch event (HTTP " + response.statusCode() + ", Content-Type "
                            + response.headers().firstValue("Content-Type").orElse("none") + ", "
                            + response.request().uri() + "): [" + line + "]");
                }
                return event;
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }

        @Override
        public void close() {
            try {
                response.body().close();
            } catch (IOException ignored) {
                // closing
            }
        }
    }
}
