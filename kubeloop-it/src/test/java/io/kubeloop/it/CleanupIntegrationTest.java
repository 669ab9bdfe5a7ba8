package io.kubeloop.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.kubeloop.api.ObjectAccess;
import io.kubeloop.api.errors.NotFoundException;
import io.kubeloop.client.PatchType;
import io.kubeloop.client.ResourceClient;
import io.kubeloop.controller.Cleaner;
import io.kubeloop.controller.Controller;
import io.kubeloop.controller.ControllerBuilder;
import io.kubeloop.controller.Event.Create;
import io.kubeloop.controller.Event.Delete;
import io.kubeloop.controller.Event.Generic;
import io.kubeloop.controller.Event.Update;
import io.kubeloop.controller.Manager;
import io.kubeloop.controller.ManagerOptions;
import io.kubeloop.controller.Predicates;
import io.kubeloop.controller.Reconciler;
import io.kubeloop.controller.Request;
import io.kubeloop.controller.Result;
import io.kubeloop.controller.client.ByObject;
import io.kubeloop.controller.client.CacheOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code ControllerBuilder.withCleanup}: the finalizer a controller manages for its reconciler,
 * against the embedded API server — added before the reconciler's first write, the cleanup run on
 * deletion until it succeeds (across a restart), the finalizer removed only then.
 */
@Timeout(120)
class CleanupIntegrationTest extends EmbeddedServerTestBase {

    private static final String FINALIZER = "example.com/cleanup";

    private final List<Manager> managers = new ArrayList<>();
    /** What the reconciler saw: the finalizers the server held for the object when it ran. */
    private final List<List<String>> finalizersSeen = new CopyOnWriteArrayList<>();

    /** Objects the reconciler found being deleted in the cache: none, the cleanup takes those. */
    private final List<String> terminatingSeen = new CopyOnWriteArrayList<>();

    private final List<Request> reconciled = new CopyOnWriteArrayList<>();
    private final List<String> cleaned = new CopyOnWriteArrayList<>();

    @AfterEach
    void closeManagers() {
        managers.forEach(Manager::close);
    }

    private ResourceClient<ConfigMap> configMaps() {
        return client.resource(ConfigMap.class).inNamespace("default");
    }

    private Controller start(Cleaner<ConfigMap> cleaner) {
        Manager manager = Manager.create(client);
        managers.add(manager);
        Reconciler reconciler = (request, context) -> {
            reconciled.add(request);
            context.client()
                    .getOptional(ConfigMap.class, request.key())
                    .filter(cm -> ObjectAccess.metadata(cm).isTerminating())
                    .ifPresent(cm -> terminatingSeen.add(request.name()));
            Optional<ConfigMap> live = Optional.empty();
            try {
                live = Optional.of(manager.apiReader().get(ConfigMap.class, request.key()));
            } catch (NotFoundException gone) {
                // deleted: nothing to see
            }
            live.ifPresent(cm -> finalizersSeen.add(ObjectAccess.metadata(cm).finalizersOrEmpty()));
            return Result.done();
        };
        Controller controller = ControllerBuilder.forResource(ConfigMap.class)
                .withEventFilter(e -> "guarded"
                        .equals(ObjectAccess.labels(
                                        switch (e) {
                                            case Create<?> c -> c.object();
                                            case Update<?> u -> u.newObject();
                                            case Delete<?> d -> d.object();
                                            case Generic<?> g -> g.object();
                                        })
                                .get("role")))
                .withCleanup(FINALIZER, cleaner)
                .build(manager, reconciler);
        manager.start();
        return controller;
    }

    private ConfigMap create(String name, String... finalizers) {
        return configMaps()
                .create(new ConfigMapBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .addToLabels("role", "guarded")
                        .withFinalizers(finalizers)
                        .endMetadata()
                        .build());
    }

    private boolean gone(String name) {
        try {
            configMaps().get(name);
            return false;
        } catch (NotFoundException e) {
            return true;
        }
    }

    private final Cleaner<ConfigMap> succeeding = (cm, context) -> {
        cleaned.add(cm.getMetadata().getName());
        return Result.done();
    };

