package io.kubeloop.apiserver.internal.storage.wal;

import static io.kubeloop.apiserver.internal.storage.wal.WalFixtures.payload;
import static io.kubeloop.apiserver.internal.storage.wal.WalFixtures.recover;
import static io.kubeloop.apiserver.internal.storage.wal.WalFixtures.reopen;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.LongStream;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Torn tails and corruption: what recovery keeps, cuts and refuses. */
class WalRecoveryTest {

    private static final String FIRST = "00000000000000000001.wal";
    private static final String SECOND = "00000000000000000002.wal";

    @TempDir
    Path dir;

    private final WalOptions options = WalOptions.defaults();

    /** Writes records {@code from..to} in one run (one segment) and returns the segment's bytes. */
    private byte[] writeRun(Path into, long from, long to) throws IOException {
        try (WriteAheadLog wal = WriteAheadLog.open(into, options)) {
            recover(wal);
            for (long seq = from; seq <= to; seq++) {
                wal.append(seq, payload(seq));
            }
        }
        return Files.readAllBytes(into.resolve(Segments.name(Segments.list(into).getLast())));
    }

    private static List<Long> range(long from, long to) {
        return LongStream.rangeClosed(from, to).boxed().toList();
    }

    @Test
    void cuttingTheLastRecordAtEveryByteRecoversThePrefixAndTruncatesTheRest() throws IOException {
        Path original = dir.resolve("original");
        try (WriteAheadLog wal = WriteAheadLog.open(original, options)) {
            recover(wal);
            for (long seq = 1; seq <= 4; seq++) {
                wal.append(seq, payload(seq));
            }
            wal.append(5, WalFixtures.utf8("short last record"));
        }
        byte[] segment = Files.readAllBytes(original.resolve(FIRST));
        int lastFrame = RecordFrame.frameSize("short last record".length());
        int lastStart = segment.length - lastFrame;

        for (int cut = lastStart; cut < segment.length; cut++) {
            Path copy = dir.resolve("cut-" + cut);
            Files.createDirectories(copy);
            Files.write(copy.resolve(FIRST), Arrays.copyOf(segment, cut));

            WalFixtures.Recovered r;
            try (WriteAheadLog wal = WriteAheadLog.open(copy, options)) {
                r = recover(wal);
                wal.append(5, WalFixtures.utf8("rewritten"));
            }

            assertThat(r.sequences()).as("cut at %d", cut).containsExactlyElementsOf(range(1, 4));
            assertThat(r.records()).allSatisfy(rec -> assertThat(rec.record()).isEqualTo(payload(rec.sequence())));
            assertThat(r.recovery().lastSequence()).isEqualTo(4);
            long discarded = cut - lastStart;
            if (discarded == 0) {
                assertThat(r.recovery().truncations()).isEmpty();
            } else {
                assertThat(r.recovery().truncations()).singleElement().satisfies(t -> {
                    assertThat(t.cause()).isEqualTo(Truncation.Cause.TORN_TAIL);
                    assertThat(t.offset()).isEqualTo(lastStart);
                    assertThat(t.discardedBytes()).isEqualTo(discarded);
                    assertThat(t.segment().getFileName().toString()).isEqualTo(FIRST);
                });
            }
            assertThat(Files.size(copy.resolve(FIRST))).isEqualTo(lastStart);

            // the cut was forced: the old segment is now a middle segment and must read clean
            WalFixtures.Recovered again = reopen(copy, options);
            assertThat(again.recovery().truncations()).isEmpty();
            assertThat(again.sequences()).containsExactlyElementsOf(range(1, 5));
            assertThat(WalFixtures.string(again.records().getLast().record())).isEqualTo("rewritten");
        }
    }

    @Test
    void lastRecordOverwrittenWithZerosIsATornTail() throws IOException {
        byte[] segment = writeRun(dir, 1, 5);
        int lastStart = segment.length - RecordFrame.frameSize(payload(5).length);
        Arrays.fill(segment, lastStart + 20, segment.length, (byte) 0);
        Files.write(dir.resolve(FIRST), segment);

        WalFixtures.Recovered r = reopen(dir, options);

        assertThat(r.sequences()).containsExactlyElementsOf(range(1, 4));
        assertThat(r.recovery().truncations())
                .singleElement()
                .satisfies(t -> assertThat(t.reason()).isEqualTo("checksum mismatch"));
    }

    @Test
    void segmentWithATornHeaderAndNoRecordsIsDeleted() throws IOException {
        writeRun(dir, 1, 3);
        Files.write(dir.resolve(SECOND), Arrays.copyOf("KLOOPWAL".getBytes(), 7));

        WalFixtures.Recovered r = reopen(dir, options);

        assertThat(r.sequences()).containsExactlyElementsOf(range(1, 3));
        assertThat(r.recovery().truncations()).singleElement().satisfies(t -> {
            assertThat(t.segment().getFileName().toString()).isEqualTo(SECOND);
            assertThat(t.discardedBytes()).isEqualTo(7);
        });
        assertThat(dir.resolve(SECOND)).doesNotExist();
    }

