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

    private QueueEntry<Key> processing(Key k) {
        QueueEntry<Key> e = insert(k);
        e.setState(QueueEntry.PROCESSING);
        return e;
    }

    @Test
    void anEntryDoneWithoutTheLockIsAbsentToFindWhichUnlinksAndRecyclesIt() {
        Key k = new Key(1, 7);
        Key neighbour = new Key(2, 7);
        processing(neighbour);
        QueueEntry<Key> e = processing(k);
        assertThat(e.casState(QueueEntry.PROCESSING, QueueEntry.DONE)).isTrue();
        assertThat(table.size()).as("still linked until a lock holder meets it").isEqualTo(2);

        assertThat(find(k)).isNull();
        assertThat(e.state()).isEqualTo(QueueEntry.REMOVED);
        assertThat(e.item).as("no removed item stays reachable").isNull();
        assertThat(table.size()).isEqualTo(1);
        assertThat(find(neighbour).item).isEqualTo(neighbour);
        assertThat(table.insert(new Key(3, 3), EntryTable.hash(new Key(3, 3)))).as("recycled").isSameAs(e);
    }

    @Test
    void findUnlockedFindsTheEntryOfAnItemInAnyStateAndNothingForOthers() {
        Key k = new Key(1, 7);
        QueueEntry<Key> e = processing(k);
        processing(new Key(2, 7));
        assertThat(table.findUnlocked(k, EntryTable.hash(k))).isSameAs(e);
        assertThat(table.findUnlocked(new Key(9, 7), EntryTable.hash(new Key(9, 7)))).isNull();
        e.casState(QueueEntry.PROCESSING, QueueEntry.DONE);
        assertThat(table.findUnlocked(k, EntryTable.hash(k))).isSameAs(e);
    }

    @Test
    void findUnlockedGivesUpOnALongChainInsteadOfWalkingItAll() {
        for (int i = 0; i < 20; i++) {
            processing(new Key(i, 5)); // each new one at the head: key 0 is at the tail
        }
        assertThat(table.findUnlocked(new Key(19, 5), EntryTable.hash(new Key(19, 5)))).isNotNull();
        assertThat(table.findUnlocked(new Key(0, 5), EntryTable.hash(new Key(0, 5)))).isNull();
        assertThat(find(new Key(0, 5))).as("the locked find walks it all").isNotNull();
    }

    @Test
    void doneEntriesAreUnlinkedInsteadOfGrowingTheTable() {
        int capacity = table.capacity();
        for (int round = 0; round < 20; round++) {
            for (int i = 0; i < capacity / 2; i++) {
                QueueEntry<Key> e = processing(new Key(round * capacity + i, round * capacity + i));
                e.casState(QueueEntry.PROCESSING, QueueEntry.DONE);
            }
        }
        assertThat(table.capacity()).isEqualTo(capacity);
        assertThat(table.size()).isLessThanOrEqualTo(capacity - capacity / 4 + 1);
        List<Key> live = new ArrayList<>();
        table.forEach(e -> live.add(e.item));
        assertThat(live).as("forEach skips DONE entries").isEmpty();
        assertThat(table.anyProcessing()).isFalse();
        processing(new Key(-1, 1));
        assertThat(table.anyProcessing()).isTrue();
    }
}