    @Test
    void theFinalizerIsOnTheServerBeforeTheReconcilerRuns() {
        start(succeeding);
        create("a");

        await().atMost(Duration.ofSeconds(20)).until(() -> !finalizersSeen.isEmpty());
        assertThat(finalizersSeen).allSatisfy(f -> assertThat(f).contains(FINALIZER));
        assertThat(configMaps().get("a").getMetadata().getFinalizers()).containsExactly(FINALIZER);
    }

    @Test
    void aDeletionRunsTheCleanupOnceAndNotTheReconcilerThenTheObjectGoes() {
        start(succeeding);
        create("a");
        await().atMost(Duration.ofSeconds(20))
                .until(() -> configMaps().get("a").getMetadata().getFinalizers().contains(FINALIZER));
        configMaps().delete("a");

        await().atMost(Duration.ofSeconds(20)).until(() -> gone("a"));
        assertThat(cleaned).containsExactly("a");
        assertThat(terminatingSeen)
                .as("the reconciler never ran for the object being deleted")
                .isEmpty();
    }

    @Test
    void aFailingCleanupIsRetriedAndTheFinalizerStaysUntilItSucceeds() {
        AtomicInteger attempts = new AtomicInteger();
        List<List<String>> finalizersWhileFailing = new CopyOnWriteArrayList<>();
        start((cm, context) -> {
            if (attempts.incrementAndGet() < 3) {
                finalizersWhileFailing.add(configMaps().get("a").getMetadata().getFinalizers());
                throw new IllegalStateException("the external resource is busy");
            }
            return Result.done();
        });
        create("a");
        await().atMost(Duration.ofSeconds(20))
                .until(() -> configMaps().get("a").getMetadata().getFinalizers().contains(FINALIZER));

        configMaps().delete("a");

        await().atMost(Duration.ofSeconds(30)).until(() -> gone("a"));
        assertThat(attempts.get()).isEqualTo(3);
        assertThat(finalizersWhileFailing)
                .hasSize(2)
                .allSatisfy(f -> assertThat(f).containsExactly(FINALIZER));
    }

    @Test
    void aCleanupUnderWayKeepsTheFinalizerAndIsCalledAgainAsItsResultSays() {
        AtomicInteger attempts = new AtomicInteger();
        start((cm, context) ->
                attempts.incrementAndGet() < 3 ? Result.requeueAfter(Duration.ofMillis(100)) : Result.done());
        create("a");
        await().atMost(Duration.ofSeconds(20))
                .until(() -> configMaps().get("a").getMetadata().getFinalizers().contains(FINALIZER));

        configMaps().delete("a");

        await().atMost(Duration.ofSeconds(30)).until(() -> gone("a"));
        assertThat(attempts.get()).isEqualTo(3);
    }

    @Test
    void aCleanupThatNeverSucceededRunsAfterTheManagerRestarts() {
        AtomicInteger failed = new AtomicInteger();
        start((cm, context) -> {
            failed.incrementAndGet();
            throw new IllegalStateException("crash before the cleanup finished");
        });
        create("a");
        await().atMost(Duration.ofSeconds(20))
                .until(() -> configMaps().get("a").getMetadata().getFinalizers().contains(FINALIZER));
        configMaps().delete("a");
        await().atMost(Duration.ofSeconds(20)).until(() -> failed.get() >= 1);

        managers.removeFirst().close(); // the process goes away with the cleanup not done
        ConfigMap held = configMaps().get("a");
        assertThat(ObjectAccess.metadata(held).isTerminating()).isTrue();
        assertThat(held.getMetadata().getFinalizers()).containsExactly(FINALIZER);

        start(succeeding); // the next process
        await().atMost(Duration.ofSeconds(20)).until(() -> gone("a"));
        assertThat(cleaned).containsExactly("a");
    }

