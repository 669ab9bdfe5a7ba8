package io.kubeloop.apiserver.internal.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kubeloop.api.errors.ApiTimeoutException;
import io.kubeloop.api.errors.BadRequestException;
import io.kubeloop.api.errors.GoneException;
import io.kubeloop.api.json.KubeJson;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

class VersionedStoreTest {

    private final VersionedStore store = VersionedStore.inMemory(
            StoreOptions.defaults().withHistorySize(100).withFutureRevisionWait(Duration.ofMillis(50)));

    private static ObjectNode obj(String ns, String name, String label) {
        ObjectNode n = KubeJson.mapper().createObjectNode();
        ObjectNode m = n.putObject("metadata");
        m.put("name", name);
        m.put("namespace", ns);
        if (label != null) {
            m.putObject("labels").put("app", label);
        }
        return n;
    }

    private WriteResult put(String ns, String name, String label) {
        return store.write("cm", Metadata.key(ns, name), cur -> Change.put(obj(ns, name, label)));
    }

    private static Predicate<StoredObject> label(String v) {
        return o ->
                v.equals(o.object().path("metadata").path("labels").path("app").asString(""));
    }

    @Test
    void everyCommitGetsTheNextRevisionAndStampsIt() {
        long a = put("default", "a", null).object().resourceVersion();
        long b = put("default", "b", null).object().resourceVersion();
        assertThat(b).isEqualTo(a + 1);
        assertThat(store.get("cm", "default/b")
                        .orElseThrow()
                        .object()
                        .path("metadata")
                        .path("resourceVersion")
                        .asString())
                .isEqualTo(Long.toString(b));
        assertThat(new String(store.get("cm", "default/b").orElseThrow().json()))
                .contains("\"resourceVersion\":\"" + b + "\"");
    }

    @Test
    void aVersionThatBecameHistoryKeepsOnlyItsBytesAndStillReadsTheSame() {
        StoredObject first = put("default", "a", "one").object();
        assertThat(first.holdsTree()).as("current").isTrue();
        StoredObject second = put("default", "a", "two").object();
        assertThat(first.holdsTree()).as("superseded").isFalse();
        assertThat(second.holdsTree()).isTrue();
        assertThat(first.object().path("metadata").path("labels").path("app").asString())
                .isEqualTo("one");
        assertThat(first.object().path("metadata").path("resourceVersion").asString())
                .isEqualTo(Long.toString(first.resourceVersion()));

        StoredObject deleted =
                store.write("cm", "default/a", cur -> Change.delete()).object();
        assertThat(second.holdsTree()).as("deleted").isFalse();
        assertThat(deleted.holdsTree()).as("the DELETED event's object").isFalse();
        assertThat(label("two").test(deleted)).isTrue();
    }

    @Test
    void keepCommitsNothing() {
        put("default", "a", null);
        long rv = store.currentRevision();
        WriteResult r = store.write("cm", "default/a", cur -> Change.keep());
        assertThat(r.committed()).isFalse();
        assertThat(store.currentRevision()).isEqualTo(rv);
    }

    @Test
    void aThrowingDecisionWritesNothing() {
        long rv = store.currentRevision();
        assertThatThrownBy(() -> store.write("cm", "default/x", cur -> {
                    throw new IllegalArgumentException("no");
                }))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(store.currentRevision()).isEqualTo(rv);
        assertThat(store.get("cm", "default/x")).isEmpty();
    }

    @Test
    void listIsSortedByNamespaceThenNameAndPagesShareTheFirstSnapshot() {
        for (String n : List.of("e", "c", "a", "d", "b")) {
            put("ns1", n, null);
        }
        put("ns0", "z", null);
        ListPage p1 = store.list(new ListQuery("cm", "ns1", o -> true, false, 0, false, 2, null));
        assertThat(p1.items()).extracting(StoredObject::name).containsExactly("a", "b");
        assertThat(p1.remainingItemCount()).isEqualTo(3);
        put("ns1", "bb", null); // after the snapshot: must not appear
        store.write("cm", "ns1/e", cur -> Change.delete()); // after the snapshot: must still appear
        List<String> names =
                new ArrayList<>(p1.items().stream().map(StoredObject::name).toList());
        String token = p1.continueToken();
        while (token != null) {
            ListPage p =
                    store.list(new ListQuery("cm", "ns1", o -> true, false, 0, false, 2, ContinueToken.decode(token)));
            assertThat(p.resourceVersion()).isEqualTo(p1.resourceVersion());
            p.items().forEach(o -> names.add(o.name()));
            token = p.continueToken();
        }
        assertThat(names).containsExactly("a", "b", "c", "d", "e");
    }

