package io.kubeloop.apiserver.internal.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.kubeloop.api.errors.InternalErrorException;
import io.kubeloop.api.json.KubeJson;
import io.kubeloop.apiserver.internal.storage.wal.WalException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/**
 * Nothing is observable before it is durable: with a journal whose durability the test opens by hand,
 * reads, lists and watches see a write only once it (and everything before it) is durable, in revision
 * order, while later writers already build on it.
 */
class DurablePublicationTest {

    /** A fake journal: the durability of revision N completes when the test calls {@link #release}. */
    private static final class GatedJournal implements Journal {
        final List<Long> appended = new CopyOnWriteArrayList<>();
        final Map<Long, CountDownLatch> gates = new ConcurrentHashMap<>();
        volatile RuntimeException awaitFailure;

        @Override
        public Durability append(Mutation m) {
            appended.add(m.resourceVersion());
            CountDownLatch gate = gate(m.resourceVersion());
            return () -> {
                try {
                    assertThat(gate.await(10, TimeUnit.SECONDS))
                            .as("gate %d", m.resourceVersion())
                            .isTrue();
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
                RuntimeException f = awaitFailure;
                if (f != null) {
                    throw f;
                }
            };
        }

        CountDownLatch gate(long rv) {
            return gates.computeIfAbsent(rv, k -> new CountDownLatch(1));
        }

        void release(long rv) {
            gate(rv).countDown();
        }

        void awaitAppended(int n) {
            await().atMost(Duration.ofSeconds(5)).until(() -> appended.size() >= n);
        }
    }

    private final GatedJournal journal = new GatedJournal();
    private final VersionedStore store = VersionedStore.open(StoreOptions.defaults(), journal);

    private static ObjectNode obj(String name, String value) {
        ObjectNode n = KubeJson.mapper().createObjectNode();
        n.putObject("metadata").put("name", name).put("namespace", "ns");
        n.putObject("data").put("v", value);
        return n;
    }

    private CompletableFuture<WriteResult> putAsync(String name, String value) {
        CompletableFuture<WriteResult> f = new CompletableFuture<>();
        Thread.ofVirtual().start(() -> {
            try {
                f.complete(store.write("cm", "ns/" + name, cur -> Change.put(obj(name, value))));
            } catch (Throwable t) {
                f.completeExceptionally(t);
            }
        });
        return f;
    }

    private Watcher watchAll() {
        return store.watch(new WatchRequest("cm", null, o -> true, 0, false, false));
    }

    private static long nextRevision(Watcher w) {
        WatchItem.Event e = (WatchItem.Event) w.next(Duration.ofSeconds(5)).orElseThrow();
        return e.object().resourceVersion();
    }

    @Test
    void aWriteIsInvisibleToReadsListsAndWatchesUntilItIsDurable() throws Exception {
        try (Watcher w = watchAll()) {
            CompletableFuture<WriteResult> write = putAsync("a", "1");
            journal.awaitAppended(1);
            assertThat(store.get("cm", "ns/a")).isEmpty();
            assertThat(store.currentRevision()).isZero();
            assertThat(store.list(new ListQuery("cm", null, o -> true, false, 0, false, 0, null))
                            .items())
                    .isEmpty();
            assertThat(w.next(Duration.ofMillis(100))).isEmpty();
            assertThat(w.progressRevision()).contains(0L);
            assertThat(write).isNotDone();

            journal.release(1);
            assertThat(write.get(5, TimeUnit.SECONDS).object().resourceVersion())
                    .isEqualTo(1);
            assertThat(store.get("cm", "ns/a")).isPresent();
            assertThat(store.currentRevision()).isEqualTo(1);
            assertThat(nextRevision(w)).isEqualTo(1);
        }
    }

