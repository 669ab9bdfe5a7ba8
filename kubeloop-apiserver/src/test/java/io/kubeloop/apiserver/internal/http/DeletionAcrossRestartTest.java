package io.kubeloop.apiserver.internal.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kubeloop.apiserver.EmbeddedApiServer;
import io.kubeloop.apiserver.ServerOptions;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/** Deletions in progress when a server on a data directory stops are finished by the restarted server. */
class DeletionAcrossRestartTest {

    @TempDir
    Path tmp;

    private ServerOptions options() {
        return ServerOptions.defaults().withDataDir(tmp.resolve("data"));
    }

    private static JsonNode post(RawHttp http, String path, String body) {
        HttpResponse<String> r = http.post(path, body);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
        return RawHttp.json(r);
    }

    private static void awaitGone(RawHttp http, String path) {
        await().atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(20))
                .until(() -> http.get(path).statusCode() == 404);
    }

    @Test
    void foregroundDeletionAndPodGracePeriodsContinueAfterARestart() {
        String owner = "/api/v1/namespaces/default/configmaps/owner";
        String dep = "/api/v1/namespaces/default/configmaps/dep";
        String pod = "/api/v1/namespaces/default/pods/bound";
        try (EmbeddedApiServer server = EmbeddedApiServer.start(options())) {
            RawHttp http = new RawHttp(server);
            JsonNode o = post(http, "/api/v1/namespaces/default/configmaps", "{\"metadata\":{\"name\":\"owner\"}}");
            post(
                    http,
                    "/api/v1/namespaces/default/configmaps",
                    "{\"metadata\":{\"name\":\"dep\",\"finalizers\":" + "[\"example.com/hold\"],\"ownerReferences\":["
                            + GarbageCollectionTest.ref(o, true) + "]}}");
            http.delete(owner, "{\"propagationPolicy\":\"Foreground\"}");
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> RawHttp.json(http.get(dep)).path("metadata").has("deletionTimestamp"));
            post(
                    http,
                    "/api/v1/namespaces/default/pods",
                    Workloads.pod("bound", null, null, "\"nodeName\":\"node-1\""));
            assertThat(http.delete(pod, "{\"gracePeriodSeconds\":2}").statusCode())
                    .isEqualTo(200);
        }
        try (EmbeddedApiServer server = EmbeddedApiServer.start(options())) {
            RawHttp http = new RawHttp(server);
            assertThat(http.get(owner).statusCode()).isEqualTo(200);
            assertThat(http.patch(dep, "application/merge-patch+json", "{\"metadata\":{\"finalizers\":null}}")
                            .statusCode())
                    .isEqualTo(200);
            awaitGone(http, dep);
            awaitGone(http, owner);
            awaitGone(http, pod);
        }
    }
}