    @Test
    void badChecksumWithValidRecordsAfterItFailsRecoveryAndChangesNothing() throws IOException {
        byte[] segment = writeRun(dir, 1, 10);
        int fifth = frameStart(5);
        segment[fifth + RecordFrame.HEADER_SIZE + 3] ^= 0x40;
        Files.write(dir.resolve(FIRST), segment);

        try (WriteAheadLog wal = WriteAheadLog.open(dir, options)) {
            assertThatThrownBy(() -> recover(wal))
                    .isInstanceOf(WalCorruptionException.class)
                    .hasMessageStartingWith("write-ahead log segment "
                            + wal.directory().resolve(FIRST)
                            + " is corrupt at offset " + fifth + ": checksum mismatch, and valid records follow it;"
                            + " last intact sequence before it: 4. Nothing was changed")
                    .satisfies(e -> {
                        WalCorruptionException c = (WalCorruptionException) e;
                        assertThat(c.offset()).isEqualTo(fifth);
                        assertThat(c.file()).isEqualTo(wal.directory().resolve(FIRST));
                    });
        }
        assertThat(Files.readAllBytes(dir.resolve(FIRST))).isEqualTo(segment);
    }

    @Test
    void truncatePolicyKeepsTheRecordsBeforeTheCorruptionAndSetsTheRestAside() throws IOException {
        byte[] segment = writeRun(dir, 1, 10);
        writeRun(dir, 11, 12);
        int fifth = frameStart(5);
        segment[fifth + 6] ^= 0x01;
        Files.write(dir.resolve(FIRST), segment);
        WalOptions truncate =
                options.toBuilder().corruptionPolicy(CorruptionPolicy.TRUNCATE).build();

        WalFixtures.Recovered r = reopen(dir, truncate);

        assertThat(r.sequences()).containsExactlyElementsOf(range(1, 4));
        assertThat(r.recovery().lastSequence()).isEqualTo(4);
        assertThat(r.recovery().truncations())
                .extracting(Truncation::cause, t -> t.segment().getFileName().toString(), Truncation::offset)
                .containsExactly(
                        Tuple.tuple(Truncation.Cause.CORRUPTION, FIRST, (long) fifth),
                        Tuple.tuple(Truncation.Cause.CORRUPTION, SECOND, 0L));
        assertThat(Files.readAllBytes(dir.resolve(FIRST + ".corrupt"))).isEqualTo(segment);
        assertThat(dir.resolve(SECOND + ".corrupt")).exists();
        assertThat(dir.resolve(SECOND)).doesNotExist();
        assertThat(Files.size(dir.resolve(FIRST))).isEqualTo(fifth);
        // what is left is a clean log under the default policy
        assertThat(reopen(dir, options).sequences()).containsExactlyElementsOf(range(1, 4));
    }

    @Test
    void tornEndOfAMiddleSegmentIsCorruption() throws IOException {
        byte[] first = writeRun(dir, 1, 5);
        writeRun(dir, 6, 10);
        Files.write(dir.resolve(FIRST), Arrays.copyOf(first, first.length - 3));

        try (WriteAheadLog wal = WriteAheadLog.open(dir, options)) {
            assertThatThrownBy(() -> recover(wal))
                    .isInstanceOf(WalCorruptionException.class)
                    .hasMessageContaining(FIRST + " is corrupt at offset " + frameStart(5) + ": record incomplete")
                    .hasMessageContaining("and it is not the last segment; last intact sequence before it: 4");
        }
    }

    @Test
    void segmentWithForeignContentIsCorruption() throws IOException {
        writeRun(dir, 1, 2);
        Files.write(dir.resolve(FIRST), WalFixtures.utf8("this is not a write-ahead log segment"));
        writeRun(dir.resolve("unused"), 1, 1);
        Files.copy(dir.resolve("unused").resolve(FIRST), dir.resolve(SECOND));

        try (WriteAheadLog wal = WriteAheadLog.open(dir, options)) {
            assertThatThrownBy(() -> recover(wal))
                    .isInstanceOf(WalCorruptionException.class)
                    .hasMessageContaining("is corrupt at offset 0: not a kubeloop write-ahead log segment (bad magic)");
        }
    }

    private static int frameStart(long sequence) {
        int offset = RecordFrame.SEGMENT_HEADER_SIZE;
        for (long s = 1; s < sequence; s++) {
            offset += RecordFrame.frameSize(payload(s).length);
        }
        return offset;
    }
}
