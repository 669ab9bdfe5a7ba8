package io.kubeloop.cache.internal;

import static io.kubeloop.cache.TestObjects.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.ObjectAccess;
import io.kubeloop.api.ObjectKey;
import io.kubeloop.cache.KeyException;
import io.kubeloop.cache.KeyFunction;
import io.kubeloop.cache.Store;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/** Matrix lines 10–20 (DeltaFIFO). */
class DeltaFifoTest {

    record Popped(List<Delta<DynamicObject>> deltas, boolean isInInitialList) {
        List<String> summary() {
            List<String> out = new ArrayList<>();
            for (Delta<DynamicObject> d : deltas) {
                out.add(d.getClass().getSimpleName() + " " + ObjectAccess.name(d.object()) + "@"
                        + ObjectAccess.resourceVersion(d.object())
                        + (d instanceof Delta.Deleted<DynamicObject> del && del.finalStateUnknown()
                                ? " tombstone"
                                : ""));
            }
            return out;
        }
    }

    static Popped pop(InformerQueue<DynamicObject> q) {
        Popped[] out = new Popped[1];
        assertThat(q.pop((deltas, initial) -> out[0] = new Popped(List.copyOf(deltas), initial)))
                .isTrue();
        return out[0];
    }

    private static DeltaFifo<DynamicObject> fifo() {
        return DeltaFifo.<DynamicObject>builder().build();
    }

    private static DeltaFifo<DynamicObject> fifo(Store<DynamicObject> known, boolean replaced) {
        return DeltaFifo.<DynamicObject>builder()
                .knownObjects(known)
                .emitDeltaTypeReplaced(replaced)
                .build();
    }

    @Test
    void addThenUpdatePopAsOneListInOrder() {
        DeltaFifo<DynamicObject> f = fifo();
        f.add(pod("ns", "a", "1"));
        f.update(pod("ns", "a", "2"));
        assertThat(f.size()).isEqualTo(1);
        assertThat(pop(f).summary()).containsExactly("Added a@1", "Updated a@2");
        assertThat(f.size()).isZero();
    }

    @Test
    void aKeyKeepsItsFirstPositionAndGoesLastWhenReaddedAfterPop() {
        DeltaFifo<DynamicObject> f = fifo();
        f.add(pod("ns", "foo", "1"));
        f.add(pod("ns", "bar", "1"));
        f.add(pod("ns", "foo", "2"));
        f.add(pod("ns", "zab", "1"));
        assertThat(pop(f).summary()).containsExactly("Added foo@1", "Added foo@2");
        f.add(pod("ns", "foo", "3"));
        assertThat(f.queuedKeys()).extracting(ObjectKey::name).containsExactly("bar", "zab", "foo");
        assertThat(pop(f).summary()).containsExactly("Added bar@1");
        assertThat(pop(f).summary()).containsExactly("Added zab@1");
        assertThat(pop(f).summary()).containsExactly("Added foo@3");
    }

    @Test
    void consecutiveDeletesCollapseKeepingTheNonTombstoneInEitherOrder() {
        Store<DynamicObject> known = Store.create(KeyFunction.metaNamespace());
        known.add(pod("ns", "a", "1"));
        DeltaFifo<DynamicObject> f = fifo(known, true);
        f.delete(pod("ns", "a", "2"));
        f.replace(List.of(), "5"); // would add a tombstone for the queued key
        assertThat(pop(f).summary()).containsExactly("Deleted a@2");

        DeltaFifo<DynamicObject> g = fifo(known, true);
        g.replace(List.of(), "5"); // tombstone for the known key
        g.delete(pod("ns", "a", "3"));
        assertThat(pop(g).summary()).containsExactly("Deleted a@3");
    }

