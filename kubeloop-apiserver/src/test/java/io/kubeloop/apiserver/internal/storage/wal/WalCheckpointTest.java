package io.kubeloop.apiserver.internal.storage.wal;

import static io.kubeloop.apiserver.internal.storage.wal.WalFixtures.payload;
import static io.kubeloop.apiserver.internal.storage.wal.WalFixtures.recover;
import static io.kubeloop.apiserver.internal.storage.wal.WalFixtures.reopen;
import static io.kubeloop.apiserver.internal.storage.wal.WalFixtures.snapshotOf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Snapshots, compaction, and recovery from a snapshot plus the records after it. */
class WalCheckpointTest {

    @TempDir
    Path dir;

    private final WalOptions small = WalOptions.builder().segmentSize(1024).build();

    private static List<Long> range(long from, long to) {
        return LongStream.rangeClosed(from, to).boxed().toList();
    }

    private List<String> files() throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void checkpointDeletesCoveredSegmentsAndRecoveryReplaysOnlyTheRecordsAfterIt() throws IOException {
        Checkpoint checkpoint;
        int segmentsBefore;
        try (WriteAheadLog wal = WriteAheadLog.open(dir, small)) {
            recover(wal);
            for (long seq = 1; seq <= 100; seq++) {
                wal.append(seq, payload(seq));
            }
            segmentsBefore = wal.stats().segments();
            checkpoint = wal.checkpoint(60, snapshotOf("state up to 60"));
            assertThat(wal.stats().segments()).isEqualTo(segmentsBefore - checkpoint.deletedSegments());
        }

        assertThat(checkpoint.sequence()).isEqualTo(60);
        assertThat(checkpoint.snapshot()).isEqualTo(dir.toAbsolutePath().resolve("snapshot-00000000000000000060.snap"));
        assertThat(checkpoint.snapshotBytes()).isEqualTo(24 + "state up to 60".length() + 20);
        assertThat(checkpoint.deletedSegments()).isGreaterThan(3).isLessThan(segmentsBefore);
        WalFixtures.Recovered r = reopen(dir, small);
        assertThat(r.recovery().snapshotSequence()).isEqualTo(60);
        assertThat(WalFixtures.string(r.snapshot())).isEqualTo("state up to 60");
        assertThat(r.sequences()).containsExactlyElementsOf(range(61, 100));
        assertThat(r.recovery().lastSequence()).isEqualTo(100);
        assertThat(r.recovery().replayedRecords()).isEqualTo(40);
    }

    @Test
    void checkpointAtTheLastSequenceLeavesOnlyTheSnapshot() throws IOException {
        try (WriteAheadLog wal = WriteAheadLog.open(dir, small)) {
            recover(wal);
            for (long seq = 1; seq <= 30; seq++) {
                wal.append(seq, payload(seq));
            }
            wal.checkpoint(10, snapshotOf("ten"));
            wal.checkpoint(30, snapshotOf("thirty"));
            assertThat(wal.stats().segments()).isEqualTo(1);
        }

        assertThat(files())
                .containsExactly(Segments.name(lastSegment()), "snapshot-00000000000000000030.snap", "wal.lock");
        WalFixtures.Recovered r = reopen(dir, small);
        assertThat(WalFixtures.string(r.snapshot())).isEqualTo("thirty");
        assertThat(r.sequences()).isEmpty();
        assertThat(r.recovery().lastSequence()).isEqualTo(30);
    }

    @Test
    void appendsAfterACheckpointAreReplayedOnTopOfIt() {
        try (WriteAheadLog wal = WriteAheadLog.open(dir, small)) {
            recover(wal);
            wal.append(1, payload(1));
            wal.checkpoint(1, snapshotOf("one"));
            wal.append(2, payload(2));
        }
        try (WriteAheadLog wal = WriteAheadLog.open(dir, small)) {
            WalFixtures.Recovered r = recover(wal);
            assertThat(WalFixtures.string(r.snapshot())).isEqualTo("one");
            assertThat(r.sequences()).containsExactly(2L);
            wal.append(3, payload(3));
            wal.checkpoint(2, snapshotOf("two"));
        }
        WalFixtures.Recovered r = reopen(dir, small);
        assertThat(WalFixtures.string(r.snapshot())).isEqualTo("two");
        assertThat(r.sequences()).containsExactly(3L);
    }

    @Test
    void recordAppendedAtOrBelowTheCheckpointIsNotReplayed() {
        try (WriteAheadLog wal = WriteAheadLog.open(dir, small)) {
            recover(wal);
            wal.append(5, payload(5));
            wal.checkpoint(7, snapshotOf("covers 1..7"));
            wal.append(6, payload(6)); // a late appender of a sequence the snapshot already holds
            wal.append(8, payload(8));
        }
        WalFixtures.Recovered r = reopen(dir, small);
        assertThat(r.sequences()).containsExactly(8L);
        assertThat(r.recovery().lastSequence()).isEqualTo(8);
    }

