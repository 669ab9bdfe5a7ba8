package io.kubeloop.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.kubeloop.client.PatchType;
import io.kubeloop.controller.ControllerBuilder;
import io.kubeloop.controller.Manager;
import io.kubeloop.controller.ManagerOptions;
import io.kubeloop.controller.Result;
import io.kubeloop.controller.leader.LeaderElectionOptions;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What happens to reconciles in flight when a manager stops: they are cancelled (interrupted, and
 * their client refuses to send), a process that lost its leader lease writes nothing more, and a
 * reconcile that ignores the cancellation is left behind after the graceful shutdown timeout.
 */
@Timeout(120)
class ReconcileCancellationIntegrationTest extends EmbeddedServerTestBase {

    private static final DateTimeFormatter MICRO_TIME =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSS'Z'").withZone(ZoneOffset.UTC);

    private final List<Manager> managers = new CopyOnWriteArrayList<>();

    @AfterEach
    void closeManagers() {
        managers.forEach(Manager::close);
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

    private boolean exists(String name) {
        return client.resource(ConfigMap.class).inNamespace("default").list().items().stream()
                .anyMatch(cm -> cm.getMetadata().getName().equals(name));
    }

    /** Another holder takes the Lease for a minute, as a new leader would after a partition. */
    private void takeLease(String name) {
        client.resource("leases.coordination.k8s.io")
                .inNamespace("default")
                .patch(
                        name,
                        PatchType.MERGE,
                        "{\"spec\":{\"holderIdentity\":\"intruder\",\"leaseDurationSeconds\":60,\"renewTime\":\""
                                + MICRO_TIME.format(Instant.now()) + "\",\"acquireTime\":\""
                                + MICRO_TIME.format(Instant.now()) + "\"}}");
    }

    /**
     * A reconcile is in flight — waiting, then writing, as a naive reconciler does even when
     * interrupted — when another holder takes the lease. The manager stops with "leader election
     * lost"; the wait is interrupted, the cancellation has fired, and the write the reconciler still
     * attempts is refused before it is sent: the object never appears.
     */
    @Test
    void aProcessThatLostItsLeaseMakesNoFurtherWrites() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch proceed = new CountDownLatch(1);
        AtomicBoolean interrupted = new AtomicBoolean();
        List<Throwable> writeFailures = new CopyOnWriteArrayList<>();
        Manager a = Manager.create(
                client,
                ManagerOptions.defaults()
                        .withLeaderElection(LeaderElectionOptions.defaults("default", "writer-lock", "a")
                                .withTimings(Duration.ofSeconds(2), Duration.ofMillis(1500), Duration.ofMillis(300))));
        managers.add(a);
        ControllerBuilder.forResource(ConfigMap.class).named("writer").build(a, (request, context) -> {
            if (!request.name().equals("trigger")) {
                return Result.done();
            }
            entered.countDown();
            try {
                proceed.await(60, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                interrupted.set(true); // a naive reconciler carries on
            }
            try {
                context.client()
                        .create(new ConfigMapBuilder()
                                .withNewMetadata()
                                .withNamespace("default")
                                .withName("written-after-loss")
                                .endMetadata()
                                .build());
            } catch (RuntimeException e) {
                writeFailures.add(e);
                throw e;
            }
            return Result.done();
        });
        a.start();
        await().atMost(Duration.ofSeconds(10)).until(a::isLeader);
        createConfigMap("trigger");
        assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();

        takeLease("writer-lock");

        assertThat(a.awaitTermination(Duration.ofSeconds(20))).isTrue();
        assertThat(a.failure()).hasValueSatisfying(f -> assertThat(f).hasMessage("leader election lost"));
        proceed.countDown();
        assertThat(interrupted).as("the reconcile in flight was interrupted").isTrue();
        assertThat(writeFailures)
                .singleElement()
                .satisfies(e -> assertThat(e).isInstanceOf(CancellationException.class));
        Thread.sleep(500);
        assertThat(exists("written-after-loss")).isFalse();
    }

    /**
     * A reconcile that ignores the cancellation holds the shutdown for the graceful shutdown timeout
     * only: close returns after it, long before the reconcile would end.
     */
    @Test
    void closeWaitsForAStuckReconcileOnlyUntilTheGracefulShutdownTimeout() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        Manager m =
                Manager.create(client, ManagerOptions.defaults().withGracefulShutdownTimeout(Duration.ofSeconds(1)));
        managers.add(m);
        ControllerBuilder.forResource(ConfigMap.class).named("stuck").build(m, (request, context) -> {
            entered.countDown();
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (System.nanoTime() < end) {
                try {
                    Thread.sleep(50);
                } catch (InterruptedException ignored) {
                    // ignores interrupts and the cancellation
                }
            }
            return Result.done();
        });
        m.start();
        createConfigMap("any");
        assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();

        long start = System.nanoTime();
        m.close();
        long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

        assertThat(tookMillis)
                .as("close returns after the 1 s bound, not after the 20 s reconcile")
                .isLessThan(10_000);
        assertThat(m.awaitTermination(Duration.ZERO)).isTrue();
    }
}
