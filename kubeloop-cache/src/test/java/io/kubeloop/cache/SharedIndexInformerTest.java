package io.kubeloop.cache;

import static io.kubeloop.cache.TestObjects.pod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.KubernetesObject;
import io.kubeloop.api.ManagedFieldsEntry;
import io.kubeloop.api.ObjectKey;
import io.kubeloop.api.ObjectMeta;
import io.kubeloop.api.errors.ApiException;
import io.kubeloop.api.errors.ApiExceptions;
import io.kubeloop.api.errors.Status;
import io.kubeloop.cache.testing.FakeListerWatcher;
import io.kubeloop.time.testing.FakeTicker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import tools.jackson.databind.node.ObjectNode;

/** Matrix lines 29–36 (informer), with both queues where they differ. */
class SharedIndexInformerTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    private final FakeTicker ticker = new FakeTicker();
    private final FakeListerWatcher<DynamicObject> fake = FakeListerWatcher.dynamic();
    private final List<SharedIndexInformer<?>> informers = new ArrayList<>();

    private SharedIndexInformer<DynamicObject> informer(InformerOptions.Queue queue, Duration resync) {
        SharedIndexInformer<DynamicObject> i = SharedIndexInformer.create(
                fake,
                InformerOptions.builder()
                        .queue(queue)
                        .resyncPeriod(resync)
                        .reflector(ReflectorOptions.builder()
                                .name("pods")
                                .ticker(ticker)
                                .useWatchList(false)
                                .build())
                        .build());
        informers.add(i);
        return i;
    }

    private SharedIndexInformer<DynamicObject> informer() {
        return informer(InformerOptions.Queue.REAL_FIFO, Duration.ZERO);
    }

    @AfterEach
    void closeAll() {
        informers.forEach(SharedIndexInformer::close);
    }

    private static void sync(SharedIndexInformer<?> i) {
        i.start();
        assertThat(i.waitForCacheSync(WAIT)).isTrue();
    }

    /**
     * Syncs {@code i} and waits for its watch to be open. A sync only says the list is in: a
     * {@code setSilently} (which compacts the history) before the watch opens makes that watch fail
     * with 410 and the reflector back off on the fake clock, and a {@code forceGone} before it opens
     * ends nothing — both left {@link #relist} waiting (races lost on a fast machine).
     */
    private void syncAndWatch(SharedIndexInformer<?> i) {
        sync(i);
        await().atMost(WAIT).until(() -> fake.openWatches() == 1);
    }

    /** Ends the open watch with 410 and lets the reflector's back-off pass: it relists. */
    private void relist() {
        assertThat(fake.openWatches()).as("a watch to end").isEqualTo(1);
        int lists = fake.listRequests().size();
        int sleeps = ticker.sleeps().size();
        fake.forceGone();
        await().atMost(WAIT)
                .until(() -> ticker.sleeps().size() > sleeps
                        && ticker.sleeps().subList(sleeps, ticker.sleeps().size()).stream()
                                .anyMatch(d -> d.toSeconds() < 2));
        ticker.step(Duration.ofSeconds(2));
        await().atMost(WAIT).until(() -> fake.listRequests().size() > lists && fake.openWatches() == 1);
    }

    @Test
    void earlyHandlersGetTheFirstListFlaggedInitialAndLaterObjectsNot() {
        fake.add(pod("ns", "a"));
        SharedIndexInformer<DynamicObject> i = informer();
        RecordingHandler h = new RecordingHandler();
        ResourceEventHandlerRegistration reg = i.addEventHandler(h);
        sync(i);
        await().atMost(WAIT).until(reg::hasSynced);
        fake.add(pod("ns", "b"));
        await().atMost(WAIT).until(() -> h.events.size() == 2);
        assertThat(h.events).containsExactly("add a@2 initial", "add b@3");
        assertThat(i.indexer().listKeys()).containsExactlyInAnyOrder(ObjectKey.of("ns", "a"), ObjectKey.of("ns", "b"));
        assertThat(i.lastSyncResourceVersion()).isEqualTo("3");
    }

    @Test
    void aLateHandlerGetsInitialAddsAndItsRegistrationSyncsOnlyAfterThemWhileTheInformerAlreadyHas() throws Exception {
        fake.add(pod("ns", "a"));
        fake.add(pod("ns", "b"));
        SharedIndexInformer<DynamicObject> i = informer();
        sync(i);
        RecordingHandler late = new RecordingHandler().blocked();
        ResourceEventHandlerRegistration reg = i.addEventHandler(late);
        assertThat(late.entered.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(i.hasSynced()).isTrue();
        assertThat(reg.hasSynced()).isFalse();
        late.release();
        await().atMost(WAIT).until(reg::hasSynced);
        assertThat(late.events).containsExactlyInAnyOrder("add a@2 initial", "add b@3 initial");
    }

    @ParameterizedTest
    @EnumSource(InformerOptions.Queue.class)
    void aRelistUpdatesCachedKeysAndAddsUnknownOnes(InformerOptions.Queue queue) {
        fake.add(pod("ns", "a"));
        SharedIndexInformer<DynamicObject> i = informer(queue, Duration.ZERO);
        RecordingHandler h = new RecordingHandler();
        i.addEventHandler(h);
        syncAndWatch(i);
        fake.setSilently(List.of(pod("ns", "a"), pod("ns", "b")));
        relist();
        await().atMost(WAIT).until(() -> h.events.size() == 3);
        assertThat(h.events).containsExactly("add a@2 initial", "update a@2->a@3", "add b@3");
    }

    @ParameterizedTest
    @EnumSource(InformerOptions.Queue.class)
    void aDeletionFoundByARelistIsATombstoneDelete(InformerOptions.Queue queue) {
        fake.add(pod("ns", "a"));
        SharedIndexInformer<DynamicObject> i = informer(queue, Duration.ZERO);
        RecordingHandler h = new RecordingHandler();
        i.addEventHandler(h);
        syncAndWatch(i);
        fake.setSilently(List.of());
        relist();
        await().atMost(WAIT).until(() -> h.events.size() == 2);
        assertThat(h.events).containsExactly("add a@2 initial", "delete a@2 tombstone");
        assertThat(i.indexer().list()).isEmpty();
    }

    @Test
    void withoutInformerResyncEveryHandlerGetsUnchangedRelistUpdates() {
        fake.add(pod("ns", "a"));
        SharedIndexInformer<DynamicObject> i = informer();
        RecordingHandler h = new RecordingHandler();
        i.addEventHandler(h);
        syncAndWatch(i);
        relist();
        await().atMost(WAIT).until(() -> h.events.size() == 2);
        assertThat(h.events).containsExactly("add a@2 initial", "update a@2->a@2");
    }

    @Test
    void handlersGetTheInformersVerdictWhetherAnUpdateLeftTheResourceVersionUnchanged() {
        fake.add(pod("ns", "a"));
        SharedIndexInformer<DynamicObject> i = informer();
        List<String> updates = new CopyOnWriteArrayList<>();
        i.addEventHandler(new ResourceEventHandler<>() {
            @Override
            public void onUpdate(DynamicObject oldObject, DynamicObject newObject, boolean unchanged) {
                updates.add(RecordingHandler.id(oldObject) + "->" + RecordingHandler.id(newObject)
                        + (unchanged ? " unchanged" : " changed"));
            }
        });
        syncAndWatch(i);
        relist(); // the same object again
        await().atMost(WAIT).until(() -> updates.size() == 1);
        fake.modify(pod("ns", "a"));
        await().atMost(WAIT).until(() -> updates.size() == 2);
        assertThat(updates).containsExactly("a@2->a@2 unchanged", "a@2->a@3 changed");
    }

    @Test
    void unchangedUpdatesGoOnlyToHandlersFlaggedDueAtTheLastResyncTick() {
        fake.add(pod("ns", "a"));
        SharedIndexInformer<DynamicObject> i = informer(InformerOptions.Queue.REAL_FIFO, Duration.ofSeconds(30));
        RecordingHandler due = new RecordingHandler();
        RecordingHandler never = new RecordingHandler();
        i.addEventHandler(due, Duration.ofSeconds(30));
        i.addEventHandler(never, Duration.ZERO);
        syncAndWatch(i);
        ticker.awaitWaiters(1); // the resync timer
        ticker.step(Duration.ofSeconds(30));
        await().atMost(WAIT).until(() -> due.events.size() == 2);
        assertThat(due.events).containsExactly("add a@2 initial", "update a@2->a@2");
        relist(); // unchanged objects: a sync, routed by the flags of the last tick
        await().atMost(WAIT).until(() -> due.events.size() == 3);
        fake.add(pod("ns", "b")); // a real change reaches everyone; it also fences the check below
        await().atMost(WAIT).until(() -> never.events.size() == 2);
        assertThat(never.events).containsExactly("add a@2 initial", "add b@3");
    }

    @Test
    void resyncPeriodsFollowClientGosRules() {
        SharedIndexInformer<DynamicObject> a = informer(InformerOptions.Queue.REAL_FIFO, Duration.ofSeconds(30));
        ResourceEventHandlerRegistration tiny = a.addEventHandler(new RecordingHandler(), Duration.ofMillis(200));
        assertThat(tiny.resyncPeriod()).isEqualTo(Duration.ofSeconds(1)); // and the check period became 1 s
        ResourceEventHandlerRegistration dflt = a.addEventHandler(new RecordingHandler());
        assertThat(dflt.resyncPeriod()).isEqualTo(Duration.ofSeconds(30));

        SharedIndexInformer<DynamicObject> b = informer(InformerOptions.Queue.REAL_FIFO, Duration.ofSeconds(30));
        sync(b);
        assertThat(b.addEventHandler(new RecordingHandler(), Duration.ofSeconds(5))
                        .resyncPeriod())
                .isEqualTo(Duration.ofSeconds(30));
        assertThat(b.addEventHandler(new RecordingHandler(), Duration.ofMinutes(2))
                        .resyncPeriod())
                .isEqualTo(Duration.ofMinutes(2));

        fake.add(pod("ns", "a"));
        SharedIndexInformer<DynamicObject> none = informer(InformerOptions.Queue.REAL_FIFO, Duration.ZERO);
        RecordingHandler h = new RecordingHandler();
        ResourceEventHandlerRegistration asks = none.addEventHandler(h, Duration.ofSeconds(10));
        assertThat(asks.resyncPeriod()).isZero();
        sync(none);
        await().atMost(WAIT).until(() -> h.events.size() == 1);
        ticker.step(Duration.ofMinutes(10));
        fake.add(pod("ns", "z"));
        await().atMost(WAIT).until(() -> h.events.size() == 2);
        assertThat(h.events).containsExactly("add a@2 initial", "add z@3");
    }

    @Test
    void aBlockedHandlerDelaysNoOtherAndGetsItsBacklogInOrderLater() {
        SharedIndexInformer<DynamicObject> i = informer();
        RecordingHandler slow = new RecordingHandler().blocked();
        RecordingHandler fast = new RecordingHandler();
        i.addEventHandler(slow);
        i.addEventHandler(fast);
        sync(i);
        for (int n = 0; n < 5; n++) {
            fake.add(pod("ns", "p" + n));
        }
        await().atMost(WAIT).until(() -> fast.events.size() == 5);
        assertThat(slow.events).isEmpty();
        assertThat(i.indexer().size()).isEqualTo(5);
        slow.release();
        await().atMost(WAIT).until(() -> slow.events.size() == 5);
        assertThat(slow.events).isEqualTo(fast.events);
    }

    @Test
    void removingTwiceIsFineAndAfterShutDownNoCallbackRuns() {
        SharedIndexInformer<DynamicObject> i = informer();
        RecordingHandler h = new RecordingHandler();
        RecordingHandler witness = new RecordingHandler();
        ResourceEventHandlerRegistration reg = i.addEventHandler(h);
        i.addEventHandler(witness);
        sync(i);
        fake.add(pod("ns", "a"));
        await().atMost(WAIT).until(() -> h.events.size() == 1);
        i.removeEventHandler(reg);
        i.removeEventHandler(reg);
        i.shutDownEventHandler(reg);
        fake.add(pod("ns", "b"));
        await().atMost(WAIT).until(() -> witness.events.size() == 2);
        assertThat(h.events).containsExactly("add a@2");
    }

    @Test
    void transformCannotBeSetAfterStartAndTheCacheHoldsTransformedObjects() {
        fake.add(DynamicObject.parse(
                "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"a\",\"namespace\":\"ns\","
                        + "\"managedFields\":[{\"manager\":\"kubectl\",\"operation\":\"Apply\"}]}}"));
        SharedIndexInformer<DynamicObject> i = informer();
        i.setTransform(Transforms.stripManagedFields());
        sync(i);
        assertThatThrownBy(() -> i.setTransform(o -> o))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("already started");
        assertThatThrownBy(() -> i.setWatchErrorHandler((r, e) -> {})).isInstanceOf(IllegalStateException.class);
        DynamicObject cached = i.indexer().getByKey(ObjectKey.of("ns", "a")).orElseThrow();
        assertThat(cached.node().get("metadata").has("managedFields")).isFalse();
    }

    @Test
    void aThrowingHandlerIsCountedAndStopsNothing() {
        SharedIndexInformer<DynamicObject> i = informer();
        ResourceEventHandlerRegistration bad = i.addEventHandler(new ResourceEventHandler<>() {
            @Override
            public void onAdd(DynamicObject object, boolean isInInitialList) {
                throw new IllegalStateException("handler bug");
            }
        });
        RecordingHandler good = new RecordingHandler();
        i.addEventHandler(good);
        sync(i);
        fake.add(pod("ns", "a"));
        fake.add(pod("ns", "b"));
        await().atMost(WAIT).until(() -> good.events.size() == 2 && bad.handlerErrors() == 2);
        assertThat(i.handlerErrors()).isEqualTo(2);
        fake.add(pod("ns", "c"));
        await().atMost(WAIT).until(() -> bad.handlerErrors() == 3);
    }

    @Test
    void indexersCanBeAddedAfterStartAndCoverCachedObjects() {
        fake.add(pod("ns", "a", "1", Map.of("app", "web")));
        SharedIndexInformer<DynamicObject> i = informer();
        sync(i);
        i.addIndexers(Map.of("app", IndexFunction.label("app")));
        assertThat(i.indexer().byIndex("app", "web")).hasSize(1);
        i.close();
        assertThatThrownBy(() -> i.addIndexers(Map.of("x", IndexFunction.label("x"))))
                .isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> i.addEventHandler(new RecordingHandler())).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void startIsIdempotentAndCloseEndsEveryThread() {
        SharedIndexInformer<DynamicObject> i = informer();
        i.addEventHandler(new RecordingHandler());
        sync(i);
        await().atMost(WAIT)
                .untilAsserted(() -> assertThat(fake.watchRequests()).hasSize(1)); // the watch follows the sync
        i.start();
        assertThat(fake.watchRequests()).hasSize(1);
        i.close();
        assertThat(i.isStopped()).isTrue();
        assertThat(fake.openWatches()).isZero();
        assertThat(i.waitForCacheSync(Duration.ofMillis(1))).isTrue();
    }

    @Test
    void waitForCacheSyncTimesOutOnTheTickerWhileTheListFails() throws Exception {
        fake.failNextList(new IllegalStateException("down"));
        SharedIndexInformer<DynamicObject> i = informer();
        i.start();
        ticker.awaitWaiters(1); // the reflector's back-off
        CompletableFuture<Boolean> synced = CompletableFuture.supplyAsync(
                () -> i.waitForCacheSync(Duration.ofMillis(200)),
                r -> Thread.ofPlatform().daemon().start(r));
        ticker.awaitWaiters(2); // and the wait for the sync
        assertThat(synced).isNotDone();
        ticker.step(Duration.ofMillis(200));
        assertThat(synced.get(10, TimeUnit.SECONDS)).isFalse();
        assertThat(i.hasSynced()).isFalse();
    }

    @Test
    void aRefusedListIsTheInformersSyncErrorUntilAListSucceeds() {
        ApiException forbidden = ApiExceptions.from(
                Status.failure(403, "Forbidden", "pods is forbidden: User \"u\" cannot list resource \"pods\""));
        fake.failNextList(forbidden);
        SharedIndexInformer<DynamicObject> i = informer();
        assertThat(i.lastSyncError()).as("not started").isEmpty();
        i.start();
        ticker.awaitWaiters(1); // the reflector backs off after the refusal

        assertThat(i.lastSyncError()).containsSame(forbidden);
        assertThat(i.hasSynced()).isFalse();

        ticker.step(Duration.ofMinutes(1)); // the next list is allowed
        assertThat(i.waitForCacheSync(WAIT)).isTrue();
        assertThat(i.lastSyncError()).isEmpty();
    }

    @Test
    void waitForCacheSyncEndsWhenAnEmptyListSyncsTheInformer() {
        SharedIndexInformer<DynamicObject> i = informer(InformerOptions.Queue.DELTA_FIFO, Duration.ZERO);
        i.start();
        assertThat(i.waitForCacheSync(WAIT)).isTrue(); // no step: the empty replace wakes the wait
    }

    @Test
    void closeEndsAWaitForCacheSync() throws Exception {
        fake.failNextList(new IllegalStateException("down"));
        SharedIndexInformer<DynamicObject> i = informer();
        i.start();
        ticker.awaitWaiters(1);
        CompletableFuture<Boolean> synced = CompletableFuture.supplyAsync(
                () -> i.waitForCacheSync(Duration.ofHours(1)),
                r -> Thread.ofPlatform().daemon().start(r));
        ticker.awaitWaiters(2);
        i.close();
        assertThat(synced.get(10, TimeUnit.SECONDS)).isFalse();
    }

    @Test
    void setTransformIsStrippingRecordsToo() {
        record Thing(String apiVersion, String kind, ObjectMeta metadata, String spec) implements KubernetesObject {}
        Thing t = new Thing(
                "v1",
                "Thing",
                ObjectMeta.builder()
                        .name("t")
                        .managedFields(
                                List.of(new ManagedFieldsEntry("m", "Apply", "v1", null, "FieldsV1", null, null)))
                        .build(),
                "spec");
        Thing stripped = Transforms.<Thing>stripManagedFields().apply(t);
        assertThat(stripped.metadata().managedFields()).isNull();
        assertThat(stripped.spec()).isEqualTo("spec");
        DynamicObject d = pod("ns", "x").edit(n -> ((ObjectNode) n.get("metadata")).putArray("managedFields"));
        DynamicObject compact = d.compact();
        assertThat(Transforms.<DynamicObject>stripManagedFields()
                        .apply(d)
                        .node()
                        .get("metadata")
                        .has("managedFields"))
                .isFalse();
        DynamicObject strippedCompact =
                Transforms.<DynamicObject>stripManagedFields().apply(compact);
        assertThat(strippedCompact.isCompact()).isTrue();
        assertThat(strippedCompact.node().get("metadata").has("managedFields")).isFalse();
        assertThat(compact.node().get("metadata").has("managedFields")).isTrue();
    }
}
