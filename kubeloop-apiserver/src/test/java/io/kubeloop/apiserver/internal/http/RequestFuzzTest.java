package io.kubeloop.apiserver.internal.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubeloop.api.json.KubeJson;
import io.kubeloop.apiserver.EmbeddedApiServer;
import io.kubeloop.apiserver.ServerOptions;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.Tuple;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import tools.jackson.databind.JsonNode;

/**
 * Random requests over HTTPS: methods, paths built from real and junk segments (subresources, percent-encoding,
 * very long names), query parameters with junk values, Content-Type and Accept variants, and bodies mutated from a
 * valid ConfigMap (wrong field types, truncated JSON, invalid UTF-8, 100,000 levels of nesting, more than 3 MiB).
 * No answer is a 5xx, every error body is a Status (or the plain 404 page for an unknown path), every request ends
 * within its bound, and after each one a normal list is still served.
 */
class RequestFuzzTest {

    private static final Duration BOUND = Duration.ofSeconds(15);
    static EmbeddedApiServer server;
    static HttpClient http;

    @BeforeContainer
    static void start() {
        server = EmbeddedApiServer.start(ServerOptions.defaults());
        http = HttpClient.newBuilder()
                .sslContext(server.clientConfig().sslContext())
                .connectTimeout(Duration.ofSeconds(5))
                .build();
        Answer ns = send(new Fuzzed(
                "POST",
                "/api/v1/namespaces",
                "application/json",
                null,
                "{\"metadata\":{\"name\":\"fuzz\"}}".getBytes()));
        assertThat(ns.statusCode()).isEqualTo(201);
    }

    @AfterContainer
    static void stop() {
        server.close();
    }

    /** One request: its method, path with query, Content-Type and Accept (null: none) and body (null: none). */
    record Fuzzed(String method, String path, String contentType, String accept, byte[] body) {
        @Override
        public String toString() {
            String b = body == null
                    ? "none"
                    : body.length > 200
                            ? body.length + " bytes: " + new String(body, 0, 200, StandardCharsets.UTF_8) + "..."
                            : new String(body, StandardCharsets.UTF_8);
            return method + " " + (path.length() > 300 ? path.substring(0, 300) + "..." : path) + " [Content-Type "
                    + contentType + ", Accept " + accept + "] body " + b;
        }
    }

    /** An answer: its status and body. */
    record Answer(int statusCode, byte[] body) {}

    private static Answer send(Fuzzed f) {
        URI uri;
        try {
            uri = URI.create(server.url() + f.path());
        } catch (IllegalArgumentException notAUri) {
            return sendRaw(f);
        }
        HttpRequest.Builder b = HttpRequest.newBuilder(uri)
                .header("Authorization", "Bearer " + server.token())
                .timeout(BOUND);
        if (f.contentType() != null) {
            b.header("Content-Type", f.contentType());
        }
        if (f.accept() != null) {
            b.header("Accept", f.accept());
        }
        HttpRequest.BodyPublisher body = f.body() == null
                ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofByteArray(f.body());
        try {
            HttpResponse<byte[]> r =
                    http.send(b.method(f.method(), body).build(), HttpResponse.BodyHandlers.ofByteArray());
            return new Answer(r.statusCode(), r.body());
        } catch (IOException e) {
            if (f.body() != null && f.body().length > BODY_LIMIT) {
                // a URI Jetty refuses itself, before any handler reads the body: it answers and closes, and the
                // client, still sending, may meet the closed connection first (as with Go's server)
                return new Answer(CLOSED, new byte[0]);
            }
            throw new AssertionError(f + ": " + e, e);
        } catch (Exception e) {
            throw new AssertionError(f + ": " + e, e);
        }
    }

    /** The server's request body limit (kube-apiserver's 3 MiB). */
    private static final int BODY_LIMIT = 3 << 20;

    /** The status of an {@link Answer} the client never read: the connection closed while it still sent. */
    private static final int CLOSED = 0;