    @Test
    void aNewObjectReachesTheReconcilerWithItsFinalizerEvenBehindAGenerationFilter() {
        List<Throwable> writeFailures = new CopyOnWriteArrayList<>();
        // the cache learns of the finalizer late (as over a slow watch): a reconciler run right after
        // the finalizer's patch would read the object without it, and its guarded write would conflict
        Manager manager = Manager.create(
                client,
                ManagerOptions.defaults()
                        .withCache(CacheOptions.defaults()
                                .with(ByObject.of(ConfigMap.class).withTransform(cm -> {
                                    List<String> f = cm.getMetadata().getFinalizers();
                                    if (f != null && f.contains(FINALIZER)) {
                                        LockSupport.parkNanos(
                                                Duration.ofMillis(300).toNanos());
                                    }
                                    return cm;
                                }))));
        managers.add(manager);
        ControllerBuilder.forResource(ConfigMap.class)
                .withPredicate(Predicates.generationChanged()) // a finalizer changes no generation
                .withCleanup(FINALIZER, succeeding)
                .build(manager, (request, context) -> {
                    Optional<ConfigMap> cm = context.client().getOptional(ConfigMap.class, request.key());
                    if (cm.isPresent()
                            && !"yes".equals(cm.get().getMetadata().getLabels().get("seen"))) {
                        ConfigMap seen = cm.get();
                        seen.getMetadata().getLabels().put("seen", "yes");
                        try {
                            context.client().update(seen); // guarded by the resourceVersion read
                        } catch (RuntimeException e) {
                            writeFailures.add(e);
                            throw e;
                        }
                    }
                    return Result.done();
                });
        manager.start();

        create("a");

        await().atMost(Duration.ofSeconds(20))
                .until(() -> "yes"
                        .equals(configMaps().get("a").getMetadata().getLabels().get("seen")));
        assertThat(configMaps().get("a").getMetadata().getFinalizers()).containsExactly(FINALIZER);
        assertThat(writeFailures)
                .as("the reconciler read the object after the finalizer's write, not before it")
                .isEmpty();
    }

    @Test
    void anObjectBeingDeletedWithoutTheFinalizerIsNotReconciled() {
        create("held-by-another", "other.example.com/keep");
        configMaps().delete("held-by-another"); // terminating before the controller ever saw it
        create("live");

        Controller controller = start(succeeding);
        await().atMost(Duration.ofSeconds(20)).until(() -> reconciled.contains(Request.of("default", "live")));
        // one worker, one queue: once "live" is reconciled again, "held-by-another" went before it
        controller.queue().add(Request.of("default", "held-by-another"));
        controller.queue().add(Request.of("default", "live"));
        await().atMost(Duration.ofSeconds(20))
                .until(() ->
                        reconciled.stream().filter(r -> r.name().equals("live")).count() >= 2);

        assertThat(reconciled).doesNotContain(Request.of("default", "held-by-another"));
        assertThat(cleaned).isEmpty();
        assertThat(configMaps().get("held-by-another").getMetadata().getFinalizers())
                .containsExactly("other.example.com/keep");
    }

    @Test
    void aCleanupOfAnObjectThatIsGoneBeforeItsFinalizerIsRemovedEndsWithoutAnError() {
        // A cleanup can run on a cached copy of an object whose deletion has completed meanwhile (the cache is
        // behind the server): removing the finalizer then finds no object, which is what the removal was for.
        AtomicInteger reconciledBefore = new AtomicInteger(-1);
        Controller controller = start((cm, context) -> {
            String name = cm.getMetadata().getName();
            configMaps().patch(name, PatchType.MERGE, "{\"metadata\":{\"finalizers\":null}}"); // gone now
            cleaned.add(name);
            reconciledBefore.set(reconciled.size());
            return Result.done();
        });
        create("a");
        await().atMost(Duration.ofSeconds(20))
                .until(() -> configMaps().get("a").getMetadata().getFinalizers().contains(FINALIZER));

        configMaps().delete("a");

        await().atMost(Duration.ofSeconds(20)).until(() -> gone("a"));
        // the deletion's event reconciles "a" once more, after the cleanup's reconcile has ended
        await().atMost(Duration.ofSeconds(20))
                .until(() -> reconciledBefore.get() >= 0 && reconciled.size() > reconciledBefore.get());
        assertThat(cleaned).containsExactly("a");
        assertThat(managers.getFirst()
                        .meterRegistry()
                        .get("controller_runtime.reconcile_errors")
                        .tag("controller", controller.name())
                        .counter()
                        .count())
                .as("reconcile errors")
                .isZero();
    }
}
