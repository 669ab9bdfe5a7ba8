package io.kubeloop.client.discovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kubeloop.time.Ticker;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

class DiscoveryRestMapperTest {

    @TempDir
    Path cacheDir;

    private FakeDiscoveryServer server;
    private JdkHttpTransport transport;

    @BeforeEach
    void start() {
        server = FakeDiscoveryServer.aggregated();
        transport = new JdkHttpTransport(server.uri());
    }

    @AfterEach
    void stop() {
        transport.close();
        server.close();
    }

    /** A new "process": a fresh cache client over the shared cache directory. */
    private DiscoveryRestMapper newProcess() {
        return new DiscoveryRestMapper(new CachedDiscoveryClient(
                new HttpDiscoveryClient(transport),
                DiscoveryCacheLocation.discoveryDir(cacheDir, server.url()),
                CachedDiscoveryClient.DEFAULT_TTL,
                Ticker.system()));
    }

    private void hideSampleControllerGroup() {
        server.edit("/apis", doc -> {
            ArrayNode items = (ArrayNode) doc.path("items");
            for (int i = items.size() - 1; i >= 0; i--) {
                if (items.get(i).path("metadata").path("name").asString().equals("samplecontroller.k8s.io")) {
                    items.remove(i);
                }
            }
            return (ObjectNode) doc;
        });
    }

    @Test
    void resourceMissingFromAnOldCacheIsFoundAfterOneRefetch() {
        hideSampleControllerGroup();
        newProcess().resolve("deploy");
        server.clearEdits();
        server.clearRequests();

        RestMapping foos = newProcess().resolve("foos");

        assertThat(foos.groupVersionResource().format()).isEqualTo("foos.v1alpha1.samplecontroller.k8s.io");
        assertThat(server.discoveryPaths()).containsExactly("/api", "/apis");
    }

    @Test
    void unknownResourceCostsExactlyOneRefetchThenFailsTyped() {
        newProcess().resolve("deploy");
        server.clearRequests();

        DiscoveryRestMapper mapper = newProcess();
        assertThatThrownBy(() -> mapper.resolve("nosuchthing"))
                .isInstanceOf(NoMatchException.class)
                .hasMessage("the server doesn't have a resource type \"nosuchthing\"");
        assertThat(server.discoveryPaths()).containsExactly("/api", "/apis");

        server.clearRequests();
        assertThatThrownBy(() -> mapper.resolve("nosuchthing")).isInstanceOf(NoMatchException.class);
        assertThat(server.requests()).isEmpty();
    }

    @Test
    void missRightAfterAFetchDoesNotFetchAgain() {
        DiscoveryRestMapper mapper = newProcess();

        assertThatThrownBy(() -> mapper.resolve("nosuchthing")).isInstanceOf(NoMatchException.class);

        assertThat(server.discoveryPaths()).containsExactly("/api", "/apis");
    }

    @Test
    void hitsFromTheCacheNeedNoRequests() {
        newProcess().resolve("deploy");
        server.clearRequests();

        DiscoveryRestMapper mapper = newProcess();
        assertThat(mapper.resolve("hpa").groupVersionKind().version()).isEqualTo("v2");
        assertThat(mapper.resolve("Foo").namespaced()).isTrue();

        assertThat(server.requests()).isEmpty();
    }

    @Test
    void overPlainHttpDiscoveryTheSnapshotIsKeptUntilReset() {
        hideSampleControllerGroup();
        DiscoveryRestMapper mapper = new DiscoveryRestMapper(new HttpDiscoveryClient(transport));
        assertThatThrownBy(() -> mapper.resolve("foos")).isInstanceOf(NoMatchException.class);
        server.clearEdits();
        assertThatThrownBy(() -> mapper.resolve("foos")).isInstanceOf(NoMatchException.class);
        assertThat(server.discoveryPaths()).containsExactly("/api", "/apis");

        mapper.reset();

        assertThat(mapper.resolve("foos").groupVersionKind().kind()).isEqualTo("Foo");
    }
}