    /**
     * HTTP/1.1 over a TLS socket, for a path no {@link URI} takes (a bad percent-encoding); the answer is read to its
     * end. Jetty refuses such a request line before any body and closes the connection, as Go's server does; a body
     * still being sent then meets a reset connection, so none is sent (bodies are fuzzed on parseable paths).
     */
    private static Answer sendRaw(Fuzzed f) {
        URI base = server.url();
        try (Socket socket =
                server.clientConfig().sslContext().getSocketFactory().createSocket(base.getHost(), base.getPort())) {
            socket.setSoTimeout((int) BOUND.toMillis());
            ByteArrayOutputStream request = new ByteArrayOutputStream();
            StringBuilder head = new StringBuilder()
                    .append(f.method())
                    .append(' ')
                    .append(f.path())
                    .append(" HTTP/1.1\r\n")
                    .append("Host: ")
                    .append(base.getHost())
                    .append("\r\n")
                    .append("Authorization: Bearer ")
                    .append(server.token())
                    .append("\r\n")
                    .append("Connection: close\r\n")
                    .append("Content-Length: ")
                    .append(0)
                    .append("\r\n");
            if (f.contentType() != null) {
                head.append("Content-Type: ").append(f.contentType()).append("\r\n");
            }
            if (f.accept() != null) {
                head.append("Accept: ").append(f.accept()).append("\r\n");
            }
            request.writeBytes(head.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1));
            socket.getOutputStream().write(request.toByteArray());
            socket.getOutputStream().flush();
            byte[] answer = socket.getInputStream().readAllBytes();
            String text = new String(answer, StandardCharsets.ISO_8859_1);
            int code = Integer.parseInt(text.substring(9, 12));
            int end = text.indexOf("\r\n\r\n");
            byte[] rest = Arrays.copyOfRange(answer, end + 4, answer.length);
            return new Answer(
                    code,
                    text.substring(0, end).toLowerCase(Locale.ROOT).contains("transfer-encoding: chunked")
                            ? dechunk(rest)
                            : rest);
        } catch (Exception e) {
            throw new AssertionError(f + ": " + e, e);
        }
    }

    private static byte[] dechunk(byte[] chunked) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int i = 0;
        while (i < chunked.length) {
            int eol = i;
            while (eol + 1 < chunked.length && !(chunked[eol] == '\r' && chunked[eol + 1] == '\n')) {
                eol++;
            }
            int size = Integer.parseInt(
                    new String(chunked, i, eol - i, StandardCharsets.ISO_8859_1).split(";")[0].strip(), 16);
            if (size == 0) {
                break;
            }
            out.write(chunked, eol + 2, size);
            i = eol + 2 + size + 2;
        }
        return out.toByteArray();
    }

    // ---- generators ----

    private static final String VALID_CM =
            "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"cm\","
                    + "\"labels\":{\"app\":\"web\"},\"annotations\":{\"a\":\"b\"}},\"data\":{\"k\":\"v\"}}";

    @Provide
    Arbitrary<String> methods() {
        return Arbitraries.frequencyOf(
                Tuple.of(4, Arbitraries.of("GET", "POST", "PUT", "PATCH", "DELETE")),
                Tuple.of(1, Arbitraries.of("HEAD", "OPTIONS", "FROB", "get")));
    }

    private static Arbitrary<String> junkSegment() {
        Arbitrary<String> chars = Arbitraries.strings()
                .withChars("aZ09-._~:@!$&'()*+,;= %#?/\\\"<>{}|^`[]é\u00ff\u2603")
                .ofMinLength(1)
                .ofMaxLength(12)
                .map(RequestFuzzTest::percentEncode);
        Arbitrary<String> encodings =
                Arbitraries.of("%2F", "%2e%2e", "%00", "%ZZ", "%", "%e9", "%c3%28", "..", ".", "");
        Arbitrary<String> longOnes = Arbitraries.integers().between(254, 20_000).map(n -> "x".repeat(n));
        return Arbitraries.frequencyOf(Tuple.of(5, chars), Tuple.of(3, encodings), Tuple.of(1, longOnes));
    }

    private static String percentEncode(String s) {
        StringBuilder out = new StringBuilder();
        for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xff;
            if ((c >= 'a' && c <= 'z')
                    || (c >= 'A' && c <= 'Z')
                    || (c >= '0' && c <= '9')
                    || "-._~:@!$&'()*+,;=".indexOf(c) >= 0) {
                out.append((char) c);
            } else {
                out.append('%').append(String.format("%02X", c));
            }
        }
        return out.toString();
    }

    private static Arbitrary<String> segment(String... valid) {
        return Arbitraries.frequencyOf(Tuple.of(6, Arbitraries.of(valid)), Tuple.of(1, junkSegment()));
    }

    @Provide
    Arbitrary<String> paths() {
        Arbitrary<String> root = Arbitraries.of(
                "/api/v1",
                "/apis/apps/v1",
                "/apis/batch/v1",
                "/apis/rbac.authorization.k8s.io/v1",
                "/apis/apiextensions.k8s.io/v1",
                "/apis/junk.example.com/v9",
                "/api/v2");
        Arbitrary<String> resources = segment(
                "configmaps",
                "pods",
                "secrets",
                "services",
                "deployments",
                "replicasets",
                "jobs",
                "roles",
                "namespaces",
                "nodes",
                "customresourcedefinitions",
                "events");
        Arbitrary<Optional<String>> namespace =
                segment("default", "fuzz", "kube-system", "missing").optional(0.7);
        Arbitrary<Optional<String>> name = segment("cm", "x", "fuzz", "default").optional(0.6);
        Arbitrary<Optional<String>> sub = segment(
                        "status", "scale", "log", "eviction", "binding", "ephemeralcontainers")
                .optional(0.2);
        Arbitrary<String> resourcePath = Combinators.combine(root, namespace, resources, name, sub)
                .as((r, ns, res, n, s) -> r + ns.map(v -> "/namespaces/" + v).orElse("") + "/" + res
                        + n.map(v -> "/" + v + s.map(x -> "/" + x).orElse("")).orElse(""));
        Arbitrary<String> other = Arbitraries.of(
                "/",
                "/api",
                "/apis",
                "/apis/apps",
                "/version",
                "/healthz",
                "/readyz?verbose",
                "/metrics",
                "/openapi/v2",
                "/openapi/v3",
                "/openapi/v3/api/v1",
                "/openapi/v3/apis/junk/v1?hash=zz",
                "//api//v1",
                "/api/v1/",
                "/apis/apps/v1/namespaces/fuzz/deployments/",
                "/api/v1/namespaces/fuzz/configmaps/cm/");
        Arbitrary<String> junk = junkSegment().list().ofMinSize(1).ofMaxSize(4).map(l -> "/" + String.join("/", l));
        Arbitrary<String> path =
                Arbitraries.frequencyOf(Tuple.of(8, resourcePath), Tuple.of(2, other), Tuple.of(1, junk));
        return Combinators.combine(path, queries())
                .as((p, q) -> p + (q.isEmpty() ? "" : (p.contains("?") ? "&" : "?") + q));
    }

    private static Arbitrary<String> queries() {
        Arbitrary<String> key = Arbitraries.of(
                "labelSelector",
                "fieldSelector",
                "limit",
                "continue",
                "resourceVersion",
                "resourceVersionMatch",
                "timeoutSeconds",
                "allowWatchBookmarks",
                "sendInitialEvents",
                "dryRun",
                "fieldManager",
                "fieldValidation",
                "force",
                "propagationPolicy",
                "gracePeriodSeconds",
                "orphanDependents",
                "pretty",
                "includeObject",
                "container",
                "tailLines",
                "sinceSeconds",
                "junk",
                "");
        Arbitrary<String> value = Arbitraries.oneOf(
                Arbitraries.of(
                                "",
                                "0",
                                "1",
                                "-1",
                                "true",
                                "All",
                                "Strict",
                                "Foreground",
                                "Orphan",
                                "app=web",
                                "app in (web,db)",
                                "app notin (",
                                "!app",
                                "app>1",
                                "=",
                                "metadata.name=cm",
                                "spec.junk=1",
                                "metadata.name",
                                "NotOlderThan",
                                "Exact",
                                "99999999999999999999",
                                "1e3",
                                "abc",
                                "MQ==",
                                "eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MSwic3RhcnQiOiJ4In0",
                                "Object",
                                "None")
                        .map(RequestFuzzTest::percentEncode),
                junkSegment());
        Arbitrary<String> pair = Combinators.combine(key, value).as((k, v) -> percentEncode(k) + "=" + v);
        Arbitrary<String> watch = Arbitraries.of("watch=1&timeoutSeconds=1", "watch=true&timeoutSeconds=1&limit=1");
        Arbitrary<List<String>> pairs = pair.list().ofMaxSize(4);
        return Combinators.combine(pairs, watch.optional(0.1)).as((l, w) -> {
            List<String> all = new ArrayList<>();
            w.ifPresent(all::add); // first, so that its timeoutSeconds is the one read
            all.addAll(l);
            return String.join("&", all);
        });
    }

    @Provide
    Arbitrary<String> contentTypes() {
        return Arbitraries.of(
                        "application/json",
                        "application/json; charset=utf-8",
                        "application/yaml",
                        "application/merge-patch+json",
                        "application/strategic-merge-patch+json",
                        "application/json-patch+json",
                        "application/apply-patch+yaml",
                        "application/apply-patch+cbor",
                        "application/vnd.kubernetes.protobuf",
                        "application/cbor",
                        "text/plain",
                        "*/*",
                        "garbage",
                        ";;;",
                        "application/json; charset=latin1; x=\"unterminated",
                        "")
                .injectNull(0.1);
    }

    @Provide
    Arbitrary<String> accepts() {
        return Arbitraries.of(
                        "application/json",
                        "application/yaml",
                        "application/vnd.kubernetes.protobuf",
                        "application/json;as=Table;v=v1;g=meta.k8s.io",
                        "application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io",
                        "application/json;as=PartialObjectMetadata;v=v1;g=meta.k8s.io",
                        "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList",
                        "application/json;as=Junk;v=v9;g=x",
                        "text/html",
                        "*/*",
                        "application/*;q=0.5, junk;q=x",
                        ";q=",
                        "application/json;stream=watch")
                .injectNull(0.3);
    }

    @Provide
    Arbitrary<byte[]> bodies() {
        Arbitrary<String> valid = Arbitraries.of(
                VALID_CM,
                VALID_CM.replace("\"cm\"", "\"fuzz-cm\""),
                "[{\"op\":\"add\",\"path\":\"/data/x\",\"value\":\"y\"}]",
                "[{\"op\":\"junk\"}]",
                "[{\"op\":\"move\",\"from\":\"/data\",\"path\":\"/data/k\"}]",
                "[{\"op\":\"copy\",\"from\":\"/metadata\",\"path\":\"/metadata/labels/x\"}]",
                "[{\"op\":\"test\",\"path\":\"/data/k\",\"value\":{}}]",
                "{\"data\":null,\"metadata\":{\"labels\":null}}",
                "{\"$patch\":\"replace\"}",
                "{\"$patch\":\"delete\",\"spec\":{\"$setElementOrder/containers\":[{\"name\":1}]}}",
                "{\"spec\":{\"containers\":[{\"$patch\":\"delete\"}],\"$retainKeys\":7}}",
                "{\"kind\":\"DeleteOptions\",\"apiVersion\":\"v1\",\"propagationPolicy\":\"Junk\",\"gracePeriodSeconds\":-5}",
                "{\"kind\":\"DeleteOptions\",\"preconditions\":{\"uid\":7}}",
                "{\"apiVersion\":\"policy/v1\",\"kind\":\"Eviction\",\"metadata\":{\"name\":\"x\"}}",
                "{\"apiVersion\":\"autoscaling/v1\",\"kind\":\"Scale\",\"spec\":{\"replicas\":\"many\"}}",
                "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\ndata:\n  k: v\n",
                "a: &x [*x]\n",
                "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{\"name\":\"x\"},\"spec\":{\"replicas\":1,"
                        + "\"selector\":{\"matchLabels\":{\"a\":\"b\"}},\"template\":{\"metadata\":{\"labels\":{\"a\":\"b\"}},"
                        + "\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"i\"}]}}}}");
        Arbitrary<byte[]> mutated = Combinators.combine(valid, mutations()).as((v, m) -> m.apply(v));
        Arbitrary<byte[]> nested = Combinators.combine(
                        Arbitraries.of(50, 499, 501, 10_001, 100_000),
                        Arbitraries.of("[", "{\"a\":", "[{\"a\":"),
                        Arbitraries.of(true, false))
                .as((depth, open, inObject) -> nested(depth, open, inObject));
        Arbitrary<byte[]> huge = Arbitraries.of(3 * 1024 * 1024 + 1, 4 * 1024 * 1024)
                .map(n -> {
                    byte[] b = new byte[n];
                    Arrays.fill(b, (byte) ' ');
                    byte[] head =
                            "{\"metadata\":{\"name\":\"big\"},\"data\":{\"k\":\"".getBytes(StandardCharsets.UTF_8);
                    System.arraycopy(head, 0, b, 0, head.length);
                    return b;
                });
        Arbitrary<byte[]> random = Arbitraries.bytes().array(byte[].class).ofMaxSize(64);
        return Arbitraries.frequencyOf(
                        Tuple.of(10, mutated), Tuple.of(3, nested), Tuple.of(1, huge), Tuple.of(2, random))
                .injectNull(0.15);
    }

    private static byte[] nested(int depth, String open, boolean inObject) {
        String close = switch (open) {
            case "[" -> "]";
            case "{\"a\":" -> "}";
            default -> "}]";
        };
        StringBuilder s = new StringBuilder(depth * (open.length() + close.length()) + 80);
        s.append(inObject ? "{\"metadata\":{\"name\":\"deep\"},\"data\":{\"k\":\"v\"},\"x\":" : "");
        s.append(open.repeat(depth)).append("1").append(close.repeat(depth));
        s.append(inObject ? "}" : "");
        return s.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** A change of a valid body's text. */
    interface Mutation {
        byte[] apply(String valid);
    }

    private static Arbitrary<Mutation> mutations() {
        Arbitrary<Mutation> none = Arbitraries.just(v -> v.getBytes(StandardCharsets.UTF_8));
        Arbitrary<Mutation> truncate = Arbitraries.doubles()
                .between(0, 1)
                .map(f -> v -> v.substring(0, (int) (v.length() * f)).getBytes(StandardCharsets.UTF_8));
        Arbitrary<Mutation> wrongType = Combinators.combine(
                        Arbitraries.of(
                                "\"cm\"",
                                "\"v\"",
                                "{\"k\":\"v\"}",
                                "{\"app\":\"web\"}",
                                "\"v1\"",
                                "\"ConfigMap\"",
                                "1",
                                "\"Deployment\"",
                                "[{\"name\":\"c\",\"image\":\"i\"}]",
                                "{\"a\":\"b\"}",
                                "\"/data/x\""),
                        Arbitraries.of(
                                "7",
                                "-1.5e308",
                                "true",
                                "null",
                                "[]",
                                "{}",
                                "\"\"",
                                "[1,{\"x\":[]}]",
                                "\"\\u0000\"",
                                "\"\\ud800\"",
                                "18446744073709551616",
                                "{\"$patch\":\"delete\"}"))
                .as((target, replacement) -> v -> v.replace(target, replacement).getBytes(StandardCharsets.UTF_8));
        Arbitrary<Mutation> invalidUtf8 = Arbitraries.of(
                        new byte[] {(byte) 0xc3, (byte) 0x28},
                        new byte[] {(byte) 0xff},
                        new byte[] {(byte) 0xed, (byte) 0xa0, (byte) 0x80},
                        new byte[] {0})
                .map(bad -> v -> {
                    byte[] text = v.getBytes(StandardCharsets.UTF_8);
                    int at = Math.max(0, v.indexOf("\"v\"") + 1);
                    byte[] out = new byte[text.length + bad.length];
                    System.arraycopy(text, 0, out, 0, at);
                    System.arraycopy(bad, 0, out, at, bad.length);
                    System.arraycopy(text, at, out, at + bad.length, text.length - at);
                    return out;
                });
        Arbitrary<Mutation> duplicate = Arbitraries.just(
                v -> v.replaceFirst("\\{", "{\"metadata\":{},\"metadata\":7,").getBytes(StandardCharsets.UTF_8));
        return Arbitraries.frequencyOf(
                Tuple.of(2, none),
                Tuple.of(3, truncate),
                Tuple.of(4, wrongType),
                Tuple.of(1, invalidUtf8),
                Tuple.of(1, duplicate));
    }

    // ---- the property ----

    @Provide
    Arbitrary<Fuzzed> requests() {
        return Combinators.combine(methods(), paths(), contentTypes(), accepts(), bodies())
                .as((method, path, contentType, accept, body) ->
                        new Fuzzed(method, path, body == null ? null : contentType, accept, body));
    }

    @Property(tries = 400, seed = "18", shrinking = ShrinkingMode.OFF)
    void noRequestGetsA5xxOrAnswersWithoutAStatusOrStopsTheServer(@ForAll("requests") Fuzzed f) {
        String method = f.method();
        long started = System.nanoTime();
        Answer r = send(f);
        Duration took = Duration.ofNanos(System.nanoTime() - started);

        assertThat(r.statusCode()).as("status of %s: %s", f, text(r)).isLessThan(500);
        assertThat(took).as("time of %s", f).isLessThan(BOUND);
        if (r.statusCode() != CLOSED && r.statusCode() >= 400 && !method.equals("HEAD")) {
            assertThat(isStatus(r) || isNotFoundPage(r))
                    .as("error body of %s: %s %s", f, r.statusCode(), text(r))
                    .isTrue();
        }
        assertThat(listAfter().statusCode()).as("a list after %s", f).isEqualTo(200);
    }

    /**
     * A list of ConfigMaps; sent once more when the pooled connection it went over was closed by the server after
     * the previous answer (as it may after a body it did not read), as Go's and kubectl's transports resend an
     * idempotent request.
     */
    private static Answer listAfter() {
        Fuzzed list = new Fuzzed("GET", "/api/v1/namespaces/default/configmaps", null, null, null);
        try {
            return send(list);
        } catch (AssertionError closed) {
            if (!(closed.getCause() instanceof IOException)) {
                throw closed;
            }
            return send(list);
        }
    }

    private static String text(Answer r) {
        String s = new String(r.body(), StandardCharsets.UTF_8);
        return s.length() > 500 ? s.substring(0, 500) + "..." : s;
    }

    private static boolean isNotFoundPage(Answer r) {
        return r.statusCode() == 404 && text(r).equals("404 page not found\n");
    }

    private static boolean isStatus(Answer r) {
        try {
            JsonNode n = KubeJson.mapper().readTree(r.body());
            return n.path("kind").asString("").equals("Status")
                    && n.path("code").asInt() == r.statusCode()
                    && n.path("status").asString("").equals("Failure");
        } catch (RuntimeException e) {
            return false;
        }
    }
}
