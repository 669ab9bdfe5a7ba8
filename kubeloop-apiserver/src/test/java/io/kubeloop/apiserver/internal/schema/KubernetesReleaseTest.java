package io.kubeloop.apiserver.internal.schema;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubeloop.api.GroupVersionKind;
import io.kubeloop.api.json.KubeJson;
import io.kubeloop.apiserver.EmbeddedApiServer;
import io.kubeloop.apiserver.ServerOptions;
import io.kubeloop.apiserver.SimulatedCluster;
import io.kubeloop.client.discovery.APIResource;
import io.kubeloop.client.discovery.APIResourceList;
import io.kubeloop.client.discovery.ServerResources;
import io.kubeloop.client.discovery.ServerVersion;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The server is the Kubernetes release whose OpenAPI documents the repository keeps: exactly that
 * release's directory is kept, every document in it is the one published (its checksum as listed), and
 * {@code /version} says the release.
 */
class KubernetesReleaseTest {

    private static Path documents() {
        return Path.of(System.getProperty("basedir", ""))
                .toAbsolutePath()
                .getParent()
                .resolve("kubernetes-openapi");
    }

    @Test
    void theKeptDocumentsAreThoseOfThisReleaseAlone() throws IOException {
        try (Stream<Path> dirs = Files.list(documents())) {
            assertThat(dirs.filter(Files::isDirectory).map(d -> d.getFileName().toString()))
                    .containsExactly(KubernetesRelease.tag());
        }
    }

    @Test
    void everyKeptDocumentIsListedAndMatchesItsChecksum() throws IOException, NoSuchAlgorithmException {
        Path release = documents().resolve(KubernetesRelease.tag());
        Map<String, String> listed = new TreeMap<>();
        for (String line : Files.readAllLines(release.resolve("SHA256SUMS"))) {
            String[] f = line.split("\\s+", 2);
            listed.put(f[1], f[0]);
        }
        List<String> kept;
        try (Stream<Path> files = Files.walk(release)) {
            kept = files.filter(p -> p.toString().endsWith(".json"))
                    .map(p -> release.relativize(p).toString())
                    .sorted()
                    .toList();
        }
        assertThat(kept).contains("swagger.json", "v3/api__v1_openapi.json", "v3/apis__apps__v1_openapi.json");
        assertThat(listed.keySet()).containsExactlyElementsOf(kept);
        for (String file : kept) {
            assertThat(sha256(release.resolve(file))).as(file).isEqualTo(listed.get(file));
        }
    }

    @Test
    void versionEndpointSaysTheRelease() {
        try (EmbeddedApiServer server =
                EmbeddedApiServer.start(ServerOptions.defaults().withCluster(SimulatedCluster.off()))) {
            ServerVersion v = server.client().discovery().serverVersion();
            assertThat(v.major()).isEqualTo("1");
            assertThat(v.minor()).isEqualTo(String.valueOf(KubernetesRelease.MINOR));
            assertThat(v.gitVersion()).isEqualTo(KubernetesRelease.tag() + "+kubeloop");
        }
    }

    /**
     * Discovery agrees with the release: every resource and subresource the server serves answers a kind
     * that the release's swagger.json defines in that group and version (no group-version the release no
     * longer has, no kind it never had).
     */
    @Test
    void everyServedResourceAnswersAKindOfTheRelease() throws IOException {
        Set<GroupVersionKind> released = new HashSet<>();
        JsonNode definitions;
        try (InputStream in = Files.newInputStream(
                documents().resolve(KubernetesRelease.tag()).resolve("swagger.json"))) {
            definitions = KubeJson.mapper().readTree(in).path("definitions");
        }
        for (JsonNode d : definitions) {
            for (JsonNode gvk : d.path("x-kubernetes-group-version-kind")) {
                released.add(new GroupVersionKind(
                        gvk.path("group").asString(""),
                        gvk.path("version").asString(""),
                        gvk.path("kind").asString("")));
            }
        }
        try (EmbeddedApiServer server =
                EmbeddedApiServer.start(ServerOptions.defaults().withCluster(SimulatedCluster.off()))) {
            ServerResources served = server.client().discovery().serverGroupsAndResources();
            assertThat(served.failures()).isEmpty();
            List<String> foreign = new ArrayList<>();
            int count = 0;
            for (APIResourceList list : served.resources().values()) {
                for (APIResource r : list.resources()) {
                    count++;
                    if (!released.contains(r.responseKind())) {
                        foreign.add(list.groupVersion() + " " + r.name() + " -> " + r.responseKind());
                    }
                }
            }
            assertThat(count).isGreaterThan(60);
            assertThat(foreign).isEmpty();
        }
    }

    private static String sha256(Path file) throws IOException, NoSuchAlgorithmException {
        MessageDigest digest = MessageDigest.getInstance("SHA-256");
        try (InputStream in = new DigestInputStream(Files.newInputStream(file), digest)) {
            in.transferTo(OutputStream.nullOutputStream());
        }
        return HexFormat.of().formatHex(digest.digest());
    }
}