    @Test
    void deleteOfAKeyNeitherQueuedNorKnownQueuesNothing() {
        DeltaFifo<DynamicObject> withoutKnown = fifo();
        withoutKnown.delete(pod("ns", "a"));
        assertThat(withoutKnown.size()).isZero();

        Store<DynamicObject> known = Store.create(KeyFunction.metaNamespace());
        known.add(pod("ns", "k", "1"));
        DeltaFifo<DynamicObject> f = fifo(known, true);
        f.delete(pod("ns", "a"));
        assertThat(f.size()).isZero();
        f.delete(pod("ns", "k", "2"));
        assertThat(pop(f).summary()).containsExactly("Deleted k@2");
    }

    @Test
    void replaceTombstonesMissingKnownKeysWithTheCachedObjectAndQueuedOnlyKeysWithTheNewestQueued() {
        Store<DynamicObject> known = Store.create(KeyFunction.metaNamespace());
        known.add(pod("ns", "k", "7"));
        known.add(pod("ns", "stay", "1"));
        DeltaFifo<DynamicObject> f = fifo(known, true);
        f.add(pod("ns", "q", "1"));
        f.update(pod("ns", "q", "2"));
        f.replace(List.of(pod("ns", "stay", "1")), "10");
        List<List<String>> all = new ArrayList<>();
        while (f.size() > 0) {
            all.add(pop(f).summary());
        }
        assertThat(all)
                .containsExactlyInAnyOrder(
                        List.of("Added q@1", "Updated q@2", "Deleted q@2 tombstone"),
                        List.of("Replaced stay@1"),
                        List.of("Deleted k@7 tombstone"));
    }

    @Test
    void replaceEmitsReplacedOnlyWhenAskedElseSync() {
        DeltaFifo<DynamicObject> replaced = fifo(Store.create(KeyFunction.metaNamespace()), true);
        replaced.replace(List.of(pod("ns", "a")), "1");
        assertThat(pop(replaced).deltas().get(0)).isInstanceOf(Delta.Replaced.class);
        DeltaFifo<DynamicObject> sync = fifo(Store.create(KeyFunction.metaNamespace()), false);
        sync.replace(List.of(pod("ns", "a")), "1");
        assertThat(pop(sync).deltas().get(0)).isInstanceOf(Delta.Sync.class);
    }

    @Test
    void hasSyncedAfterTheLastEntryOfTheFirstReplaceOrAtOnceForAnEarlyAdd() {
        DeltaFifo<DynamicObject> f = fifo(Store.create(KeyFunction.metaNamespace()), true);
        assertThat(f.hasSynced()).isFalse();
        f.replace(List.of(pod("ns", "a"), pod("ns", "b"), pod("ns", "c")), "1");
        pop(f);
        pop(f);
        assertThat(f.hasSynced()).isFalse();
        pop(f);
        assertThat(f.hasSynced()).isTrue();

        DeltaFifo<DynamicObject> early = fifo();
        early.add(pod("ns", "a"));
        assertThat(early.hasSynced()).isTrue();

        Store<DynamicObject> known = Store.create(KeyFunction.metaNamespace());
        known.add(pod("ns", "x"));
        known.add(pod("ns", "y"));
        DeltaFifo<DynamicObject> empty = fifo(known, true);
        empty.replace(List.of(), "1");
        assertThat(empty.hasSynced()).isFalse();
        pop(empty);
        assertThat(empty.hasSynced()).isFalse();
        pop(empty);
        assertThat(empty.hasSynced()).isTrue();
    }

    @Test
    void resyncQueuesSyncOnlyForKnownKeysWithNothingQueued() {
        Store<DynamicObject> known = Store.create(KeyFunction.metaNamespace());
        known.add(pod("ns", "a", "1"));
        known.add(pod("ns", "b", "1"));
        DeltaFifo<DynamicObject> f = fifo(known, true);
        f.update(pod("ns", "a", "2"));
        f.resync();
        List<List<String>> all = new ArrayList<>();
        while (f.size() > 0) {
            all.add(pop(f).summary());
        }
        assertThat(all).containsExactlyInAnyOrder(List.of("Updated a@2"), List.of("Sync b@1"));
        assertThat(fifo().size()).isZero();
        DeltaFifo<DynamicObject> noKnown = fifo();
        noKnown.resync();
        assertThat(noKnown.size()).isZero();
    }

