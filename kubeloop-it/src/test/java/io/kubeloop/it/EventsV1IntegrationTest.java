package io.kubeloop.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.GroupVersionResource;
import io.kubeloop.api.ResourceScope;
import io.kubeloop.controller.events.EventBroadcasterOptions;
import io.kubeloop.controller.events.EventType;
import io.kubeloop.controller.events.EventsV1Broadcaster;
import io.kubeloop.controller.events.EventsV1Recorder;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** events.k8s.io/v1 Events written to the embedded API server: their fields, and repeats as a series. */
@Timeout(60)
class EventsV1IntegrationTest extends EmbeddedServerTestBase {

    private static final EventBroadcasterOptions ONE_TRY_AS_HOST_1 = EventBroadcasterOptions.builder()
            .host("host-1")
            .tries(1)
            .retryDelay(Duration.ZERO)
            .build();

    private List<DynamicObject> events() {
        return client.resource(
                        new GroupVersionResource("events.k8s.io", "v1", "events"),
                        ResourceScope.NAMESPACED,
                        DynamicObject.class)
                .inNamespace("default")
                .list()
                .items();
    }

    private ConfigMap configMap() {
        return client.resource(ConfigMap.class)
                .inNamespace("default")
                .create(new ConfigMapBuilder()
                        .withNewMetadata()
                        .withName("cm")
                        .endMetadata()
                        .build());
    }

    @Test
    void anEventNamesTheObjectsTheActionAndTheReportingController() {
        ConfigMap cm = configMap();
        ConfigMap other = client.resource(ConfigMap.class)
                .inNamespace("default")
                .create(new ConfigMapBuilder()
                        .withNewMetadata()
                        .withName("other")
                        .endMetadata()
                        .build());
        try (EventsV1Broadcaster broadcaster = new EventsV1Broadcaster(client, ONE_TRY_AS_HOST_1)) {
            EventsV1Recorder recorder = broadcaster.recorderFor("cm-controller");
            recorder.event(cm, other, EventType.NORMAL, "Synced", "Reconcile", "all good");
            await().atMost(Duration.ofSeconds(10)).until(() -> !events().isEmpty());
        }

        DynamicObject e = events().getFirst();
        assertThat(e.apiVersion()).isEqualTo("events.k8s.io/v1");
        assertThat(e.metadata().name()).startsWith("cm.");
        assertThat(text(e, "/reportingController")).isEqualTo("cm-controller");
        assertThat(text(e, "/reportingInstance")).isEqualTo("cm-controller-host-1");
        assertThat(text(e, "/action")).isEqualTo("Reconcile");
        assertThat(text(e, "/reason")).isEqualTo("Synced");
        assertThat(text(e, "/note")).isEqualTo("all good");
        assertThat(text(e, "/type")).isEqualTo("Normal");
        assertThat(text(e, "/regarding/name")).isEqualTo("cm");
        assertThat(text(e, "/regarding/uid")).isEqualTo(cm.getMetadata().getUid());
        assertThat(text(e, "/related/name")).isEqualTo("other");
        assertThat(text(e, "/eventTime")).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{6}Z");
        assertThat(e.at("/series")).isEmpty();
    }

    @Test
    void repeatsBecomeASeriesCountedOnTheFirstEventAndWrittenWhenTheBroadcasterCloses() {
        ConfigMap cm = configMap();
        EventsV1Broadcaster broadcaster = new EventsV1Broadcaster(client, ONE_TRY_AS_HOST_1);
        EventsV1Recorder recorder = broadcaster.recorderFor("cm-controller");
        recorder.event(cm, null, EventType.WARNING, "Failed", "Reconcile", "cannot do it");
        recorder.event(cm, null, EventType.WARNING, "Failed", "Reconcile", "cannot do it");
        await().atMost(Duration.ofSeconds(10))
                .until(() ->
                        events().stream().anyMatch(e -> e.at("/series/count").isPresent()));
        assertThat(events())
                .singleElement()
                .satisfies(e ->
                        assertThat(e.at("/series/count").orElseThrow().asInt()).isEqualTo(2));
        recorder.event(cm, null, EventType.WARNING, "Failed", "Reconcile", "cannot do it");
        recorder.event(cm, null, EventType.WARNING, "Failed", "Reconcile", "cannot do it");
        recorder.event(cm, null, EventType.WARNING, "Failed", "Reconcile", "another note: another Event");

        broadcaster.close();

        assertThat(events()).hasSize(2);
        assertThat(events())
                .filteredOn(e -> text(e, "/note").equals("cannot do it"))
                .singleElement()
                .satisfies(e ->
                        assertThat(e.at("/series/count").orElseThrow().asInt()).isEqualTo(4));
        assertThat(broadcaster.dropped()).isZero();
    }

    private static String text(DynamicObject o, String pointer) {
        return o.at(pointer).map(n -> n.asString()).orElse("");
    }
}
