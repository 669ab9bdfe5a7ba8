package io.kubeloop.apiserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import io.kubeloop.api.json.KubeJson;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * LIST bodies larger than the server's chunk size are streamed (chunked on HTTP/1.1, DATA frames on
 * HTTP/2) and arrive whole and in order; smaller ones keep their Content-Length. The server runs with
 * a 2 KiB chunk so that 60 ConfigMaps make a list of many chunks.
 */
class ListStreamingTest {

    private static final int COUNT = 60;

    @TempDir
    static Path dir;

    static EmbeddedApiServer server;
    static HttpClient http1;
    static HttpClient http2;

    @BeforeAll
    static void start() throws Exception {
        server = EmbeddedApiServer.start(ServerOptions.defaults().withListChunkBytes(2048));
        http1 = HttpClient.newBuilder()
                .sslContext(server.clientConfig().sslContext())
                .version(HttpClient.Version.HTTP_1_1)
                .build();
        http2 = HttpClient.newBuilder()
                .sslContext(server.clientConfig().sslContext())
                .version(HttpClient.Version.HTTP_2)
                .build();
        send(http1, "POST", "/api/v1/namespaces", "{\"metadata\":{\"name\":\"big\"}}", 201);
        for (int i = 0; i < COUNT; i++) {
            send(
                    http1,
                    "POST",
                    "/api/v1/namespaces/big/configmaps",
                    "{\"metadata\":{\"name\":\"" + name(i) + "\",\"labels\":{\"app\":\"list\"}},\"data\":{\"key\":\""
                            + "v".repeat(100) + "\"}}",
                    201);
        }
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    private static String name(int i) {
        return String.format("cm-%03d", i);
    }

    private static HttpResponse<String> send(HttpClient client, String method, String path, String body, int expected)
            throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(server.url() + path))
                .header("Authorization", "Bearer " + server.token())
                .timeout(Duration.ofSeconds(20));
        b = body == null
                ? b.method(method, HttpRequest.BodyPublishers.noBody())
                : b.header("Content-Type", "application/json")
                        .method(method, HttpRequest.BodyPublishers.ofString(body));
        HttpResponse<String> r = client.send(b.build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as("%s %s: %s", method, path, r.body()).isEqualTo(expected);
        return r;
    }

    private static List<String> names(JsonNode list) {
        List<String> out = new ArrayList<>();
        list.path("items").forEach(i -> out.add(i.path("metadata").path("name").asString()));
        return out;
    }

    private static List<String> names(int from, int to) {
        List<String> out = new ArrayList<>();
        for (int i = from; i < to; i++) {
            out.add(name(i));
        }
        return out;
    }

    @Test
    void aListLargerThanOneChunkIsStreamedChunkedAndArrivesWholeInOrder() throws Exception {
        HttpResponse<String> r =
                send(http1, "GET", "/api/v1/namespaces/big/configmaps?labelSelector=app%3Dlist", null, 200);

        assertThat(r.body().length()).isGreaterThan(10 * 2048);
        assertThat(r.headers().firstValue("Content-Length")).isEmpty();
        assertThat(r.headers().firstValue("Transfer-Encoding")).hasValue("chunked");
        assertThat(r.headers().firstValue("Content-Type")).hasValue("application/json");
        JsonNode list = KubeJson.mapper().readTree(r.body());
        assertThat(list.path("kind").asString()).isEqualTo("ConfigMapList");
        assertThat(list.path("metadata").path("resourceVersion").asString()).isNotEmpty();
        assertThat(names(list)).containsExactlyElementsOf(names(0, COUNT));
    }

    @Test
    void overHttp2TheStreamedListArrivesWholeToo() throws Exception {
        HttpResponse<String> r =
                send(http2, "GET", "/api/v1/namespaces/big/configmaps?labelSelector=app%3Dlist", null, 200);

        assertThat(r.version()).isEqualTo(HttpClient.Version.HTTP_2);
        assertThat(names(KubeJson.mapper().readTree(r.body()))).containsExactlyElementsOf(names(0, COUNT));
    }

