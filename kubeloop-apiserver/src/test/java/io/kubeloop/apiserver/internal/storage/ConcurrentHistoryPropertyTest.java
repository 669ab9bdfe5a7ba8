package io.kubeloop.apiserver.internal.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubeloop.api.json.KubeJson;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import java.util.stream.LongStream;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import tools.jackson.databind.node.ObjectNode;

/**
 * Properties of {@link VersionedStore} under several concurrent writers doing random creates, updates and
 * deletes across resources and namespaces, checked against the committed history (every acknowledged write,
 * replayed in resourceVersion order through a reference model of watch selection):
 * <ul>
 *   <li>revisions are dense, and every acknowledged write got a revision strictly larger than every write
 *       acknowledged before it started (real-time order);</li>
 *   <li>every watcher, opened before or during the writes with a namespace and label selection, sees exactly
 *       the selection's events after its start revision, in strictly increasing revision order, with no gap
 *       (ADDED on entering the selection, DELETED on leaving it);</li>
 *   <li>a watch started afterwards from any revision inside the history window replays exactly the committed
 *       events after that revision.</li>
 * </ul>
 * {@code VersionedStoreTest} covers single-writer semantics and unselective watchers of blind puts.
 */
class ConcurrentHistoryPropertyTest {

    private static final List<String> RESOURCES = List.of("configmaps", "secrets");
    private static final List<String> NAMESPACES = List.of("a", "b", "c");
    private static final List<String> LABELS = List.of("x", "y");
    private static final Duration WAIT = Duration.ofSeconds(5);

    /** One committed write: its revision, and the object's state after it (null when deleted). */
    record Commit(long rv, String resource, String key, String labelAfter) {}

    /** What a watch selects: a resource, a namespace or all, a label value or any. */
    record Selection(String resource, String namespace, String label) {
        Predicate<StoredObject> filter() {
            return o -> label == null || label.equals(labelOf(o.object()));
        }

        boolean selects(String key, String lbl) {
            return lbl != null
                    && (namespace == null || key.startsWith(namespace + "/"))
                    && (label == null || label.equals(lbl));
        }

        static Selection random(Random r) {
            return new Selection(
                    RESOURCES.get(r.nextInt(RESOURCES.size())),
                    r.nextBoolean() ? null : NAMESPACES.get(r.nextInt(NAMESPACES.size())),
                    r.nextBoolean() ? null : LABELS.get(r.nextInt(LABELS.size())));
        }
    }

    private static String labelOf(ObjectNode o) {
        return o.path("metadata").path("labels").path("app").asString("");
    }

    private static ObjectNode object(String key, String label) {
        ObjectNode n = KubeJson.mapper().createObjectNode();
        ObjectNode m = n.putObject("metadata");
        m.put("namespace", key.substring(0, key.indexOf('/')));
        m.put("name", key.substring(key.indexOf('/') + 1));
        m.putObject("labels").put("app", label);
        return n;
    }

    /** The events a selection must see after {@code from}: "TYPE key@rv". */
    static List<String> expected(List<Commit> history, Selection s, long from) {
        Map<String, String> state = new HashMap<>();
        List<String> out = new ArrayList<>();
        for (Commit c : history) {
            if (!c.resource().equals(s.resource())) {
                continue;
            }
            String before = state.get(c.key());
            if (c.labelAfter() == null) {
                state.remove(c.key());
            } else {
                state.put(c.key(), c.labelAfter());
            }
            if (c.rv() <= from) {
                continue;
            }
            boolean was = s.selects(c.key(), before);
            boolean is = s.selects(c.key(), c.labelAfter());
            if (was || is) {
                out.add((was && is ? "MODIFIED" : is ? "ADDED" : "DELETED") + " " + c.key() + "@" + c.rv());
            }
        }
        return out;
    }

