package io.kubeloop.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.ObjectAccess;
import io.kubeloop.api.ObjectKey;
import io.kubeloop.api.errors.ApiException;
import io.kubeloop.api.errors.ApiExceptions;
import io.kubeloop.api.errors.Status;
import io.kubeloop.cache.InformerOptions;
import io.kubeloop.cache.ResourceEventHandler;
import io.kubeloop.cache.SharedIndexInformer;
import io.kubeloop.cache.testing.FakeListerWatcher;
import io.kubeloop.workqueue.PriorityQueue;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A controller fed by a real informer over a {@link FakeListerWatcher}. */
@Timeout(30)
class ControllerWatchTest {

    private final FakeListerWatcher<DynamicObject> foos = FakeListerWatcher.dynamic();
    private final SharedIndexInformer<DynamicObject> informer =
            SharedIndexInformer.create(foos, InformerOptions.defaults());
    private final List<Request> reconciled = new CopyOnWriteArrayList<>();
    private Controller controller;

    @AfterEach
    void close() {
        if (controller != null) {
            controller.close();
        }
        informer.close();
    }

    static DynamicObject foo(String namespace, String name, long generation) {
        return DynamicObject.parse("{\"apiVersion\":\"samplecontroller.k8s.io/v1alpha1\",\"kind\":\"Foo\","
                + "\"metadata\":{\"namespace\":\"" + namespace + "\",\"name\":\"" + name + "\",\"generation\":"
                + generation + "},\"spec\":{\"replicas\":" + generation + "}}");
    }

    private Controller controller(ControllerOptions.Builder options) {
        controller = Controller.create(
                (request, context) -> {
                    reconciled.add(request);
                    return Result.done();
                },
                options.build());
        return controller;
    }

    @Test
    void startWaitsForTheCacheThenReconcilesEveryObjectAndEveryLaterChange() {
        foos.add(foo("default", "a", 1));
        foos.add(foo("other", "b", 1));
        controller(ControllerOptions.builder("foo"));
        controller.watch(informer, EventHandler.forObject());
        informer.start();

        controller.start();

        assertThat(informer.hasSynced()).as("start returned after the sync").isTrue();
        await().atMost(Duration.ofSeconds(10)).until(() -> reconciled.size() == 2);
        assertThat(reconciled).containsExactlyInAnyOrder(Request.of("default", "a"), Request.of("other", "b"));

        foos.modify(foo("default", "a", 2));
        await().atMost(Duration.ofSeconds(10)).until(() -> reconciled.size() == 3);
        foos.delete(new ObjectKey("other", "b"));
        await().atMost(Duration.ofSeconds(10)).until(() -> reconciled.size() == 4);
        assertThat(reconciled.subList(2, 4)).containsExactly(Request.of("default", "a"), Request.of("other", "b"));
    }

    // With the priority queue the initial list waits behind real changes
    @Test
    void withThePriorityQueueANewObjectIsReconciledBeforeTheRestOfTheInitialList() throws Exception {
        for (int i = 0; i < 20; i++) {
            foos.add(foo("default", "initial-" + i, 1));
        }
        CountDownLatch firstRunning = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        controller = Controller.create(
                (request, context) -> {
                    reconciled.add(request);
                    if (reconciled.size() == 1) {
                        firstRunning.countDown();
                        release.await(); // one worker: the queue fills up meanwhile
                    }
                    return Result.done();
                },
                ControllerOptions.builder("foo").usePriorityQueue(true).build());
        assertThat(controller.queue()).isInstanceOf(PriorityQueue.class);
        controller.watch(informer, EventHandler.forObject());
        informer.start();
        controller.start();
        assertThat(firstRunning.await(10, TimeUnit.SECONDS)).isTrue();

        await().atMost(Duration.ofSeconds(10)).until(() -> controller.queue().len() == 19);
        foos.add(foo("default", "new", 1)); // a real change, after the initial list
        await().atMost(Duration.ofSeconds(10)).until(() -> controller.queue().len() == 20);
        release.countDown();
        await().atMost(Duration.ofSeconds(10)).until(() -> reconciled.size() == 21);

        assertThat(reconciled.get(1))
                .as("the new object jumps the initial list")
                .isEqualTo(Request.of("default", "new"));
        assertThat(reconciled.subList(2, 21))
                .as("then the rest of the initial list")
                .doesNotContain(reconciled.get(0), Request.of("default", "new"))
                .doesNotHaveDuplicates()
                .hasSize(19);
    }

    @Test
    void aGenerationChangedFilterDropsStatusOnlyUpdates() {
        foos.add(foo("default", "a", 1));
        controller(ControllerOptions.builder("foo"));
        controller.watch(informer, EventHandler.forObject(), Predicates.generationChanged());
        informer.start();
        controller.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> reconciled.size() == 1);

