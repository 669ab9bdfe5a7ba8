package io.kubeloop.cache;

import static io.kubeloop.cache.TestObjects.name;
import static io.kubeloop.cache.TestObjects.pod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.ObjectAccess;
import io.kubeloop.api.ObjectKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Matrix lines 1–9 (Store/Indexer) and a few more claims of the store. */
class StoreTest {

    private static final IndexFunction<DynamicObject> APP = IndexFunction.label("app");

    /** Multi-valued: every value of the comma-separated label "tags". */
    private static final IndexFunction<DynamicObject> TAGS = o -> {
        String v = ObjectAccess.labels(o).get("tags");
        return v == null ? List.of() : List.of(v.split("\\."));
    };

    private static Indexer<DynamicObject> indexer() {
        return Indexer.create(
                KeyFunction.deletionHandling(KeyFunction.metaNamespace()),
                Map.of(Indexer.NAMESPACE_INDEX, IndexFunction.namespace(), "app", APP, "tags", TAGS));
    }

    @Test
    void keysAreNamespaceSlashNameOrNameAndExplicitKeysAreTheirOwnAndSplitRejectsTwoSlashes() {
        KeyFunction keys = KeyFunction.metaNamespace();
        assertThat(keys.key(pod("ns", "a")).toString()).isEqualTo("ns/a");
        assertThat(keys.key(TestObjects.node("a")).toString()).isEqualTo("a");
        assertThat(keys.key(ObjectKey.cluster("x"))).isEqualTo(ObjectKey.cluster("x"));
        assertThat(KeyFunction.split("a")).isEqualTo(ObjectKey.cluster("a"));
        assertThat(KeyFunction.split("ns/a")).isEqualTo(ObjectKey.of("ns", "a"));
        assertThatThrownBy(() -> KeyFunction.split("a/b/c"))
                .isInstanceOf(KeyException.class)
                .hasMessageContaining("a/b/c");
    }

    @Test
    void keyOfAnObjectWithoutNameIsAKeyException() {
        DynamicObject unnamed = DynamicObject.parse("{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{}}");
        assertThatThrownBy(() -> KeyFunction.metaNamespace().key(unnamed))
                .isInstanceOf(KeyException.class)
                .hasMessageContaining("name");
    }

    @Test
    void deletionHandlingKeyOfATombstoneWithoutObjectIsItsKey() {
        KeyFunction keys = KeyFunction.deletionHandling(KeyFunction.metaNamespace());
        assertThat(keys.key(new DeletedFinalStateUnknown<>(ObjectKey.of("ns", "a"), null))
                        .toString())
                .isEqualTo("ns/a");
        assertThat(keys.key(pod("ns", "b")).toString()).isEqualTo("ns/b");
    }

    @Test
    void deletingAnAbsentKeyChangesNothing() {
        Indexer<DynamicObject> s = indexer();
        s.add(pod("ns", "a"));
        s.delete(pod("ns", "missing"));
        s.deleteByKey(ObjectKey.of("other", "a"));
        assertThat(s.listKeys()).containsExactly(ObjectKey.of("ns", "a"));
    }

    @Test
    void addAndUpdateAreTheSameUpsert() {
        Indexer<DynamicObject> s = indexer();
        s.update(pod("ns", "a", "1"));
        s.add(pod("ns", "a", "2"));
        assertThat(s.size()).isEqualTo(1);
        assertThat(s.getByKey(ObjectKey.of("ns", "a")).map(TestObjects::rv)).contains("2");
        assertThat(s.get(pod("ns", "a", "9")).map(TestObjects::rv)).contains("2");
    }

    @Test
    void updatingALabelMovesTheObjectBetweenIndexValues() {
        Indexer<DynamicObject> s = indexer();
        s.add(pod("ns", "a", "1", Map.of("app", "v1")));
        s.update(pod("ns", "a", "2", Map.of("app", "v2")));
        assertThat(s.byIndex("app", "v1")).isEmpty();
        assertThat(s.byIndex("app", "v2")).extracting(TestObjects::rv).containsExactly("2");
    }

    @Test
    void deletingTheLastObjectUnderAValueRemovesTheValue() {
        Indexer<DynamicObject> s = indexer();
        s.add(pod("ns", "a", "1", Map.of("app", "web")));
        s.add(pod("ns", "b", "1", Map.of("app", "web")));
        s.add(pod("ns", "c", "1", Map.of("app", "db")));
        s.delete(pod("ns", "a"));
        assertThat(s.listIndexFuncValues("app")).containsExactlyInAnyOrder("web", "db");
        s.delete(pod("ns", "b"));
        assertThat(s.listIndexFuncValues("app")).containsExactly("db");
    }

