package io.kubeloop.cache;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.ObjectAccess;
import io.kubeloop.api.ObjectKey;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

/** Random operation sequences on an Indexer, checked after every step against a plain map. */
class StorePropertyTest {

    sealed interface Op {}

    record Put(String ns, String name, String app) implements Op {}

    record Remove(String ns, String name) implements Op {}

    record Replace(List<Put> items) implements Op {}

    record AddIndexer() implements Op {}

    @Provide
    Arbitrary<List<Op>> ops() {
        Arbitrary<String> ns = Arbitraries.of("", "a", "b");
        Arbitrary<String> name = Arbitraries.of("x", "y", "z", "w");
        Arbitrary<String> app = Arbitraries.of("web", "db", "cache", null);
        Arbitrary<Put> put = Combinators.combine(ns, name, app).as(Put::new);
        Arbitrary<Op> remove = Combinators.combine(ns, name).as(Remove::new);
        Arbitrary<Op> replace = put.list().ofMaxSize(6).map(Replace::new);
        return Arbitraries.frequencyOf(
                        Tuple.of(6, put.map(p -> (Op) p)),
                        Tuple.of(3, remove),
                        Tuple.of(1, replace),
                        Tuple.of(1, Arbitraries.just((Op) new AddIndexer())))
                .list()
                .ofMaxSize(40);
    }

    private static DynamicObject object(Put p) {
        return TestObjects.pod(p.ns(), p.name(), "1", p.app() == null ? Map.of() : Map.of("app", p.app()));
    }

    @Property(tries = 300)
    void indexerMatchesAMapModelAfterEveryOperation(@ForAll("ops") List<Op> ops) {
        Indexer<DynamicObject> indexer =
                Indexer.create(KeyFunction.metaNamespace(), Map.of("app", IndexFunction.label("app")));
        Map<ObjectKey, Put> model = new HashMap<>();
        boolean nsIndex = false;
        for (Op op : ops) {
            switch (op) {
                case Put p -> {
                    indexer.add(object(p));
                    model.put(ObjectKey.of(p.ns(), p.name()), p);
                }
                case Remove r -> {
                    indexer.deleteByKey(ObjectKey.of(r.ns(), r.name()));
                    model.remove(ObjectKey.of(r.ns(), r.name()));
                }
                case Replace r -> {
                    indexer.replace(
                            r.items().stream().map(StorePropertyTest::object).toList(), "1");
                    model.clear();
                    for (Put p : r.items()) {
                        model.put(ObjectKey.of(p.ns(), p.name()), p);
                    }
                }
                case AddIndexer a -> {
                    if (!nsIndex) {
                        indexer.addIndexers(Map.of(Indexer.NAMESPACE_INDEX, IndexFunction.namespace()));
                        nsIndex = true;
                    }
                }
            }
            check(indexer, model, nsIndex);
        }
    }

    private static void check(Indexer<DynamicObject> indexer, Map<ObjectKey, Put> model, boolean nsIndex) {
        assertThat(new HashSet<>(indexer.listKeys())).isEqualTo(model.keySet());
        assertThat(indexer.size()).isEqualTo(model.size());
        Map<String, Set<ObjectKey>> byApp = new TreeMap<>();
        Map<String, Set<ObjectKey>> byNs = new TreeMap<>();
        model.forEach((k, p) -> {
            if (p.app() != null) {
                byApp.computeIfAbsent(p.app(), x -> new HashSet<>()).add(k);
            }
            byNs.computeIfAbsent(p.ns(), x -> new HashSet<>()).add(k);
            assertThat(ObjectAccess.labels(indexer.getByKey(k).orElseThrow()).get("app"))
                    .isEqualTo(p.app());
        });
        assertThat(new HashSet<>(indexer.listIndexFuncValues("app"))).isEqualTo(byApp.keySet());
        byApp.forEach((v, keys) -> {
            assertThat(indexer.indexKeys("app", v)).isSorted().containsExactlyInAnyOrderElementsOf(keys);
            assertThat(indexer.byIndex("app", v)).hasSize(keys.size());
        });
        if (nsIndex) {
            assertThat(new HashSet<>(indexer.listIndexFuncValues(Indexer.NAMESPACE_INDEX)))
                    .isEqualTo(byNs.keySet());
            byNs.forEach((v, keys) -> assertThat(new ArrayList<>(indexer.indexKeys(Indexer.NAMESPACE_INDEX, v)))
                    .containsExactlyInAnyOrderElementsOf(keys));
        }
    }
}