        DynamicObject statusOnly = DynamicObject.parse("{\"apiVersion\":\"samplecontroller.k8s.io/v1alpha1\","
                + "\"kind\":\"Foo\",\"metadata\":{\"namespace\":\"default\",\"name\":\"a\",\"generation\":1},"
                + "\"spec\":{\"replicas\":1},\"status\":{\"availableReplicas\":1}}");
        String statusVersion = foos.modify(statusOnly).metadata().resourceVersion();
        await().atMost(Duration.ofSeconds(10)).until(() -> statusVersion.equals(informer.lastSyncResourceVersion()));
        // without the filter the update is reconciled within milliseconds; give it 300
        await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(5)).until(() -> reconciled.size() == 1);

        foos.modify(foo("default", "a", 2)); // a spec change
        await().atMost(Duration.ofSeconds(10)).until(() -> reconciled.size() == 2);
    }

    @Test
    void filtersGetTheInformersVerdictWhetherAnUpdateLeftTheResourceVersionUnchanged() {
        record Seen(String before, String after, boolean unchanged) {}
        SharedIndexInformer<DynamicObject> resyncing = SharedIndexInformer.create(
                foos,
                InformerOptions.builder().resyncPeriod(Duration.ofSeconds(1)).build());
        try {
            foos.add(foo("default", "a", 1));
            List<Seen> updates = new CopyOnWriteArrayList<>();
            controller(ControllerOptions.builder("foo"));
            controller.watch(resyncing, EventHandler.forObject(), event -> {
                if (event instanceof Event.Update<DynamicObject> u) {
                    updates.add(new Seen(
                            ObjectAccess.resourceVersion(u.oldObject()),
                            ObjectAccess.resourceVersion(u.newObject()),
                            u.unchanged()));
                }
                return true;
            });
            resyncing.start();
            controller.start();
            await().atMost(Duration.ofSeconds(10)).until(() -> !updates.isEmpty()); // a resync
            String version = foos.modify(foo("default", "a", 2)).metadata().resourceVersion();
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> updates.stream().anyMatch(u -> u.after().equals(version)));

            assertThat(updates.getFirst().unchanged()).as("a resync").isTrue();
            assertThat(updates)
                    .as("unchanged exactly when the versions are equal")
                    .allMatch(u -> u.unchanged() == u.before().equals(u.after()))
                    .anyMatch(u -> !u.unchanged());
        } finally {
            resyncing.close();
        }
    }

    @Test
    void startFailsAtOnceNamingTheRefusalWhenTheServerForbidsTheList() {
        ApiException forbidden = ApiExceptions.from(Status.failure(
                403,
                "Forbidden",
                "foos.samplecontroller.k8s.io is forbidden: User \"system:serviceaccount:ns:op\" cannot list resource"
                        + " \"foos\" in API group \"samplecontroller.k8s.io\" at the cluster scope"));
        for (int i = 0; i < 5; i++) {
            foos.failNextList(forbidden); // refused for several back-offs, seconds in all
        }
        controller(ControllerOptions.builder("foo").cacheSyncTimeout(Duration.ofMinutes(10)));
        controller.watch(informer, EventHandler.forObject());
        informer.start();

        assertThatThrownBy(controller::start)
                .as("long before the ten-minute cache-sync timeout (the class times out after 30 s)")
                .isInstanceOf(CacheAccessDeniedException.class)
                .hasMessageStartingWith("controller foo: the informer ")
                .hasMessageContaining("may not list or watch")
                .hasMessageContaining("cannot list resource \"foos\"")
                .hasCause(forbidden);
        assertThat(controller.queue().isShuttingDown())
                .as("the controller stopped")
                .isTrue();
    }

    @Test
    void startGivesUpWithAClearErrorWhenTheInformerNeverSyncs() {
        controller(ControllerOptions.builder("foo").cacheSyncTimeout(Duration.ofMillis(200)));
        controller.watch(informer, EventHandler.forObject());
        // the informer is never started

        assertThatThrownBy(controller::start)
                .isInstanceOf(CacheSyncTimeoutException.class)
                .hasMessageStartingWith(
                        "controller foo: caches did not sync within 200ms (is the informer started, and can it list?)");
        assertThat(controller.queue().isShuttingDown())
                .as("the controller stopped")
                .isTrue();
        assertThatThrownBy(controller::start)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("has stopped");
    }

    @Test
    void aWatchAddedToARunningControllerDeliversTheInformersObjectsThenItsChanges() {
        foos.add(foo("default", "a", 1));
        controller(ControllerOptions.builder("foo"));
        controller.start(); // no watches: the workers start at once

        controller.watch(informer, EventHandler.forObject());
        informer.start();

        await().atMost(Duration.ofSeconds(10)).until(() -> reconciled.contains(Request.of("default", "a")));
        foos.add(foo("default", "b", 1));
        await().atMost(Duration.ofSeconds(10)).until(() -> reconciled.contains(Request.of("default", "b")));
    }

    @Test
    void aClosedControllerRefusesWatches() {
        controller(ControllerOptions.builder("foo"));
        controller.start();
        controller.close();
        assertThatThrownBy(() -> controller.watch(informer, EventHandler.forObject()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("controller foo has stopped: it watches nothing more");
    }

    @Test
    void closeRemovesTheControllersHandlerFromTheSharedInformer() {
        foos.add(foo("default", "a", 1));
        controller(ControllerOptions.builder("foo"));
        controller.watch(informer, EventHandler.forObject());
        List<String> otherHandler = new CopyOnWriteArrayList<>();
        informer.addEventHandler(new ResourceEventHandler<>() {
            @Override
            public void onUpdate(DynamicObject oldObject, DynamicObject newObject) {
                otherHandler.add(newObject.metadata().name());
            }
        });
        informer.start();
        controller.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> reconciled.size() == 1);

        controller.close();
        foos.modify(foo("default", "a", 2));

        await().atMost(Duration.ofSeconds(10)).until(() -> otherHandler.size() == 1);
        assertThat(informer.isStopped())
                .as("the informer is the caller's and keeps running")
                .isFalse();
        assertThat(reconciled).hasSize(1);
    }
}