    @Test
    void multiValuedIndexShowsTheObjectUnderEveryValueAndIndexDedupes() {
        Indexer<DynamicObject> s = indexer();
        DynamicObject ab = pod("ns", "ab", "1", Map.of("tags", "a.b"));
        s.add(ab);
        s.add(pod("ns", "b", "1", Map.of("tags", "b")));
        assertThat(s.byIndex("tags", "a")).extracting(TestObjects::name).containsExactly("ab");
        assertThat(s.byIndex("tags", "b")).extracting(TestObjects::name).containsExactlyInAnyOrder("ab", "b");
        assertThat(s.index("tags", ab)).extracting(TestObjects::name).containsExactlyInAnyOrder("ab", "b");
    }

    @Test
    void unknownIndexErrorsUnknownValueIsEmptyAndIndexKeysAreSorted() {
        Indexer<DynamicObject> s = indexer();
        for (String n : List.of("c", "a", "b")) {
            s.add(pod("ns", n));
        }
        assertThatThrownBy(() -> s.byIndex("nope", "x"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Index with name nope does not exist");
        assertThatThrownBy(() -> s.indexKeys("nope", "x")).isInstanceOf(IllegalArgumentException.class);
        assertThat(s.byIndex(Indexer.NAMESPACE_INDEX, "elsewhere")).isEmpty();
        assertThat(s.indexKeys(Indexer.NAMESPACE_INDEX, "ns"))
                .extracting(ObjectKey::name)
                .containsExactly("a", "b", "c");
        assertThat(s.listIndexFuncValues("nope")).isEmpty();
    }

    @Test
    void addIndexersRejectsADuplicateNameAndIndexesExistingItemsAtOnce() {
        Indexer<DynamicObject> s = indexer();
        s.add(pod("ns", "a", "1", Map.of("tier", "front")));
        assertThatThrownBy(() -> s.addIndexers(Map.of("app", APP, "tier", IndexFunction.label("tier"))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("indexer conflict")
                .hasMessageContaining("app");
        assertThat(s.indexers()).doesNotContainKey("tier");
        s.addIndexers(Map.of("tier", IndexFunction.label("tier")));
        assertThat(s.byIndex("tier", "front")).extracting(TestObjects::name).containsExactly("a");
    }

    @Test
    void replaceDropsAbsentKeysWithoutStaleIndexEntriesAndAnUnkeyableItemAbortsUnchanged() {
        Indexer<DynamicObject> s = indexer();
        s.add(pod("ns", "a", "1", Map.of("app", "old")));
        s.add(pod("ns", "b", "1", Map.of("app", "old")));
        s.replace(List.of(pod("ns", "b", "2", Map.of("app", "new")), pod("ns", "c", "2")), "42");
        assertThat(s.listKeys()).containsExactlyInAnyOrder(ObjectKey.of("ns", "b"), ObjectKey.of("ns", "c"));
        assertThat(s.listIndexFuncValues("app")).containsExactly("new");
        assertThat(s.lastSyncResourceVersion()).isEqualTo("42");

        DynamicObject unnamed =
                DynamicObject.parse("{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"namespace\":\"ns\"}}");
        List<DynamicObject> bad = new ArrayList<>(List.of(pod("ns", "z")));
        bad.add(unnamed);
        assertThatThrownBy(() -> s.replace(bad, "43")).isInstanceOf(KeyException.class);
        assertThat(s.listKeys()).containsExactlyInAnyOrder(ObjectKey.of("ns", "b"), ObjectKey.of("ns", "c"));
        assertThat(s.lastSyncResourceVersion()).isEqualTo("42");
    }

    @Test
    void aThrowingIndexFunctionLeavesTheStoreUnchanged() {
        Indexer<DynamicObject> s = Indexer.create(KeyFunction.metaNamespace(), Map.of("boom", o -> {
            if (name(o).equals("bad")) {
                throw new IllegalStateException("boom");
            }
            return List.of("ok");
        }));
        s.add(pod("ns", "good"));
        assertThatThrownBy(() -> s.add(pod("ns", "bad"))).hasMessage("boom");
        assertThat(s.listKeys()).containsExactly(ObjectKey.of("ns", "good"));
        assertThat(s.indexKeys("boom", "ok")).containsExactly(ObjectKey.of("ns", "good"));
    }

    @Test
    void readersDoNotBlockEachOther() throws Exception {
        Indexer<DynamicObject> s = Indexer.create(KeyFunction.metaNamespace(), Map.of());
        s.add(pod("ns", "a"));
        CountDownLatch insideForEach = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Thread reader = Thread.ofVirtual()
                .start(() -> s.forEach((k, v) -> {
                    insideForEach.countDown();
                    try {
                        release.await(10, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }));
        assertThat(insideForEach.await(10, TimeUnit.SECONDS)).isTrue();
        // another reader gets through while the first holds the read lock
        assertThat(s.list()).hasSize(1);
        assertThat(s.getByKey(ObjectKey.of("ns", "a"))).isPresent();
        release.countDown();
        reader.join();
    }
}
