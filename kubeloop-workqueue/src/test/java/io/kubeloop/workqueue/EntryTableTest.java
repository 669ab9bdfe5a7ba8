package io.kubeloop.workqueue;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class EntryTableTest {

    /** A key whose hash code is chosen, to force collisions. */
    record Key(int id, int hash) {
        @Override
        public int hashCode() {
            return hash;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && k.id == id;
        }
    }

    private final EntryTable<Key> table = new EntryTable<>();

    private QueueEntry<Key> insert(Key k) {
        assertThat(table.find(k, EntryTable.hash(k))).isNull();
        return table.insert(k, EntryTable.hash(k));
    }

    private QueueEntry<Key> find(Key k) {
        return table.find(k, EntryTable.hash(k));
    }

    @Test
    void collidingItemsAreFoundAfterRemovalsAtHeadMiddleAndTailOfTheirChain() {
        List<Key> keys = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            keys.add(new Key(i, 42));
            insert(keys.get(i));
        }

        table.remove(find(keys.get(4))); // chain head (inserted last)
        table.remove(find(keys.get(2))); // middle
        table.remove(find(keys.get(0))); // tail

        assertThat(find(keys.get(4))).isNull();
        assertThat(find(keys.get(2))).isNull();
        assertThat(find(keys.get(0))).isNull();
        assertThat(find(keys.get(1)).item).isEqualTo(keys.get(1));
        assertThat(find(keys.get(3)).item).isEqualTo(keys.get(3));
        assertThat(table.size()).isEqualTo(2);
    }

    @Test
    void everyItemIsStillFoundAfterTheTableGrowsManyTimes() {
        for (int i = 0; i < 10_000; i++) {
            insert(new Key(i, i % 97));
        }
        for (int i = 0; i < 10_000; i++) {
            assertThat(find(new Key(i, i % 97))).as("key %d", i).isNotNull();
        }
        Set<Key> seen = new HashSet<>();
        table.forEach(e -> seen.add(e.item));
        assertThat(seen).hasSize(10_000);
        assertThat(table.size()).isEqualTo(10_000);
    }

    @Test
    void removedEntryDropsItsItemAndIsReusedQueuedForTheNextNewItem() {
        QueueEntry<Key> first = insert(new Key(1, 1));
        first.setState(QueueEntry.PROCESSING);

        table.remove(first);
        assertThat(first.state()).isEqualTo(QueueEntry.REMOVED);
        assertThat(first.item).as("no removed item stays reachable").isNull();

        QueueEntry<Key> second = insert(new Key(2, 2));
        assertThat(second).isSameAs(first);
        assertThat(second.state()).isEqualTo(QueueEntry.QUEUED);
        assertThat(find(new Key(2, 2))).isSameAs(second);
        assertThat(find(new Key(1, 1))).isNull();
    }

    @Test
    void freeListKeepsAtMostMaxFreeEntries() {
        int n = EntryTable.MAX_FREE + 10;
        List<QueueEntry<Key>> removed = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            removed.add(insert(new Key(i, i)));
        }
        removed.forEach(table::remove);

        Set<QueueEntry<Key>> reused = Collections.newSetFromMap(new IdentityHashMap<>());
        for (int i = 0; i < n; i++) {
            reused.add(insert(new Key(n + i, i)));
        }
        long recycled = removed.stream().filter(reused::contains).count();
        assertThat(recycled).isEqualTo(EntryTable.MAX_FREE);
    }
}