    @Test
    void checkpointMustAdvance() {
        try (WriteAheadLog wal = WriteAheadLog.open(dir, small)) {
            recover(wal);
            wal.checkpoint(5, snapshotOf("five"));
            assertThatThrownBy(() -> wal.checkpoint(5, snapshotOf("again")))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("checkpoint sequence 5 is not above the newest snapshot's 5");
        }
    }

    @Test
    void failingSnapshotWriterLeavesNoFileAndTheLogUsable() throws IOException {
        try (WriteAheadLog wal = WriteAheadLog.open(dir, small)) {
            recover(wal);
            wal.append(1, payload(1));
            assertThatThrownBy(() -> wal.checkpoint(1, out -> {
                        throw new IllegalStateException("store busy");
                    }))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessage("store busy");
            assertThat(files()).noneMatch(f -> f.startsWith("snapshot-"));
            wal.append(2, payload(2));
        }
        assertThat(reopen(dir, small).sequences()).containsExactly(1L, 2L);
    }

    @Test
    void snapshotBodyIsStreamedExactlyAndWriterCannotCloseIt() {
        byte[] body = new byte[300_000];
        for (int i = 0; i < body.length; i++) {
            body[i] = (byte) (i * 13);
        }
        try (WriteAheadLog wal = WriteAheadLog.open(dir, small)) {
            recover(wal);
            wal.checkpoint(1, out -> {
                try {
                    out.write(body, 0, 1000);
                    out.write(body[1000]);
                    out.write(body, 1001, body.length - 1001);
                    out.close();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
        try (WriteAheadLog wal = WriteAheadLog.open(dir, small)) {
            wal.recover(
                    (seq, in) -> {
                        try (InputStream s = in) {
                            assertThat(s.read()).isEqualTo(body[0] & 0xff);
                            assertThat(s.readAllBytes()).isEqualTo(Arrays.copyOfRange(body, 1, body.length));
                            assertThat(s.read()).isEqualTo(-1);
                        } catch (IOException e) {
                            throw new UncheckedIOException(e);
                        }
                    },
                    (seq, rec) -> {});
        }
    }

    @Test
    void leftoverTemporarySnapshotFromACrashIsIgnoredAndDeleted() throws IOException {
        try (WriteAheadLog wal = WriteAheadLog.open(dir, small)) {
            recover(wal);
            wal.append(1, payload(1));
        }
        Files.writeString(dir.resolve("snapshot-00000000000000000001.snap.tmp"), "half a snapshot");

        WalFixtures.Recovered r = reopen(dir, small);

        assertThat(r.snapshot()).isNull();
        assertThat(r.sequences()).containsExactly(1L);
        assertThat(files()).noneMatch(f -> f.endsWith(".tmp"));
    }

    @Test
    void olderSnapshotLeftByACrashIsSupersededByTheNewest() throws IOException {
        try (WriteAheadLog wal = WriteAheadLog.open(dir, small)) {
            recover(wal);
            wal.checkpoint(1, snapshotOf("one"));
        }
        Path one = dir.resolve("snapshot-00000000000000000001.snap");
        Path kept = dir.resolve("kept");
        Files.copy(one, kept);
        try (WriteAheadLog wal = WriteAheadLog.open(dir, small)) {
            recover(wal);
            wal.checkpoint(2, snapshotOf("two"));
        }
        Files.move(kept, one); // as if the crash came between publishing 2 and deleting 1

        WalFixtures.Recovered r = reopen(dir, small);

        assertThat(WalFixtures.string(r.snapshot())).isEqualTo("two");
        assertThat(one).doesNotExist();
    }

    @Test
    void corruptSnapshotFailsRecoveryNamingTheFile() throws IOException {
        try (WriteAheadLog wal = WriteAheadLog.open(dir, small)) {
            recover(wal);
            wal.checkpoint(3, snapshotOf("three"));
        }
        Path snapshot = dir.resolve("snapshot-00000000000000000003.snap");
        byte[] bytes = Files.readAllBytes(snapshot);
        bytes[25] ^= 1;
        Files.write(snapshot, bytes);

        try (WriteAheadLog wal = WriteAheadLog.open(dir, small)) {
            assertThatThrownBy(() -> recover(wal))
                    .isInstanceOf(WalCorruptionException.class)
                    .hasMessage("snapshot " + wal.directory().resolve(snapshot.getFileName())
                            + " fails its checksum (offset 24)");
        }
        Files.write(snapshot, Arrays.copyOf(bytes, bytes.length - 5));
        try (WriteAheadLog wal = WriteAheadLog.open(dir, small)) {
            assertThatThrownBy(() -> recover(wal))
                    .isInstanceOf(WalCorruptionException.class)
                    .hasMessageContaining("has an invalid trailer (incomplete file?)");
        }
    }

    private long lastSegment() throws IOException {
        return Segments.list(dir).getLast();
    }
}
