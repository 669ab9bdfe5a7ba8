package io.kubeloop.cache.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.ObjectAccess;
import io.kubeloop.cache.KeyFunction;
import io.kubeloop.cache.Store;
import io.kubeloop.cache.TestObjects;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

/**
 * Random operation sequences on a DeltaFifo (with an informer-like known-objects store updated by
 * every pop) checked against a reference model written from client-go's rules.
 */
class DeltaFifoPropertyTest {

    sealed interface Op {}

    record Add(String name) implements Op {}

    record Update(String name) implements Op {}

    record Delete(String name) implements Op {}

    record Replace(Set<String> names) implements Op {}

    record Resync() implements Op {}

    record Pop() implements Op {}

    /** A delta in the model: type, name, resourceVersion, tombstone. */
    record D(String type, String name, String rv, boolean tombstone) {}

    @Provide
    Arbitrary<List<Op>> ops() {
        Arbitrary<String> name = Arbitraries.of("a", "b", "c", "d");
        return Arbitraries.frequencyOf(
                        Tuple.of(3, name.map(n -> (Op) new Add(n))),
                        Tuple.of(3, name.map(n -> (Op) new Update(n))),
                        Tuple.of(2, name.map(n -> (Op) new Delete(n))),
                        Tuple.of(1, name.set().ofMaxSize(4).map(s -> (Op) new Replace(s))),
                        Tuple.of(1, Arbitraries.just((Op) new Resync())),
                        Tuple.of(5, Arbitraries.just((Op) new Pop())))
                .list()
                .ofMaxSize(50);
    }

    /** The reference model. */
    static final class Model {
        final List<String> queue = new ArrayList<>();
        /** Keys queued in one batch of known-key tombstones share a batch number (their relative order is unspecified). */
        final Map<String, Integer> batch = new HashMap<>();

        final Map<String, List<D>> items = new HashMap<>();
        final Map<String, String> known = new HashMap<>();
        boolean populated;
        int initialCount;
        int batches;

        void enqueue(D d) {
            List<D> list = items.computeIfAbsent(d.name(), k -> {
                queue.add(k);
                return new ArrayList<>();
            });
            list.add(d);
            int n = list.size();
            if (n >= 2
                    && list.get(n - 1).type().equals("Deleted")
                    && list.get(n - 2).type().equals("Deleted")) {
                D newer = list.remove(n - 1);
                if (list.get(n - 2).tombstone()) {
                    list.set(n - 2, newer);
                }
            }
        }

        boolean synced() {
            return populated && initialCount == 0;
        }
    }

    @Property(tries = 400)
    void deltaFifoBehavesLikeTheReferenceModel(@ForAll("ops") List<Op> ops) {
        Store<DynamicObject> known = Store.create(KeyFunction.metaNamespace());
        DeltaFifo<DynamicObject> fifo = DeltaFifo.<DynamicObject>builder()
                .knownObjects(known)
                .emitDeltaTypeReplaced(true)
                .build();
        Model m = new Model();
        int rv = 0;
        for (Op op : ops) {
            String next = Integer.toString(++rv);
            switch (op) {
                case Add a -> {
                    fifo.add(TestObjects.pod("ns", a.name(), next));
                    m.populated = true;
                    m.enqueue(new D("Added", a.name(), next, false));
                }
                case Update u -> {
                    fifo.update(TestObjects.pod("ns", u.name(), next));
                    m.populated = true;
                    m.enqueue(new D("Updated", u.name(), next, false));
                }
                case Delete d -> {
                    fifo.delete(TestObjects.pod("ns", d.name(), next));
                    m.populated = true;
                    if (m.items.containsKey(d.name()) || m.known.containsKey(d.name())) {
                        m.enqueue(new D("Deleted", d.name(), next, false));
                    }
                }
                case Replace r -> {
                    List<DynamicObject> list = new ArrayList<>();
                    for (String n : r.names()) {
                        list.add(TestObjects.pod("ns", n, next));
                    }
                    fifo.replace(list, next);
                    for (String n : r.names()) {
                        m.enqueue(new D("Replaced", n, next, false));
                    }
                    int deletions = 0;
                    for (String k : new ArrayList<>(m.queue)) {
                        if (!r.names().contains(k)) {
                            List<D> ds = m.items.get(k);
                            m.enqueue(new D("Deleted", k, ds.get(ds.size() - 1).rv(), true));
                            deletions++;
                        }
                    }
                    int b = ++m.batches;
                    for (Map.Entry<String, String> e : m.known.entrySet()) {
                        if (!r.names().contains(e.getKey()) && !m.items.containsKey(e.getKey())) {
                            m.enqueue(new D("Deleted", e.getKey(), e.getValue(), true));
                            m.batch.put(e.getKey(), b);
                            deletions++;
                        }
                    }
                    if (!m.populated) {
                        m.populated = true;
                        m.initialCount = r.names().size() + deletions;
                    }
                }
                case Resync s -> {
                    fifo.resync();
                    int b = ++m.batches;
                    for (Map.Entry<String, String> e : m.known.entrySet()) {
                        if (!m.items.containsKey(e.getKey())) {
                            m.enqueue(new D("Sync", e.getKey(), e.getValue(), false));
                            m.batch.put(e.getKey(), b);
                        }
                    }
                }
                case Pop p -> {
                    if (m.queue.isEmpty()) {
                        break;
                    }
                    List<D> got = new ArrayList<>();
                    boolean[] initial = new boolean[1];
                    fifo.pop((deltas, isInInitialList) -> {
                        initial[0] = isInInitialList;
                        for (Delta<DynamicObject> d : deltas) {
                            String type = d.getClass().getSimpleName();
                            got.add(new D(
                                    type,
                                    ObjectAccess.name(d.object()),
                                    ObjectAccess.resourceVersion(d.object()),
                                    d instanceof Delta.Deleted<DynamicObject> del && del.finalStateUnknown()));
                            // informer-like: apply to the known objects
                            if (d instanceof Delta.Deleted<DynamicObject>) {
                                known.delete(d.object());
                            } else {
                                known.update(d.object());
                            }
                        }
                    });
                    String key = got.get(0).name();
                    String head = m.queue.get(0);
                    Integer hb = m.batch.get(head);
                    assertThat(key.equals(head) || (hb != null && hb.equals(m.batch.get(key)) && m.queue.contains(key)))
                            .as("popped %s, model head %s (queue %s)", key, head, m.queue)
                            .isTrue();
                    assertThat(initial[0]).isEqualTo(!m.synced());
                    m.queue.remove(key);
                    m.batch.remove(key);
                    List<D> expected = m.items.remove(key);
                    if (m.initialCount > 0) {
                        m.initialCount--;
                    }
                    assertThat(got).isEqualTo(expected);
                    for (D d : expected) {
                        if (d.type().equals("Deleted")) {
                            m.known.remove(d.name());
                        } else {
                            m.known.put(d.name(), d.rv());
                        }
                    }
                }
            }
            assertThat(fifo.size()).isEqualTo(m.queue.size());
            assertThat(new LinkedHashSet<>(
                            fifo.queuedKeys().stream().map(k -> k.name()).toList()))
                    .containsExactlyInAnyOrderElementsOf(m.queue);
            assertThat(fifo.hasSynced()).isEqualTo(m.synced());
        }
    }
}