    @Test
    void aLaterDurableWritePublishesTheEarlierPendingOnesInOrder() throws Exception {
        try (Watcher w = watchAll()) {
            CompletableFuture<WriteResult> first = putAsync("a", "1");
            journal.awaitAppended(1);
            CompletableFuture<WriteResult> second = putAsync("b", "1");
            journal.awaitAppended(2);

            journal.release(2); // durability of 2 implies durability of 1 (journals persist in order)
            assertThat(second.get(5, TimeUnit.SECONDS).object().resourceVersion())
                    .isEqualTo(2);
            assertThat(nextRevision(w)).isEqualTo(1);
            assertThat(nextRevision(w)).isEqualTo(2);
            assertThat(store.get("cm", "ns/a")).isPresent();
            assertThat(first).isNotDone();

            journal.release(1);
            assertThat(first.get(5, TimeUnit.SECONDS).object().resourceVersion())
                    .isEqualTo(1);
            assertThat(w.next(Duration.ofMillis(50))).isEmpty();
        }
    }

    @Test
    void aLaterWriterBuildsOnAPendingWrite() throws Exception {
        CompletableFuture<WriteResult> first = putAsync("a", "1");
        journal.awaitAppended(1);
        CompletableFuture<Long> seen = new CompletableFuture<>();
        CompletableFuture<WriteResult> second = new CompletableFuture<>();
        Thread.ofVirtual()
                .start(() -> second.complete(store.write("cm", "ns/a", cur -> {
                    seen.complete(cur == null ? -1 : cur.resourceVersion());
                    return Change.put(obj("a", "2"));
                })));
        assertThat(seen.get(5, TimeUnit.SECONDS)).isEqualTo(1);
        journal.awaitAppended(2);
        journal.release(1);
        journal.release(2);
        assertThat(first.get(5, TimeUnit.SECONDS).object().resourceVersion()).isEqualTo(1);
        assertThat(second.get(5, TimeUnit.SECONDS).object().resourceVersion()).isEqualTo(2);
        assertThat(store.get("cm", "ns/a")
                        .orElseThrow()
                        .object()
                        .path("data")
                        .path("v")
                        .asString())
                .isEqualTo("2");
    }

    @Test
    void anUnchangedAnswerWithAPendingVersionWaitsUntilItIsPublished() throws Exception {
        CompletableFuture<WriteResult> first = putAsync("a", "1");
        journal.awaitAppended(1);
        CompletableFuture<WriteResult> keep = CompletableFuture.supplyAsync(
                () -> store.write("cm", "ns/a", cur -> Change.keep()),
                r -> Thread.ofVirtual().start(r));
        assertThatThrownBy(() -> keep.get(200, TimeUnit.MILLISECONDS)).isInstanceOf(TimeoutException.class);
        journal.release(1);
        assertThat(keep.get(5, TimeUnit.SECONDS).object().resourceVersion()).isEqualTo(1);
        assertThat(first.get(5, TimeUnit.SECONDS).committed()).isTrue();
    }

    @Test
    void aJournalFailureFailsTheWriteStopsLaterWritesAndTellsTheListenerOnce() throws Exception {
        CompletableFuture<RuntimeException> told = new CompletableFuture<>();
        store.onJournalFailure(told::complete);
        journal.awaitFailure = new WalException("disk on fire");
        journal.release(1);
        CompletableFuture<WriteResult> write = putAsync("a", "1");

        assertThatThrownBy(() -> write.get(5, TimeUnit.SECONDS))
                .cause()
                .isInstanceOf(InternalErrorException.class)
                .hasMessageContaining("storage failed")
                .hasMessageContaining("disk on fire");
        assertThat(told.get(5, TimeUnit.SECONDS)).hasMessage("disk on fire");
        assertThatThrownBy(() -> store.write("cm", "ns/b", cur -> Change.put(obj("b", "1"))))
                .isInstanceOf(InternalErrorException.class);
        assertThat(journal.appended).containsExactly(1L);
        assertThat(store.get("cm", "ns/a")).isEmpty();
        assertThat(store.failure()).isPresent();
    }
}
