package io.kubeloop.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.GroupVersionResource;
import io.kubeloop.api.ObjectMeta;
import io.kubeloop.api.ResourceScope;
import io.kubeloop.apiserver.EmbeddedApiServer;
import io.kubeloop.apiserver.ServerOptions;
import io.kubeloop.client.ClientOptions;
import io.kubeloop.client.KubeClient;
import io.kubeloop.client.ResourceClient;
import io.kubeloop.client.WriteOptions;
import io.kubeloop.client.config.ClientConfig;
import io.kubeloop.controller.events.EventBroadcaster;
import io.kubeloop.controller.events.EventBroadcasterOptions;
import io.kubeloop.controller.events.EventRecorder;
import io.kubeloop.controller.events.EventType;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/** Events recorded through an {@link EventBroadcaster} as the embedded API server stores them. */
@Timeout(60)
class EventRecorderIntegrationTest extends EmbeddedServerTestBase {

    private EventBroadcaster broadcaster;
    private ResourceClient<DynamicObject> events;
    private DynamicObject configMap;

    @Override
    protected ClientOptions clientOptions() {
        return ClientOptions.builder().rateLimitingEnabled(false).build(); // 30 writes at once
    }

    @BeforeEach
    void startBroadcaster() {
        broadcaster = new EventBroadcaster(client);
        events = client.resource(
                        new GroupVersionResource("", "v1", "events"), ResourceScope.NAMESPACED, DynamicObject.class)
                .inNamespace("default");
        configMap = client.resource(
                        new GroupVersionResource("", "v1", "configmaps"), ResourceScope.NAMESPACED, DynamicObject.class)
                .inNamespace("default")
                .create(DynamicObject.of("v1", "ConfigMap", ObjectMeta.of("default", "watched")), WriteOptions.none());
    }

    @AfterEach
    void closeBroadcaster() {
        broadcaster.close();
    }

    private List<DynamicObject> eventsAbout(String name) {
        return events.list().items().stream()
                .filter(e ->
                        name.equals(e.node().path("involvedObject").path("name").asString()))
                .toList();
    }

    @Test
    void thirtyIdenticalEventsAtOnceAreOneServerEventCountedTwentyFiveTimes() {
        EventRecorder recorder = broadcaster.recorderFor("test-controller");
        for (int i = 0; i < 30; i++) {
            recorder.event(configMap, EventType.NORMAL, "Synced", "ConfigMap synced successfully");
        }

        await().atMost(Duration.ofSeconds(20)).until(() -> broadcaster.written() + broadcaster.dropped() == 30);
        List<DynamicObject> stored = eventsAbout("watched");
        assertThat(stored).hasSize(1);
        JsonNode e = stored.getFirst().node();
        assertThat(e.path("count").asInt()).isEqualTo(25);
        assertThat(broadcaster.dropped()).isEqualTo(5);
        assertThat(e.path("type").asString()).isEqualTo("Normal");
        assertThat(e.path("reason").asString()).isEqualTo("Synced");
        assertThat(e.path("source").path("component").asString()).isEqualTo("test-controller");
        assertThat(e.path("involvedObject").path("kind").asString()).isEqualTo("ConfigMap");
        assertThat(e.path("involvedObject").path("uid").asString())
                .isEqualTo(configMap.metadata().uid());
        assertThat(e.path("metadata").path("name").asString()).startsWith("watched.");
    }

    @Test
    void aWarningAboutAClusterScopedObjectGoesToTheDefaultNamespace() {
        DynamicObject ns = client.resource(
                        new GroupVersionResource("", "v1", "namespaces"), ResourceScope.CLUSTER, DynamicObject.class)
                .create(DynamicObject.of("v1", "Namespace", ObjectMeta.of(null, "team-a")), WriteOptions.none());
        broadcaster.recorderFor("test-controller").eventf(ns, EventType.WARNING, "QuotaLow", "%d%% used", 95);

        await().atMost(Duration.ofSeconds(20)).until(() -> broadcaster.written() == 1);
        JsonNode e = eventsAbout("team-a").getFirst().node();
        assertThat(e.path("type").asString()).isEqualTo("Warning");
        assertThat(e.path("message").asString()).isEqualTo("95% used");
        assertThat(e.path("involvedObject").has("namespace")).isFalse();
    }

    @Test
    void closingDoesNotWaitOutTheRetryDelayOfAWriteThatFails(@TempDir Path dir) throws Exception {
        KubeClient unreachable;
        try (EmbeddedApiServer gone = EmbeddedApiServer.start(ServerOptions.defaults())) {
            unreachable = KubeClient.create(
                    ClientConfig.fromKubeconfig(gone.writeKubeconfig(dir.resolve("kubeconfig"))),
                    ClientOptions.defaults());
        } // closed: every write is refused
        try (unreachable) {
            EventBroadcaster failing = new EventBroadcaster(
                    unreachable,
                    EventBroadcasterOptions.builder()
                            .retryDelay(Duration.ofMinutes(5))
                            .build());
            failing.recorderFor("test-controller").event(configMap, EventType.NORMAL, "Synced", "never written");
            Thread.sleep(500); // the first try has failed; the writer waits up to 5 minutes to retry

            long start = System.nanoTime();
            failing.close();

            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
            assertThat(failing.written()).isZero(); // tried once more on close, then given up
        }
    }
}
