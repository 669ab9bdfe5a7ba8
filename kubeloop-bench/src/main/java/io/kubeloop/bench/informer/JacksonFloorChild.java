package io.kubeloop.bench.informer;

import io.kubeloop.api.json.KubeJson;
import io.kubeloop.client.config.ClientConfig;
import io.kubeloop.peers.InformerBenchReporter;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The floor: no informer, just the HTTP request(s) and a Jackson tree per object, kept in a
 * {@code HashMap} by {@code namespace/name}. Transport as kubeloop's (JDK {@code HttpClient},
 * HTTP/2, same TLS context and token from the kubeconfig); parsing with plain Jackson 3 (kubeloop's
 * {@code KubeJson.mapper()} configuration, its streaming parser, one tree per object), where kubeloop's
 * own decoding uses its byte-level scanner and keeps compact objects.
 *
 * <p>Modes (fourth argument): {@code watchlist} (default) sends the request kubeloop's reflector
 * sends — a watch with {@code sendInitialEvents=true}, synced at the initial-events-end bookmark —
 * and counts MODIFIED events on the same stream; {@code list} sends one unpaginated LIST, parses
 * the whole body as one tree and keeps its items, then watches from the list's resourceVersion.
 * Protocol: {@link InformerBenchReporter}.
 */
public final class JacksonFloorChild {

    private static final ObjectMapper MAPPER = KubeJson.mapper();

    private JacksonFloorChild() {}

    public static void main(String[] args) throws Exception {
        ClientConfig config = ClientConfig.fromKubeconfig(Path.of(args[0]));
        long pods = Long.parseLong(args[1]);
        long events = Long.parseLong(args[2]);
        boolean list = args.length > 3 && args[3].equals("list");
        String auth = config.auth().authorization().orElseThrow();
        InformerBenchReporter r = new InformerBenchReporter();
        HttpClient http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_2)
                .sslContext(config.sslContext())
                .build();
        Map<String, ObjectNode> cache = new HashMap<>();
        r.baseline();
        r.started();
        String base = config.server().toString() + "/api/v1/pods";
        String watchQuery;
        if (list) {
            HttpResponse<InputStream> resp = http.send(get(base, auth), HttpResponse.BodyHandlers.ofInputStream());
            if (resp.statusCode() != 200) {
                r.fail("LIST answered " + resp.statusCode());
            }
            ObjectNode body;
            try (InputStream in = resp.body()) {
                body = (ObjectNode) MAPPER.readTree(in);
            }
            for (JsonNode item : body.get("items")) {
                cache.put(key(item), (ObjectNode) item);
                r.added();
            }
            String rv = body.get("metadata").get("resourceVersion").asString();
            synced(r, cache, pods, events);
            watchQuery = "?watch=true&allowWatchBookmarks=true&timeoutSeconds=1800&resourceVersion=" + rv;
        } else {
            watchQuery = "?watch=true&allowWatchBookmarks=true&timeoutSeconds=1800&sendInitialEvents=true"
                    + "&resourceVersionMatch=NotOlderThan&resourceVersion=";
        }
        HttpResponse<InputStream> resp =
                http.send(get(base + watchQuery, auth), HttpResponse.BodyHandlers.ofInputStream());
        if (resp.statusCode() != 200) {
            r.fail("WATCH answered " + resp.statusCode());
        }
        try (InputStream in = resp.body();
                JsonParser p = MAPPER.createParser(in)) {
            while (p.nextToken() == JsonToken.START_OBJECT) {
                ObjectNode event = p.readValueAsTree();
                ObjectNode object = (ObjectNode) event.get("object");
                switch (event.get("type").asString()) {
                    case "ADDED" -> {
                        cache.put(key(object), object);
                        r.added();
                    }
                    case "MODIFIED" -> {
                        cache.put(key(object), object);
                        r.updated();
                    }
                    case "DELETED" -> cache.remove(key(object));
                    case "BOOKMARK" -> {
                        if (object.path("metadata").path("annotations").has("k8s.io/initial-events-end")) {
                            synced(r, cache, pods, events);
                        }
                    }
                    default -> r.fail("unexpected event " + event);
                }
            }
        }
        r.fail("watch ended");
    }

    /** Reports SYNCED, ADDS and HEAP now, then waits for the updates on another thread. */
    private static void synced(InformerBenchReporter r, Map<String, ObjectNode> cache, long pods, long events) {
        r.awaitSynced(() -> true, cache::size);
        r.awaitAdds(pods);
        r.retainedHeap();
        Thread.ofPlatform().daemon().start(() -> {
            r.awaitUpdatesAndFinish(events);
            System.exit(0);
        });
    }

    private static HttpRequest get(String url, String auth) {
        return HttpRequest.newBuilder(URI.create(url))
                .header("Authorization", auth)
                .header("Accept", "application/json")
                .GET()
                .build();
    }

    private static String key(JsonNode object) {
        JsonNode meta = object.get("metadata");
        return meta.get("namespace").asString() + "/" + meta.get("name").asString();
    }
}
