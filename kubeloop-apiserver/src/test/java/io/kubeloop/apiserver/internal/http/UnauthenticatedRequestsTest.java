package io.kubeloop.apiserver.internal.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubeloop.api.json.KubeJson;
import io.kubeloop.apiserver.EmbeddedApiServer;
import io.kubeloop.apiserver.ServerOptions;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Requests without credentials, on every path the server serves (each listable resource from discovery,
 * discovery itself, OpenAPI, metrics, health, an unknown path): by default they run as {@code
 * system:anonymous}, which reads only the public paths ({@code /healthz}, {@code /livez}, {@code /readyz},
 * {@code /version}) and is refused everything else with a 403 Status naming the user, as kube-apiserver
 * with its default {@code --anonymous-auth}; with anonymous requests switched off every path answers a 401
 * Status, as kube-apiserver with {@code --anonymous-auth=false}. The admin token reads them all either way.
 */
class UnauthenticatedRequestsTest {

    private static final Set<String> PUBLIC = Set.of("/healthz", "/livez", "/readyz", "/version");

    private static final List<String> FIXED = List.of(
            "/api",
            "/apis",
            "/api/v1",
            "/apis/apps/v1",
            "/openapi/v2",
            "/openapi/v3",
            "/metrics",
            "/healthz",
            "/livez",
            "/readyz",
            "/version",
            "/api/v1/namespaces/default/configmaps/missing",
            "/no/such/path");

    @Test
    void byDefaultAnonymousRequestsReadOnlyThePublicPathsAndAreForbiddenTheRest() throws Exception {
        try (EmbeddedApiServer server = EmbeddedApiServer.start();
                HttpClient http = client(server)) {
            List<String> paths = paths(server, http);
            for (String path : paths) {
                HttpResponse<String> r = get(http, server, path, null);
                if (PUBLIC.contains(path)) {
                    assertThat(r.statusCode()).as(path).isEqualTo(200);
                } else {
                    assertThat(r.statusCode()).as(path).isEqualTo(403);
                    JsonNode status = KubeJson.mapper().readTree(r.body());
                    assertThat(status.path("kind").asString()).as(path).isEqualTo("Status");
                    assertThat(status.path("reason").asString()).as(path).isEqualTo("Forbidden");
                    assertThat(status.path("message").asString()).as(path).contains("User \"system:anonymous\"");
                }
            }
        }
    }

    @Test
    void withAnonymousAuthOffEveryPathAnswers401WithoutCredentials() throws Exception {
        try (EmbeddedApiServer server =
                        EmbeddedApiServer.start(ServerOptions.defaults().withAnonymousAuth(false));
                HttpClient http = client(server)) {
            List<String> paths = paths(server, http);
            for (String path : paths) {
                HttpResponse<String> r = get(http, server, path, null);
                assertThat(r.statusCode()).as(path).isEqualTo(401);
                JsonNode status = KubeJson.mapper().readTree(r.body());
                assertThat(status.path("kind").asString()).as(path).isEqualTo("Status");
                assertThat(status.path("reason").asString()).as(path).isEqualTo("Unauthorized");
                assertThat(status.path("code").asInt()).as(path).isEqualTo(401);
            }
            // ... and the same paths with the admin token are served
            for (String path : paths) {
                int code = get(http, server, path, server.token()).statusCode();
                assertThat(code).as(path).isIn(200, 404);
            }
        }
    }

    private static HttpClient client(EmbeddedApiServer server) {
        return HttpClient.newBuilder()
                .sslContext(server.clientConfig().sslContext())
                .connectTimeout(Duration.ofSeconds(5))
                .build();
    }

    private static HttpResponse<String> get(HttpClient http, EmbeddedApiServer server, String path, String token)
            throws Exception {
        HttpRequest.Builder b =
                HttpRequest.newBuilder(server.url().resolve(path)).timeout(Duration.ofSeconds(20));
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        return http.send(b.GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The fixed paths and the collection of every listable resource that discovery names. */
    private static List<String> paths(EmbeddedApiServer server, HttpClient http) throws Exception {
        List<String> paths = new ArrayList<>(FIXED);
        List<String> groupVersions = new ArrayList<>(List.of("/api/v1"));
        JsonNode groups = KubeJson.mapper()
                .readTree(get(http, server, "/apis", server.token()).body());
        for (JsonNode g : groups.path("groups")) {
            for (JsonNode v : g.path("versions")) {
                groupVersions.add("/apis/" + v.path("groupVersion").asString());
            }
        }
        for (String gv : groupVersions) {
            JsonNode list = KubeJson.mapper()
                    .readTree(get(http, server, gv, server.token()).body());
            for (JsonNode r : list.path("resources")) {
                String name = r.path("name").asString();
                boolean listable = false;
                for (JsonNode verb : r.path("verbs")) {
                    listable |= verb.asString().equals("list");
                }
                if (listable && !name.contains("/")) {
                    paths.add(gv + "/" + name);
                }
            }
        }
        assertThat(paths).hasSizeGreaterThan(FIXED.size() + 30);
        return paths;
    }
}
