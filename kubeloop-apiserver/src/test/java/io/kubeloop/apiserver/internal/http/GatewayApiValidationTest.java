package io.kubeloop.apiserver.internal.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubeloop.apiserver.EmbeddedApiServer;
import io.kubeloop.apiserver.ServerOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * The Kubernetes Gateway API's own conformance check of its CRDs, against the embedded server: its
 * standard-channel CRDs (with 295 CEL validation rules) install; every object of its standard examples
 * is created; every one of its invalid examples is refused with a 422, the CEL rule's message where a
 * rule is what refuses it. The data are the project's files, unedited (see
 * {@code src/test/resources/gateway-api/README.md}).
 */
class GatewayApiValidationTest {

    private static final String CRDS = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
    private static final ObjectMapper YAML = YAMLMapper.builder().build();

    /** The message of the rule that refuses each invalid example, where a CEL rule is what refuses it. */
    private static final Map<String, String> RULE_MESSAGES = Map.ofEntries(
            Map.entry("gateway_hostname-tcp.yaml", "hostname must not be specified for protocols ['TCP', 'UDP']"),
            Map.entry("gateway_hostname-udp.yaml", "hostname must not be specified for protocols ['TCP', 'UDP']"),
            Map.entry("gateway_tlsconfig-tcp.yaml", "tls must not be specified for protocols ['HTTP', 'TCP', 'UDP']"),
            Map.entry("gateway_invalid-tls-mode.yaml", "tls mode must be Terminate for protocol HTTPS"),
            Map.entry("gateway_duplicate-listeners.yaml", "Listener name must be unique within the Gateway"),
            Map.entry("httproute_invalid-filter-duplicate.yaml", "RequestHeaderModifier filter cannot be repeated"),
            Map.entry("httproute_httproute-portless-service.yaml", "Must have port for Service reference"),
            Map.entry(
                    "httproute_invalid-request-redirect-with-backendref.yaml",
                    "RequestRedirect filter must not be used together with backendRefs"));

    private static EmbeddedApiServer server;
    private static RawHttp http;
    private static final Map<String, String> plurals = new HashMap<>();
    private static final List<String> served = new ArrayList<>();

    @BeforeAll
    static void installCrds() throws IOException {
        server = EmbeddedApiServer.start(ServerOptions.defaults());
        http = new RawHttp(server);
        try (Stream<Path> files = Files.list(data("crds"))) {
            for (Path f : files.sorted().toList()) {
                for (JsonNode crd : documents(f)) {
                    HttpResponse<String> r = http.post(CRDS, crd.toString());
                    assertThat(r.statusCode())
                            .as(f.getFileName() + ": " + r.body())
                            .isEqualTo(201);
                    JsonNode names = crd.path("spec").path("names");
                    plurals.put(
                            names.path("kind").asString(), names.path("plural").asString());
                    served.add("/apis/" + crd.path("spec").path("group").asString() + "/"
                            + crd.path("spec")
                                    .path("versions")
                                    .get(0)
                                    .path("name")
                                    .asString() + "/"
                            + names.path("plural").asString());
                }
            }
        }
        // CRDs are served a few milliseconds after they are created (established asynchronously)
        for (String path : served) {
            Awaitility.await()
                    .atMost(Duration.ofSeconds(30))
                    .until(() -> http.get(path).statusCode() == 200);
        }
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @TestFactory
    Stream<DynamicTest> everyStandardExampleIsAccepted() throws IOException {
        List<Path> files;
        try (Stream<Path> s = Files.list(data("examples"))) {
            files = s.sorted().toList();
        }
        // namespaces first: examples in other files create objects in them
        List<JsonNode> namespaces = new ArrayList<>();
        for (Path f : files) {
            documents(f).stream()
                    .filter(d -> d.path("kind").asString().equals("Namespace"))
                    .forEach(namespaces::add);
        }
        for (JsonNode ns : namespaces) {
            http.post("/api/v1/namespaces", ns.toString());
        }
        return files.stream()
                .map(f -> DynamicTest.dynamicTest(f.getFileName().toString(), () -> {
                    for (JsonNode doc : documents(f)) {
                        if (doc.path("kind").asString().equals("Namespace")) {
                            continue;
                        }
                        String ns = doc.path("metadata").path("namespace").asString("default");
                        JsonNode copy = withName(doc, f);
                        HttpResponse<String> r = http.post(path(copy, ns), copy.toString());
                        assertThat(r.statusCode())
                                .as(f.getFileName() + ": " + r.body())
                                .isEqualTo(201);
                    }
                }));
    }

    @TestFactory
    Stream<DynamicTest> everyInvalidExampleIsRefused() throws IOException {
        List<Path> files;
        try (Stream<Path> s = Files.list(data("invalid-examples"))) {
            files = s.sorted().toList();
        }
        return files.stream()
                .map(f -> DynamicTest.dynamicTest(f.getFileName().toString(), () -> {
                    for (JsonNode doc : documents(f)) {
                        String ns = doc.path("metadata").path("namespace").asString("default");
                        HttpResponse<String> r = http.post(path(doc, ns), doc.toString());
                        assertThat(r.statusCode()).as(r.body()).isEqualTo(422);
                        String expected = RULE_MESSAGES.get(f.getFileName().toString());
                        if (expected != null) {
                            assertThat(RawHttp.json(r).path("message").asString())
                                    .contains(expected);
                        }
                    }
                }));
    }

    /** Examples reuse names across files (e.g. several {@code example-route}s): each file gets its own. */
    private static JsonNode withName(JsonNode doc, Path file) {
        ObjectNode copy = (ObjectNode) doc.deepCopy();
        ObjectNode meta = (ObjectNode) copy.get("metadata");
        String stem = file.getFileName()
                .toString()
                .replace(".yaml", "")
                .replace('_', '-')
                .toLowerCase(Locale.ROOT);
        String name = meta.path("name").asString() + "-" + Integer.toHexString(stem.hashCode());
        meta.put("name", name.length() > 63 ? name.substring(name.length() - 63) : name);
        return copy;
    }

    private static String path(JsonNode doc, String namespace) {
        String kind = doc.path("kind").asString();
        String plural = plurals.get(kind);
        assertThat(plural).as("a Gateway API kind: " + kind).isNotNull();
        String apiVersion = doc.path("apiVersion").asString();
        boolean clusterScoped = kind.equals("GatewayClass");
        return "/apis/" + apiVersion + (clusterScoped ? "" : "/namespaces/" + namespace) + "/" + plural;
    }

    private static List<JsonNode> documents(Path file) {
        try (var parser = YAML.createParser(file.toFile())) {
            List<JsonNode> out = new ArrayList<>();
            var it = YAML.readValues(parser, JsonNode.class);
            while (it.hasNext()) {
                JsonNode d = it.next();
                if (d != null && d.isObject() && !d.isEmpty()) {
                    out.add(d);
                }
            }
            return out;
        }
    }

    private static Path data(String folder) {
        try {
            return Path.of(GatewayApiValidationTest.class
                    .getResource("/gateway-api/" + folder)
                    .toURI());
        } catch (URISyntaxException e) {
            throw new UncheckedIOException(new IOException(e));
        }
    }
}