    @Test
    void aListThatFitsInOneChunkKeepsItsContentLength() throws Exception {
        HttpResponse<String> r =
                send(http1, "GET", "/api/v1/namespaces/big/configmaps?labelSelector=app%3Dlist&limit=1", null, 200);

        assertThat(r.headers().firstValue("Content-Length"))
                .hasValue(Integer.toString(r.body().length()));
        JsonNode list = KubeJson.mapper().readTree(r.body());
        assertThat(names(list)).containsExactly(name(0));
        assertThat(list.path("metadata").path("continue").asString()).isNotEmpty();
        assertThat(list.path("metadata").has("remainingItemCount"))
                .as("unknown with a selector")
                .isFalse();
    }

    @Test
    void aStreamedPageCarriesItsContinueTokenAndTheNextPageFollowsOn() throws Exception {
        String base = "/api/v1/namespaces/big/configmaps?labelSelector=app%3Dlist&limit=40";
        JsonNode first =
                KubeJson.mapper().readTree(send(http1, "GET", base, null, 200).body());
        String token = first.path("metadata").path("continue").asString();
        JsonNode second = KubeJson.mapper()
                .readTree(send(http1, "GET", base + "&continue=" + token, null, 200)
                        .body());

        assertThat(names(first)).containsExactlyElementsOf(names(0, 40));
        assertThat(token).isNotEmpty();
        assertThat(names(second)).containsExactlyElementsOf(names(40, COUNT));
        assertThat(second.path("metadata").has("continue")).isFalse();
    }

    @Test
    void deleteCollectionAnswersWithTheStreamedListOfWhatItDeleted() throws Exception {
        send(http1, "POST", "/api/v1/namespaces", "{\"metadata\":{\"name\":\"gone\"}}", 201);
        for (int i = 0; i < 30; i++) {
            send(
                    http1,
                    "POST",
                    "/api/v1/namespaces/gone/configmaps",
                    "{\"metadata\":{\"name\":\"" + name(i) + "\",\"labels\":{\"app\":\"gone\"}},\"data\":{\"key\":\""
                            + "v".repeat(100) + "\"}}",
                    201);
        }

        HttpResponse<String> r =
                send(http1, "DELETE", "/api/v1/namespaces/gone/configmaps?labelSelector=app%3Dgone", null, 200);

        assertThat(r.headers().firstValue("Transfer-Encoding")).hasValue("chunked");
        assertThat(names(KubeJson.mapper().readTree(r.body()))).containsExactlyElementsOf(names(0, 30));
        JsonNode left = KubeJson.mapper()
                .readTree(send(http1, "GET", "/api/v1/namespaces/gone/configmaps?labelSelector=app%3Dgone", null, 200)
                        .body());
        assertThat(left.path("items")).isEmpty();
    }

    @Test
    void kubectlOfEveryInstalledVersionReadsAStreamedList() throws Exception {
        List<Path> binaries = Kubectl.installed();
        assumeFalse(binaries.isEmpty(), "no kubectl installed: streamed-list kubectl check skipped");
        Path kubeconfig = server.writeKubeconfig(dir.resolve("kubeconfig"));
        for (Path binary : binaries) {
            Kubectl kubectl = new Kubectl(
                    binary, Kubectl.versionOf(binary), kubeconfig, dir.resolve("cache-" + Kubectl.versionOf(binary)));

            Kubectl.Result r = kubectl.run("get", "configmaps", "-n", "big", "-l", "app=list", "-o", "json");

            assertThat(r.code())
                    .as("kubectl %s: %s", kubectl.version(), r.out())
                    .isZero();
            assertThat(names(KubeJson.mapper().readTree(r.out())))
                    .as("kubectl %s", kubectl.version())
                    .containsExactlyElementsOf(names(0, COUNT));
        }
    }
}