    @Test
    void expiredContinueIs410WithAnInconsistentContinuation() {
        for (int i = 0; i < 5; i++) {
            put("ns", "o" + i, null);
        }
        ListPage p1 = store.list(new ListQuery("cm", null, o -> true, false, 0, false, 2, null));
        put("ns", "later", null);
        store.compact();
        assertThatThrownBy(() -> store.list(new ListQuery(
                        "cm", null, o -> true, false, 0, false, 2, ContinueToken.decode(p1.continueToken()))))
                .isInstanceOfSatisfying(GoneException.class, e -> {
                    assertThat(e.code()).isEqualTo(410);
                    assertThat(e.status().metadata()).containsKey("continue");
                });
    }

    @Test
    void corruptContinueTokenIs400() {
        assertThatThrownBy(() -> ContinueToken.decode("not a token!")).isInstanceOf(BadRequestException.class);
        assertThatThrownBy(() -> ContinueToken.decode("e30")).isInstanceOf(BadRequestException.class);
    }

    @Test
    void futureRevisionTimesOutWith504() {
        assertThatThrownBy(() -> store.list(new ListQuery("cm", null, o -> true, false, 999, false, 0, null)))
                .isInstanceOfSatisfying(ApiTimeoutException.class, e -> {
                    assertThat(e.code()).isEqualTo(504);
                    assertThat(e.status().causes())
                            .extracting(c -> c.reason())
                            .containsExactly("ResourceVersionTooLarge");
                });
    }

    @Test
    void watchFromRevisionReplaysHistoryThenLiveInOrder() {
        put("ns", "a", null);
        long from = store.currentRevision();
        put("ns", "b", null);
        Watcher w = store.watch(new WatchRequest("cm", null, o -> true, from, false, false));
        put("ns", "c", null);
        assertThat(next(w))
                .extracting(WatchItem.Event::type, e -> e.object().name())
                .containsExactly(ChangeType.ADDED, "b");
        assertThat(next(w).object().name()).isEqualTo("c");
        w.close();
    }

    @Test
    void watchFromCompactedRevisionIs410() {
        put("ns", "a", null);
        put("ns", "b", null);
        store.compact();
        assertThatThrownBy(() -> store.watch(new WatchRequest("cm", null, o -> true, 1, false, false)))
                .isInstanceOf(GoneException.class)
                .hasMessageStartingWith("too old resource version: 1");
    }

    @Test
    void leavingAndEnteringTheSelectionAreDeletedAndAdded() {
        put("ns", "a", "x");
        Watcher w = store.watch(new WatchRequest("cm", null, label("x"), store.currentRevision(), false, false));
        put("ns", "a", "y");
        WatchItem.Event left = next(w);
        assertThat(left.type()).isEqualTo(ChangeType.DELETED);
        assertThat(left.object()
                        .object()
                        .path("metadata")
                        .path("labels")
                        .path("app")
                        .asString())
                .isEqualTo("x");
        assertThat(left.object().resourceVersion()).isEqualTo(store.currentRevision());
        put("ns", "a", "x");
        assertThat(next(w).type()).isEqualTo(ChangeType.ADDED);
    }

    @Test
    void deletedEventCarriesLastStateAtTheNewRevision() {
        put("ns", "a", "x");
        Watcher w = store.watch(new WatchRequest("cm", null, o -> true, store.currentRevision(), false, false));
        store.write("cm", "ns/a", cur -> Change.delete());
        WatchItem.Event e = next(w);
        assertThat(e.type()).isEqualTo(ChangeType.DELETED);
        assertThat(e.object().resourceVersion()).isEqualTo(store.currentRevision());
        assertThat(e.object()
                        .object()
                        .path("metadata")
                        .path("labels")
                        .path("app")
                        .asString())
                .isEqualTo("x");
    }