    @Test
    void transformerAppliesToAddedUpdatedReplacedNeverToSyncOrTombstones() {
        Store<DynamicObject> known = Store.create(KeyFunction.metaNamespace());
        known.add(pod("ns", "synced", "1"));
        known.add(pod("ns", "gone", "1"));
        DeltaFifo<DynamicObject> f = DeltaFifo.<DynamicObject>builder()
                .knownObjects(known)
                .emitDeltaTypeReplaced(true)
                .transformer(o -> o.edit(n ->
                        ((ObjectNode) n.get("metadata")).putObject("labels").put("t", "yes")))
                .build();
        f.add(pod("ns", "added"));
        f.update(pod("ns", "updated"));
        f.resync(); // Sync for "synced" and "gone"
        List<Delta<DynamicObject>> seen = new ArrayList<>();
        while (f.size() > 0) {
            seen.addAll(pop(f).deltas());
        }
        f.replace(List.of(pod("ns", "replaced")), "2"); // tombstones for synced and gone
        while (f.size() > 0) {
            seen.addAll(pop(f).deltas());
        }
        for (Delta<DynamicObject> d : seen) {
            boolean transformed = "yes".equals(ObjectAccess.labels(d.object()).get("t"));
            boolean shouldBe = switch (d) {
                case Delta.Added<DynamicObject> a -> true;
                case Delta.Updated<DynamicObject> u -> true;
                case Delta.Replaced<DynamicObject> r -> true;
                case Delta.Sync<DynamicObject> s -> false;
                case Delta.Deleted<DynamicObject> del -> !del.finalStateUnknown();
            };
            assertThat(transformed).as(d.toString()).isEqualTo(shouldBe);
        }
        assertThat(seen).hasSize(7);
    }

    @Test
    void popOnAClosedEmptyQueueReturnsFalseButAClosedQueueStillDrains() throws Exception {
        DeltaFifo<DynamicObject> f = fifo();
        f.add(pod("ns", "a"));
        f.close();
        assertThat(f.isClosed()).isTrue();
        assertThat(pop(f).summary()).containsExactly("Added a@1");
        assertThat(f.pop((d, i) -> {})).isFalse();

        DeltaFifo<DynamicObject> blocked = fifo();
        CompletableFuture<Boolean> waiting = CompletableFuture.supplyAsync(
                () -> blocked.pop((d, i) -> {}), r -> Thread.ofVirtual().start(r));
        Thread.yield();
        blocked.close();
        assertThat(waiting.get(10, TimeUnit.SECONDS)).isFalse();
    }

    @Test
    void isInInitialListIsTrueForEveryItemOfTheFirstReplaceOnly() {
        DeltaFifo<DynamicObject> f = fifo(Store.create(KeyFunction.metaNamespace()), true);
        f.replace(List.of(pod("ns", "a"), pod("ns", "b"), pod("ns", "c")), "1");
        assertThat(pop(f).isInInitialList()).isTrue();
        assertThat(pop(f).isInInitialList()).isTrue();
        assertThat(pop(f).isInInitialList()).isTrue();
        f.add(pod("ns", "d"));
        assertThat(pop(f).isInInitialList()).isFalse();
        f.replace(List.of(pod("ns", "e")), "2");
        while (f.size() > 0) {
            assertThat(pop(f).isInInitialList()).isFalse();
        }
    }

    @Test
    void replaceWithAnUnkeyableItemQueuesNothing() {
        DeltaFifo<DynamicObject> f = fifo(Store.create(KeyFunction.metaNamespace()), true);
        DynamicObject unnamed = DynamicObject.parse("{\"metadata\":{}}");
        List<DynamicObject> list = new ArrayList<>(List.of(pod("ns", "a")));
        list.add(unnamed);
        Assertions.assertThatThrownBy(() -> f.replace(list, "1")).isInstanceOf(KeyException.class);
        assertThat(f.size()).isZero();
        assertThat(f.hasSynced()).isFalse();
    }
}
