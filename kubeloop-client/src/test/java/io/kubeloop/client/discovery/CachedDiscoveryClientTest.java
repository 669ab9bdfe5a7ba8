package io.kubeloop.client.discovery;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubeloop.api.GroupVersion;
import io.kubeloop.time.testing.FakeTicker;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CachedDiscoveryClientTest {

    @TempDir
    Path cacheDir;

    private FakeDiscoveryServer server;
    private JdkHttpTransport transport;
    private final FakeTicker clock = new FakeTicker(Instant.now());

    private CachedDiscoveryClient newClient() {
        if (transport == null) {
            transport = new JdkHttpTransport(server.uri());
        }
        return new CachedDiscoveryClient(
                new HttpDiscoveryClient(transport),
                DiscoveryCacheLocation.discoveryDir(cacheDir, server.url()),
                CachedDiscoveryClient.DEFAULT_TTL,
                clock);
    }

    @AfterEach
    void stop() {
        if (transport != null) {
            transport.close();
        }
        server.close();
    }

    @Test
    void writesKubectlsLayoutFromAggregatedDiscovery() throws IOException {
        server = FakeDiscoveryServer.aggregated();
        newClient().serverGroupsAndResources();

        Path dir = cacheDir.resolve("discovery")
                .resolve("127.0.0.1_" + server.uri().getPort());
        assertThat(dir.resolve("servergroups.json")).isRegularFile();
        for (String gv : new String[] {
            "v1",
            "apps/v1",
            "events.k8s.io/v1",
            "autoscaling/v2",
            "autoscaling/v1",
            "batch/v1",
            "apiextensions.k8s.io/v1",
            "coordination.k8s.io/v1",
            "samplecontroller.k8s.io/v1alpha1"
        }) {
            assertThat(dir.resolve(gv).resolve("serverresources.json")).isRegularFile();
        }
        assertThat(Files.readString(dir.resolve("servergroups.json")))
                .startsWith("{\"kind\":\"APIGroupList\",\"apiVersion\":\"v1\",\"groups\":[{\"name\":\"\",");
        assertThat(Files.getPosixFilePermissions(dir.resolve("servergroups.json")))
                .isEqualTo(PosixFilePermissions.fromString("rw-rw----"));
        assertThat(Files.getPosixFilePermissions(dir.resolve("apps")))
                .doesNotContain(PosixFilePermission.OTHERS_READ, PosixFilePermission.OTHERS_EXECUTE);
        try (Stream<Path> files = Files.walk(dir)) {
            assertThat(files.filter(Files::isRegularFile)
                            .map(p -> p.getFileName().toString()))
                    .allMatch(n -> n.equals("servergroups.json") || n.equals("serverresources.json"));
        }
    }

    @Test
    void anotherClientAnswersFromTheFilesWithoutAnyRequest() {
        server = FakeDiscoveryServer.aggregated();
        ServerResources live = newClient().serverGroupsAndResources();
        server.clearRequests();

        CachedDiscoveryClient second = newClient();
        ServerResources cached = second.serverGroupsAndResources();

        assertThat(server.requests()).isEmpty();
        assertThat(cached.groups()).isEqualTo(live.groups());
        assertThat(cached.resources()).isEqualTo(live.resources());
        assertThat(second.fresh()).isFalse();
    }

    @Test
    void legacyServerCacheIsWrittenPerGroupVersionAndReusedToo() {
        server = FakeDiscoveryServer.legacy();
        ServerResources live = newClient().serverGroupsAndResources();
        assertThat(server.discoveryPaths()).hasSize(11);
        server.clearRequests();

        ServerResources cached = newClient().serverGroupsAndResources();

        assertThat(server.requests()).isEmpty();
        assertThat(cached.resources()).isEqualTo(live.resources());
    }

    @Test
    void filesOlderThanTheTtlAreFetchedAgain() {
        server = FakeDiscoveryServer.aggregated();
        newClient().serverGroupsAndResources();
        server.clearRequests();

        clock.step(Duration.ofHours(5));
        newClient().serverGroupsAndResources();
        assertThat(server.requests()).isEmpty();

        clock.step(Duration.ofHours(2));
        newClient().serverGroupsAndResources();
        assertThat(server.discoveryPaths()).containsExactly("/api", "/apis");
    }

    @Test
    void ageIsTheFilesModificationTime() throws IOException {
        server = FakeDiscoveryServer.legacy();
        CachedDiscoveryClient first = newClient();
        first.serverGroupsAndResources();
        Path apps = first.directory().resolve("apps/v1/serverresources.json");
        Files.setLastModifiedTime(apps, FileTime.from(clock.instant().minus(Duration.ofHours(7))));
        server.clearRequests();

        newClient().serverGroupsAndResources();

        assertThat(server.discoveryPaths()).containsExactly("/apis/apps/v1");
        assertThat(Files.getLastModifiedTime(apps).toInstant())
                .isAfter(clock.instant().minus(Duration.ofMinutes(1)));
    }

    @Test
    void afterInvalidateOnlyFilesWrittenByThisClientCount() {
        server = FakeDiscoveryServer.aggregated();
        newClient().serverGroupsAndResources();
        server.clearRequests();

        CachedDiscoveryClient client = newClient();
        client.serverGroups();
        assertThat(server.requests()).isEmpty();
        assertThat(client.fresh()).isFalse();

        client.invalidate();
        assertThat(client.fresh()).isTrue();
        client.serverGroupsAndResources();
        assertThat(server.discoveryPaths()).containsExactly("/api", "/apis");

        server.clearRequests();
        client.serverGroupsAndResources();
        client.serverResourcesForGroupVersion(new GroupVersion("apps", "v1"));
        assertThat(server.requests()).isEmpty();
        assertThat(client.fresh()).isTrue();
    }

    @Test
    void unreadableCacheFileIsReplacedFromTheServer() throws IOException {
        server = FakeDiscoveryServer.aggregated();
        CachedDiscoveryClient first = newClient();
        first.serverGroupsAndResources();
        Files.writeString(first.directory().resolve("servergroups.json"), "{not json");
        server.clearRequests();

        ServerResources again = newClient().serverGroupsAndResources();

        assertThat(server.discoveryPaths()).containsExactly("/api", "/apis");
        assertThat(again.groups()).hasSize(8);
        assertThat(Files.readString(first.directory().resolve("servergroups.json")))
                .startsWith("{\"kind\":\"APIGroupList\"");
    }

    @Test
    void cacheDirectoryNamesFollowKubectl() {
        server = FakeDiscoveryServer.aggregated();
        assertThat(DiscoveryCacheLocation.safeHost("https://127.0.0.1:6443")).isEqualTo("127.0.0.1_6443");
        assertThat(DiscoveryCacheLocation.safeHost("http://localhost:8080/")).isEqualTo("localhost_8080");
        assertThat(DiscoveryCacheLocation.safeHost("https://rancher.example.com/k8s/clusters/c-m-x1(a)"))
                .isEqualTo("rancher.example.com/k8s/clusters/c_m_x1(a)");
        assertThat(DiscoveryCacheLocation.safeHost("https://[::1]:6443")).isEqualTo("___1__6443");
        Path home = Path.of("/home/u");
        assertThat(DiscoveryCacheLocation.defaultCacheDir(Map.of(), home)).isEqualTo(Path.of("/home/u/.kube/cache"));
        assertThat(DiscoveryCacheLocation.defaultCacheDir(Map.of("KUBECACHEDIR", "/tmp/kc"), home))
                .isEqualTo(Path.of("/tmp/kc"));
        assertThat(DiscoveryCacheLocation.defaultCacheDir(Map.of("KUBECACHEDIR", ""), home))
                .isEqualTo(Path.of("/home/u/.kube/cache"));
        assertThat(DiscoveryCacheLocation.discoveryDir(Path.of("/c"), "https://10.0.0.1:443"))
                .isEqualTo(Path.of("/c/discovery/10.0.0.1_443"));
    }
}