    @Test
    void initialEventsEndWithTheMarkerBookmark() {
        put("ns", "a", null);
        put("ns", "b", null);
        Watcher w = store.watch(new WatchRequest("cm", null, o -> true, 0, true, true));
        assertThat(next(w).type()).isEqualTo(ChangeType.ADDED);
        assertThat(next(w).type()).isEqualTo(ChangeType.ADDED);
        assertThat(w.next(Duration.ofSeconds(1)).orElseThrow())
                .isEqualTo(new WatchItem.Bookmark(store.currentRevision(), true));
    }

    @Test
    void aStuckWatcherIsEndedWithOverflowAndNeverBlocksWriters() {
        VersionedStore small = VersionedStore.inMemory(StoreOptions.defaults().withWatchBufferSize(3));
        Watcher w = small.watch(new WatchRequest("cm", null, o -> true, 0, false, false));
        for (int i = 0; i < 10; i++) {
            int n = i;
            small.write("cm", "ns/o" + n, cur -> Change.put(obj("ns", "o" + n, null)));
        }
        List<WatchItem> got = new ArrayList<>();
        WatchItem item;
        do {
            item = w.next(Duration.ofSeconds(1)).orElseThrow();
            got.add(item);
        } while (!(item instanceof WatchItem.Closed));
        assertThat(got).hasSize(4).last().isEqualTo(new WatchItem.Closed(WatchItem.CloseReason.OVERFLOW));
        assertThat(small.watcherCount("cm")).isZero();
    }

    @Test
    void concurrentWritersProduceStrictlyIncreasingRevisionsSeenInOrderByEveryWatcher() throws Exception {
        VersionedStore s = VersionedStore.inMemory(StoreOptions.defaults().withWatchBufferSize(10_000));
        List<Watcher> ws = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            ws.add(s.watch(new WatchRequest("cm", null, o -> true, 0, false, false)));
        }
        int writers = 8;
        int each = 200;
        CountDownLatch done = new CountDownLatch(writers);
        ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
        try (var pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int t = 0; t < writers; t++) {
                int tn = t;
                pool.submit(() -> {
                    try {
                        for (int i = 0; i < each; i++) {
                            int n = i % 20;
                            s.write(
                                    "cm",
                                    "ns/t" + tn + "-" + n,
                                    cur -> Change.put(obj("ns", "t" + tn + "-" + n, null)));
                        }
                    } catch (Throwable e) {
                        errors.add(e);
                    } finally {
                        done.countDown();
                    }
                });
            }
            done.await();
        }
        assertThat(errors).isEmpty();
        assertThat(s.currentRevision()).isEqualTo((long) writers * each);
        for (Watcher w : ws) {
            long last = 0;
            for (int i = 0; i < writers * each; i++) {
                WatchItem.Event e =
                        (WatchItem.Event) w.next(Duration.ofSeconds(1)).orElseThrow();
                assertThat(e.object().resourceVersion()).isEqualTo(last + 1);
                last = e.object().resourceVersion();
            }
        }
    }

    @Test
    void journalReplayRestoresObjectsAndRevision() {
        List<byte[]> log = new ArrayList<>();
        Journal journal = new Journal() {
            @Override
            public Durability append(Mutation m) {
                log.add(m.toBytes());
                return Durability.DONE;
            }

            @Override
            public void replay(Consumer<Mutation> sink) {
                log.forEach(b -> sink.accept(Mutation.fromBytes(b)));
            }
        };
        VersionedStore s1 = VersionedStore.open(StoreOptions.defaults(), journal);
        s1.write("cm", "ns/a", c -> Change.put(obj("ns", "a", "x")));
        s1.write("cm", "ns/b", c -> Change.put(obj("ns", "b", null)));
        s1.write("cm", "ns/b", c -> Change.delete());
        VersionedStore s2 = VersionedStore.open(StoreOptions.defaults(), journal);
        assertThat(s2.currentRevision()).isEqualTo(3);
        assertThat(s2.get("cm", "ns/a")).isPresent();
        assertThat(s2.get("cm", "ns/b")).isEmpty();
        assertThat(s2.write("cm", "ns/c", c -> Change.put(obj("ns", "c", null)))
                        .object()
                        .resourceVersion())
                .isEqualTo(4);
    }

    private static WatchItem.Event next(Watcher w) {
        return (WatchItem.Event) w.next(Duration.ofSeconds(1)).orElseThrow();
    }
}
