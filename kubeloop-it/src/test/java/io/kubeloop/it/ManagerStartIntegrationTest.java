package io.kubeloop.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.GroupVersionResource;
import io.kubeloop.api.ObjectKey;
import io.kubeloop.api.ResourceScope;
import io.kubeloop.api.errors.NotFoundException;
import io.kubeloop.client.KubeClient;
import io.kubeloop.client.discovery.NoMatchException;
import io.kubeloop.controller.CacheSyncTimeoutException;
import io.kubeloop.controller.ControllerBuilder;
import io.kubeloop.controller.Manager;
import io.kubeloop.controller.ManagerOptions;
import io.kubeloop.controller.client.CacheOptions;
import io.kubeloop.controller.leader.LeaderElectionOptions;
import io.kubeloop.it.RecordingLogProvider.LogEvent;
import io.kubeloop.it.operator.Widget;
import io.kubeloop.it.operator.WidgetCrd;
import io.kubeloop.it.operator.WidgetReconciler;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Isolated;
import org.slf4j.event.Level;

/**
 * A manager started before the CRD of the kind it reconciles is installed, on the embedded API server: it
 * says what is wrong on the first miss, in controller-runtime's words, keeps retrying so that a CRD created
 * a moment later (as Helm and OLM create it beside the Deployment) lets it start normally, and throws a typed
 * exception naming the kind when the CRD is still missing at the cache-sync timeout — with or without leader
 * election. A create of a kind the server does not serve names the resource it posted to.
 *
 * <p>Isolated: its log capture records every thread of the JVM, so no other test class may run (and log)
 * beside it.
 */
@Isolated
@Timeout(120)
class ManagerStartIntegrationTest extends EmbeddedServerTestBase {

    private static final String MISSING = "no matches for kind \"Widget\" in version \"widgets.example.com/v1\"";
    private static final String HINT = "if kind is a CRD, it should be installed before calling Start";

    private static Manager managerWithWidgetController(
            KubeClient client, ManagerOptions options, Duration syncTimeout) {
        Manager manager = Manager.create(client, options);
        ControllerBuilder.forResource(Widget.class)
                .named("widget-controller")
                .withOptions(o -> o.cacheSyncTimeout(syncTimeout))
                .build(manager, new WidgetReconciler("replica-a"));
        return manager;
    }

    @Test
    void withoutTheCrdStartThrowsAtTheSyncTimeoutNamingTheKindAfterSayingSoOnTheFirstMiss() throws Exception {
        try (RecordingLogProvider.Capture log = RecordingLogProvider.capture();
                Manager manager =
                        managerWithWidgetController(client, ManagerOptions.defaults(), Duration.ofSeconds(3))) {
            assertThatThrownBy(manager::start)
                    .isInstanceOf(CacheSyncTimeoutException.class)
                    .hasMessage("controller widget-controller: timed out after 3s waiting for the cache of kind"
                            + " Widget.widgets.example.com to sync: " + MISSING + "; " + HINT)
                    .cause()
                    .isInstanceOf(NoMatchException.class)
                    .satisfies(cause ->
                            assertThat(((NoMatchException) cause).input()).isEqualTo("Widget.v1.widgets.example.com"));
            assertThat(manager.failure()).get().isInstanceOf(CacheSyncTimeoutException.class);
            assertThat(manager.awaitTermination(Duration.ZERO))
                    .as("the manager closed")
                    .isTrue();

            List<LogEvent> problems = warningsAndErrors(log);
            assertThat(problems).isNotEmpty();
            assertThat(problems.getFirst().level()).isEqualTo(Level.ERROR);
            assertThat(problems.getFirst().message())
                    .as("the first line says what is wrong")
                    .startsWith(HINT + ": " + MISSING + " (kind Widget.widgets.example.com;");
            assertThat(problems)
                    .as("no bare 404 is logged")
                    .noneMatch(e -> e.message().contains("404 page not found"));
        }
    }

    @Test
    void withLeaderElectionTheStartAlsoThrowsBeforeTheCandidateCompetesForTheLease() {
        ManagerOptions electing = ManagerOptions.defaults()
                .withLeaderElection(LeaderElectionOptions.defaults("default", "widget-operator", "replica-a"));
        try (Manager manager = managerWithWidgetController(client, electing, Duration.ofSeconds(2))) {
            assertThatThrownBy(manager::start)
                    .isInstanceOf(CacheSyncTimeoutException.class)
                    .hasMessageContaining(MISSING)
                    .hasCauseInstanceOf(NoMatchException.class);
            assertThat(manager.isLeader()).isFalse();
        }
        assertThatThrownBy(() -> client.resource(
                                new GroupVersionResource("coordination.k8s.io", "v1", "leases"),
                                ResourceScope.NAMESPACED,
                                DynamicObject.class)
                        .inNamespace("default")
                        .get("widget-operator"))
                .as("no Lease was taken")
                .isInstanceOf(NotFoundException.class);
    }

    @Test
    void aCrdCreatedShortlyAfterTheStartLetsTheStartSucceedAndTheControllerReconcile() throws Exception {
        try (RecordingLogProvider.Capture log = RecordingLogProvider.capture();
                Manager manager =
                        managerWithWidgetController(client, ManagerOptions.defaults(), Duration.ofSeconds(60))) {
            AtomicReference<Throwable> startFailure = new AtomicReference<>();
            Thread starting = Thread.ofVirtual().start(() -> {
                try {
                    manager.start();
                } catch (Throwable e) {
                    startFailure.set(e);
                }
            });
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> warningsAndErrors(log).stream()
                            .anyMatch(e -> e.message().startsWith(HINT)));
            assertThat(starting.isAlive()).as("still waiting for the CRD").isTrue();

            WidgetCrd.install(client);
            starting.join(Duration.ofSeconds(60));
            assertThat(starting.isAlive()).as("start returned").isFalse();
            assertThat(startFailure.get()).isNull();

            client.resource(Widget.class).inNamespace("default").create(Widget.of("default", "w", "hello"));
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                Widget w = client.resource(Widget.class).inNamespace("default").get("w");
                assertThat(w.status()).isEqualTo(new Widget.Status("hello", "replica-a"));
            });
        }
    }

    @Test
    void aCacheReadOfAKindTheServerDoesNotServeTimesOutNamingTheKind() {
        ManagerOptions options =
                ManagerOptions.defaults().withCache(CacheOptions.defaults().withSyncTimeout(Duration.ofSeconds(2)));
        try (Manager manager = Manager.create(client, options)) {
            manager.start();
            assertThatThrownBy(() -> manager.client().get(Widget.class, ObjectKey.of("default", "w")))
                    .isInstanceOf(CacheSyncTimeoutException.class)
                    .hasMessage(
                            "the cache of widgets.widgets.example.com did not sync within 2s: " + MISSING + "; " + HINT)
                    .hasCauseInstanceOf(NoMatchException.class);
        }
    }

    @Test
    void aCreateOfAKindTheServerDoesNotServeNamesTheResourceItPostedTo() {
        assertThatThrownBy(() ->
                        client.resource(Widget.class).inNamespace("default").create(Widget.of("default", "w", "hello")))
                .isInstanceOf(NotFoundException.class)
                .hasMessage("the server could not find the requested resource (post widgets.widgets.example.com)");
    }

    private static List<LogEvent> warningsAndErrors(RecordingLogProvider.Capture log) {
        return log.events().stream()
                .filter(e -> e.level() == Level.WARN || e.level() == Level.ERROR)
                .toList();
    }
}
