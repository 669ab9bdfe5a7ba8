package io.kubeloop.apiserver.internal.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kubeloop.api.errors.GoneException;
import io.kubeloop.api.json.KubeJson;
import io.kubeloop.apiserver.internal.storage.wal.WalOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.ObjectNode;

/** The store over the real write-ahead log: replay, checkpoints, revision continuity. */
class WalJournalTest {

    @TempDir
    Path dir;

    /** The journal of the last {@link #open}. */
    private WalJournal journal;

    private VersionedStore open(WalJournalOptions options) {
        journal = WalJournal.open(dir, options);
        return VersionedStore.open(StoreOptions.defaults(), journal);
    }

    private VersionedStore open() {
        return open(WalJournalOptions.defaults());
    }

    private static WriteResult put(VersionedStore s, String name, String value) {
        ObjectNode n = KubeJson.mapper().createObjectNode();
        n.putObject("metadata").put("name", name).put("namespace", "ns");
        n.putObject("data").put("v", value);
        return s.write("configmaps", "ns/" + name, cur -> Change.put(n));
    }

    private static String value(VersionedStore s, String name) {
        return s.get("configmaps", "ns/" + name)
                .map(o -> o.object().path("data").path("v").asString())
                .orElse(null);
    }

    private List<Path> snapshots() throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> p.getFileName().toString().endsWith(".snap"))
                    .toList();
        }
    }

    @Test
    void replayRestoresObjectsWithTheirResourceVersionsAndTheRevision() {
        long rvA;
        try (VersionedStore s = open()) {
            rvA = put(s, "a", "1").object().resourceVersion();
            put(s, "b", "1");
            put(s, "b", "2");
            s.write("configmaps", "ns/b", cur -> Change.delete());
            put(s, "c", "1");
            assertThat(s.currentRevision()).isEqualTo(5);
        }
        try (VersionedStore s = open()) {
            assertThat(s.currentRevision()).isEqualTo(5);
            assertThat(s.get("configmaps", "ns/a").orElseThrow().resourceVersion())
                    .isEqualTo(rvA);
            assertThat(s.get("configmaps", "ns/a")
                            .orElseThrow()
                            .object()
                            .path("metadata")
                            .path("resourceVersion")
                            .asString())
                    .isEqualTo(Long.toString(rvA));
            assertThat(value(s, "b")).isNull();
            assertThat(value(s, "c")).isEqualTo("1");
            assertThat(put(s, "d", "1").object().resourceVersion()).isEqualTo(6);
        }
    }

    @Test
    void checkpointThenReplayRestoresSnapshotPlusLaterRecords() throws IOException {
        try (VersionedStore s = open()) {
            for (int i = 0; i < 20; i++) {
                put(s, "k" + i, "before");
            }
            s.checkpoint();
            put(s, "k0", "after");
            s.write("configmaps", "ns/k1", cur -> Change.delete());
            put(s, "new", "after");
        }
        assertThat(snapshots()).hasSize(1);
        try (VersionedStore s = open()) {
            assertThat(s.currentRevision()).isEqualTo(23);
            assertThat(value(s, "k0")).isEqualTo("after");
            assertThat(value(s, "k1")).isNull();
            assertThat(value(s, "k19")).isEqualTo("before");
            assertThat(value(s, "new")).isEqualTo("after");
            assertThat(s.count("configmaps", "ns")).isEqualTo(20);
        }
    }

    @Test
    void revisionsContinueAboveDeletionsThatTheSnapshotNoLongerLists() {
        try (VersionedStore s = open()) {
            put(s, "a", "1");
            put(s, "b", "1");
            s.write("configmaps", "ns/b", cur -> Change.delete());
            s.write("configmaps", "ns/a", cur -> Change.delete()); // rv 4: no object carries it
            s.checkpoint();
        }
        try (VersionedStore s = open()) {
            assertThat(s.count("configmaps", null)).isZero();
            assertThat(s.currentRevision()).isEqualTo(4);
            assertThat(put(s, "c", "1").object().resourceVersion()).isEqualTo(5);
        }
    }

    @Test
    void checkpointsRunInTheBackgroundAndBoundTheLog() {
        WalJournalOptions small = WalJournalOptions.defaults()
                .withCheckpointEvery(50, 1 << 20)
                .withWal(WalOptions.builder().segmentSize(4096).build());
        try (VersionedStore s = open(small)) {
            for (int i = 0; i < 400; i++) {
                put(s, "k" + (i % 30), Integer.toString(i));
            }
            await().atMost(Duration.ofSeconds(10))
                    .untilAsserted(() -> assertThat(snapshots()).hasSize(1));
            await().atMost(Duration.ofSeconds(10))
                    .untilAsserted(
                            () -> assertThat(journal.log().stats().segments()).isLessThan(10));
        }
        try (VersionedStore s = open(small)) {
            assertThat(s.currentRevision()).isEqualTo(400);
            for (int i = 370; i < 400; i++) {
                assertThat(value(s, "k" + (i % 30))).isEqualTo(Integer.toString(i));
            }
        }
    }

    @Test
    void aWatchFromBeforeARestartIsExpiredAndOneFromTheRecoveredRevisionWorks() {
        try (VersionedStore s = open()) {
            put(s, "a", "1");
            put(s, "a", "2");
        }
        try (VersionedStore s = open()) {
            Assertions.assertThatThrownBy(
                            () -> s.watch(new WatchRequest("configmaps", null, o -> true, 1, false, false)))
                    .isInstanceOf(GoneException.class)
                    .hasMessageContaining("too old resource version: 1");
            try (Watcher w = s.watch(new WatchRequest("configmaps", null, o -> true, 2, false, false))) {
                put(s, "a", "3");
                WatchItem.Event e =
                        (WatchItem.Event) w.next(Duration.ofSeconds(5)).orElseThrow();
                assertThat(e.type()).isEqualTo(ChangeType.MODIFIED);
                assertThat(e.object().resourceVersion()).isEqualTo(3);
            }
        }
    }
}