    /** Reads {@code n} events, then checks nothing more arrives; returns them as "TYPE key@rv". */
    static List<String> drain(Watcher w, int n) {
        List<String> got = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            WatchItem item = w.next(WAIT).orElseThrow(() -> new AssertionError("watch ended early: " + got));
            if (item instanceof WatchItem.Event e) {
                got.add(e.type() + " " + e.object().key() + "@" + e.object().resourceVersion());
            } else {
                got.add(item.toString());
            }
        }
        w.next(Duration.ofMillis(1)).ifPresent(extra -> got.add("unexpected " + extra));
        return got;
    }

    static void assertStrictlyIncreasing(List<String> events) {
        long last = 0;
        for (String e : events) {
            long rv = Long.parseLong(e.substring(e.lastIndexOf('@') + 1));
            assertThat(rv).as("revision order in %s", events).isGreaterThan(last);
            last = rv;
        }
    }

    private record OpenWatch(Selection selection, long from, Watcher watcher) {}

    @Property(tries = 10)
    void concurrentWritersKeepRevisionsMonotonicAndWatchesExact(
            @ForAll long seed,
            @ForAll @IntRange(min = 2, max = 5) int writers,
            @ForAll @IntRange(min = 10, max = 60) int opsEach)
            throws Exception {
        VersionedStore store = VersionedStore.inMemory(
                StoreOptions.defaults().withHistorySize(10_000).withWatchBufferSize(10_000));
        Random setup = new Random(seed);
        ConcurrentLinkedQueue<OpenWatch> watches = new ConcurrentLinkedQueue<>();
        for (int i = 0; i < 4; i++) {
            Selection s = Selection.random(setup);
            watches.add(new OpenWatch(
                    s, 0, store.watch(new WatchRequest(s.resource(), s.namespace(), s.filter(), 0, false, false))));
        }
        ConcurrentLinkedQueue<Commit> commits = new ConcurrentLinkedQueue<>();
        ConcurrentLinkedQueue<String> violations = new ConcurrentLinkedQueue<>();
        AtomicLong maxAcknowledged = new AtomicLong();
        List<Future<?>> done = new ArrayList<>();
        try (var pool = Executors.newFixedThreadPool(writers + 1)) {
            for (int t = 0; t < writers; t++) {
                Random r = new Random(seed * 31 + t);
                done.add(pool.submit(() -> {
                    for (int i = 0; i < opsEach; i++) {
                        String resource = RESOURCES.get(r.nextInt(RESOURCES.size()));
                        String key = NAMESPACES.get(r.nextInt(NAMESPACES.size())) + "/o" + r.nextInt(4);
                        String label = LABELS.get(r.nextInt(LABELS.size()));
                        int op = r.nextInt(3); // 0 create, 1 update, 2 delete
                        long before = maxAcknowledged.get();
                        WriteResult w = store.write(resource, key, cur -> switch (op) {
                            case 0 -> cur == null ? Change.put(object(key, label)) : Change.keep();
                            case 1 -> cur == null ? Change.keep() : Change.put(object(key, label));
                            default -> cur == null ? Change.keep() : Change.delete();
                        });
                        if (!w.committed()) {
                            continue;
                        }
                        long rv = w.object().resourceVersion();
                        if (rv <= before) {
                            violations.add(resource + " " + key + "@" + rv + " acknowledged after @" + before);
                        }
                        maxAcknowledged.accumulateAndGet(rv, Math::max);
                        commits.add(new Commit(rv, resource, key, w.deleted() ? null : label));
                    }
                }));
            }
            Random late = new Random(seed ^ 0x5eed);
            done.add(pool.submit(() -> {
                for (int i = 0; i < 4; i++) {
                    Selection s = Selection.random(late);
                    long from = late.nextInt((int) store.currentRevision() + 1);
                    watches.add(new OpenWatch(
                            s,
                            from,
                            store.watch(
                                    new WatchRequest(s.resource(), s.namespace(), s.filter(), from, false, false))));
                    Thread.yield();
                }
            }));
            for (Future<?> f : done) {
                f.get();
            }
        }

        List<Commit> history =
                commits.stream().sorted(Comparator.comparingLong(Commit::rv)).toList();
        assertThat(violations).isEmpty();
        assertThat(history)
                .extracting(Commit::rv)
                .containsExactlyElementsOf(LongStream.rangeClosed(1, store.currentRevision())
                        .boxed()
                        .toList());
        for (OpenWatch w : watches) {
            List<String> want = expected(history, w.selection(), w.from());
            List<String> got = drain(w.watcher(), want.size());
            assertThat(got).as("%s from %d", w.selection(), w.from()).containsExactlyElementsOf(want);
            assertStrictlyIncreasing(got);
            w.watcher().close();
        }
        Random replay = new Random(seed + 7);
        for (int i = 0; i < 6; i++) {
            Selection s = Selection.random(replay);
            long from = replay.nextLong(store.currentRevision() + 1);
            Watcher w = store.watch(new WatchRequest(s.resource(), s.namespace(), s.filter(), from, false, false));
            List<String> want = expected(history, s, from);
            assertThat(drain(w, want.size()))
                    .as("replay of %s from %d", s, from)
                    .containsExactlyElementsOf(want);
            w.close();
        }
        store.close();
    }
}
