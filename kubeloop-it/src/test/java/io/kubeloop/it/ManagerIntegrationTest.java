package io.kubeloop.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.GroupVersionResource;
import io.kubeloop.api.ResourceScope;
import io.kubeloop.apiserver.EmbeddedApiServer;
import io.kubeloop.controller.ControllerBuilder;
import io.kubeloop.controller.Manager;
import io.kubeloop.controller.ManagerOptions;
import io.kubeloop.controller.ReconcileContext;
import io.kubeloop.controller.Request;
import io.kubeloop.controller.Result;
import io.kubeloop.controller.leader.LeaderElectionOptions;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Managers against the embedded API server: controllers over shared informers, and leader-only controllers. */
@Timeout(120)
class ManagerIntegrationTest extends EmbeddedServerTestBase {

    private final List<Manager> managers = new CopyOnWriteArrayList<>();
    private final List<String> reconciled = new CopyOnWriteArrayList<>();

    @AfterEach
    void closeManagers() {
        managers.forEach(Manager::close);
    }

    private Manager manager(String id, ManagerOptions options) {
        Manager m = Manager.create(client, options);
        m.add(ControllerBuilder.forResource(ConfigMap.class)
                .build(m.informers(), (Request r, ReconcileContext context) -> {
                    reconciled.add(id + ":" + r.name());
                    return Result.done();
                }));
        managers.add(m);
        return m;
    }

    private static LeaderElectionOptions election(String id) {
        return LeaderElectionOptions.defaults("default", "configmap-controller", id)
                .withTimings(Duration.ofSeconds(2), Duration.ofMillis(1500), Duration.ofMillis(300));
    }

    private void createConfigMap(String name) {
        client.resource(ConfigMap.class)
                .inNamespace("default")
                .create(new ConfigMapBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .endMetadata()
                        .build());
    }

    /**
     * kubeloop-it has no Prometheus registry, so the manager keeps its metrics in memory. The work
     * queue's client-go buckets start at 10 ns, which an in-memory registry's per-bucket gauges name
     * "le=0" twice (and Micrometer warns at start-up); it keeps the timers and leaves those gauges out.
     */
    @Test
    void withoutPrometheusTheQueueTimersAreKeptInMemoryWithoutPerBucketGauges() {
        Manager m = Manager.create(client);
        managers.add(m);
        ControllerBuilder.forResource(ConfigMap.class)
                .named("in-memory")
                .build(m, (Request r, ReconcileContext context) -> Result.done());

        assertThat(m.meterRegistry()
                        .find("workqueue.queue.duration")
                        .tag("name", "in-memory")
                        .timer())
                .isNotNull();
        assertThat(m.meterRegistry().find("workqueue.queue.duration.histogram").gauges())
                .isEmpty();
    }

    @Test
    void withoutLeaderElectionTheControllersRunAtOnceAndCloseEndsThem() throws Exception {
        Manager m = manager("solo", ManagerOptions.defaults());
        m.start();
        createConfigMap("one");
        await().atMost(Duration.ofSeconds(20)).until(() -> reconciled.contains("solo:one"));
        assertThat(m.isLeader()).isTrue();

        m.close();
        assertThat(m.awaitTermination(Duration.ofSeconds(10))).isTrue();
        assertThat(m.failure()).isEmpty();
    }

    @Test
    void onlyTheLeadersControllersRunAndAnotherManagerTakesOverWhenTheLeaderStops() throws Exception {
        Manager a = manager("a", ManagerOptions.defaults().withLeaderElection(election("a")));
        a.start();
        await().atMost(Duration.ofSeconds(10)).until(a::isLeader);
        Manager b = manager("b", ManagerOptions.defaults().withLeaderElection(election("b")));
        b.start();

        createConfigMap("first");
        await().atMost(Duration.ofSeconds(20)).until(() -> reconciled.contains("a:first"));
        Thread.sleep(1_000);
        assertThat(reconciled).as("b only watches").noneMatch(r -> r.startsWith("b:"));
        assertThat(b.isLeader()).isFalse();

        a.close();
        await().atMost(Duration.ofSeconds(20)).until(b::isLeader);
        createConfigMap("second");
        await().atMost(Duration.ofSeconds(20)).until(() -> reconciled.contains("b:second"));
        assertThat(reconciled)
                .as("b's caches were warm: it reconciled what existed too")
                .contains("b:first");
    }

    @Test
    void closingALeaderThatReleasesOnStopHandsTheLeaseBackBeforeCloseReturns() throws Exception {
        Manager a = manager(
                "a", ManagerOptions.defaults().withLeaderElection(election("a").withReleaseOnStop(true)));
        a.start();
        await().atMost(Duration.ofSeconds(10)).until(a::isLeader);
        assertThat(leaseHolder()).isEqualTo("a");

        a.close();

        assertThat(leaseHolder())
                .as("released when close() returned, not later")
                .isEmpty();
        assertThat(a.isLeader()).isFalse();
    }

    private String leaseHolder() {
        return client.resource(
                        new GroupVersionResource("coordination.k8s.io", "v1", "leases"),
                        ResourceScope.NAMESPACED,
                        DynamicObject.class)
                .inNamespace("default")
                .get("configmap-controller")
                .node()
                .path("spec")
                .path("holderIdentity")
                .asString();
    }

    @Test
    void aControllerStoppedByAnUnrecoveredErrorStopsTheManagerWithThatFailure() throws Exception {
        AssertionError bug = new AssertionError("a bug in the reconciler");
        Manager m = Manager.create(client);
        managers.add(m);
        m.add(ControllerBuilder.forResource(ConfigMap.class)
                .named("failing")
                .withOptions(o -> o.recoverPanic(false))
                .build(m.informers(), (Request r, ReconcileContext context) -> {
                    throw bug;
                }));
        m.start();
        createConfigMap("trigger");

        assertThat(m.awaitTermination(Duration.ofSeconds(20))).isTrue();
        assertThat(m.failure()).containsSame(bug);
    }

    @Test
    void aLeaderCutOffFromTheServerStopsWithLeaderElectionLost() throws Exception {
        Manager a = manager("a", ManagerOptions.defaults().withLeaderElection(election("a")));
        a.start();
        await().atMost(Duration.ofSeconds(10)).until(a::isLeader);

        server.close();

        assertThat(a.awaitTermination(Duration.ofSeconds(20))).isTrue();
        assertThat(a.failure()).hasValueSatisfying(f -> assertThat(f).hasMessage("leader election lost"));
        server = EmbeddedApiServer.start(); // for the teardown
    }
}
