package io.kubeloop.apiserver.internal.storage.wal;

import static io.kubeloop.apiserver.internal.storage.wal.WalFixtures.payload;
import static io.kubeloop.apiserver.internal.storage.wal.WalFixtures.recover;
import static io.kubeloop.apiserver.internal.storage.wal.WalFixtures.reopen;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WriteAheadLogTest {

    @TempDir
    Path dir;

    private final WalOptions options = WalOptions.defaults();

    @Test
    void appendedRecordsAreRecoveredAfterReopen() {
        try (WriteAheadLog wal = WriteAheadLog.open(dir, options)) {
            assertThat(recover(wal).recovery()).isEqualTo(new Recovery(0, 0, 0, List.of()));
            for (long seq = 1; seq <= 100; seq++) {
                wal.append(seq, payload(seq));
            }
        }

        WalFixtures.Recovered r = reopen(dir, options);

        assertThat(r.recovery()).isEqualTo(new Recovery(0, 100, 100, List.of()));
        assertThat(r.sequences())
                .containsExactlyElementsOf(
                        LongStream.rangeClosed(1, 100).boxed().toList());
        assertThat(r.records()).allSatisfy(rec -> assertThat(rec.record()).isEqualTo(payload(rec.sequence())));
        assertThat(r.snapshot()).isNull();
    }

    @Test
    void recordsAppendedOutOfOrderAreReplayedInSequenceOrder() {
        try (WriteAheadLog wal = WriteAheadLog.open(dir, options)) {
            recover(wal);
            CompletableFuture.allOf(
                            wal.appendAsync(5, payload(5)),
                            wal.appendAsync(3, payload(3)),
                            wal.appendAsync(4, payload(4)))
                    .join();
            wal.append(1, payload(1));
        }

        WalFixtures.Recovered r = reopen(dir, options);

        assertThat(r.sequences()).containsExactly(1L, 3L, 4L, 5L);
        assertThat(r.recovery().lastSequence()).isEqualTo(5);
    }

    @Test
    void appendAtOrBelowTheRecoveredLastSequenceIsRejected() {
        try (WriteAheadLog wal = WriteAheadLog.open(dir, options)) {
            recover(wal);
            wal.append(10, payload(10));
        }
        try (WriteAheadLog wal = WriteAheadLog.open(dir, options)) {
            assertThat(recover(wal).recovery().lastSequence()).isEqualTo(10);

            assertThatThrownBy(() -> wal.append(10, payload(10)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("sequence 10 is not above 10, the last sequence recovered from " + wal.directory());
            wal.append(11, payload(11));
        }
        assertThat(reopen(dir, options).sequences()).containsExactly(10L, 11L);
    }

    @Test
    void nonPositiveSequenceIsRejected() {
        try (WriteAheadLog wal = WriteAheadLog.open(dir, options)) {
            recover(wal);
            assertThatThrownBy(() -> wal.append(0, new byte[0]))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("sequence 0 is not above 0");
        }
    }

    @Test
    void appendBeforeRecoverIsRejected() {
        try (WriteAheadLog wal = WriteAheadLog.open(dir, options)) {
            assertThatThrownBy(() -> wal.append(1, payload(1)))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessage("call recover() before append on the write-ahead log in " + wal.directory());
        }
    }

    @Test
    void recoverTwiceIsRejected() {
        try (WriteAheadLog wal = WriteAheadLog.open(dir, options)) {
            recover(wal);
            assertThatThrownBy(() -> recover(wal))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("recover() may be called once");
        }
    }

    @Test
    void appendAfterCloseThrows() {
        WriteAheadLog wal = WriteAheadLog.open(dir, options);
        recover(wal);
        wal.append(1, payload(1));
        wal.close();
        wal.close();

        assertThatThrownBy(() -> wal.append(2, payload(2)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("write-ahead log in " + wal.directory() + " is closed");
        assertThatThrownBy(() -> wal.checkpoint(1, WalFixtures.snapshotOf("x")))
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void closeWritesEveryQueuedRecordAndCompletesItsFuture() {
        List<CompletableFuture<Void>> futures = new ArrayList<>();
        try (WriteAheadLog wal = WriteAheadLog.open(dir, options)) {
            recover(wal);
            for (long seq = 1; seq <= 2000; seq++) {
                futures.add(wal.appendAsync(seq, payload(seq)));
            }
        }

        assertThat(futures).allSatisfy(f -> assertThat(f).isCompleted().isNotCompletedExceptionally());
        assertThat(reopen(dir, options).recovery().replayedRecords()).isEqualTo(2000);
    }

    @Test
    void recordLargerThanMaxRecordSizeIsRejected() {
        try (WriteAheadLog wal =
                WriteAheadLog.open(dir, options.toBuilder().maxRecordSize(100).build())) {
            recover(wal);
            wal.append(1, new byte[100]);
            assertThatThrownBy(() -> wal.append(2, new byte[101]))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("record of 101 bytes exceeds maxRecordSize 100");
        }
    }

    @Test
    void segmentsRollAtTheSizeLimitAndReplayAcrossThem() throws IOException {
        WalOptions small = options.toBuilder().segmentSize(1024).build();
        try (WriteAheadLog wal = WriteAheadLog.open(dir, small)) {
            recover(wal);
            for (long seq = 1; seq <= 100; seq++) {
                wal.append(seq, payload(seq));
            }
            assertThat(wal.stats().segments()).isGreaterThan(10);
        }

        List<Path> segments = segmentFiles();
        assertThat(segments).hasSizeGreaterThan(10);
        for (Path s : segments) {
            assertThat(Files.size(s)).as(s.toString()).isLessThanOrEqualTo(1024);
        }
        assertThat(reopen(dir, small).sequences())
                .containsExactlyElementsOf(
                        LongStream.rangeClosed(1, 100).boxed().toList());
    }

    @Test
    void recordLargerThanASegmentGetsASegmentOfItsOwn() throws IOException {
        WalOptions small = options.toBuilder().segmentSize(256).build();
        try (WriteAheadLog wal = WriteAheadLog.open(dir, small)) {
            recover(wal);
            wal.append(1, new byte[10]);
            wal.append(2, new byte[1000]);
            wal.append(3, new byte[10]);
        }

        assertThat(segmentFiles()).extracting(Files::size).containsExactly(16L + 26, 16L + 1016, 16L + 26);
        assertThat(reopen(dir, small).sequences()).containsExactly(1L, 2L, 3L);
    }

    @Test
    void everyRecoveryStartsANewSegment() throws IOException {
        for (int i = 1; i <= 3; i++) {
            try (WriteAheadLog wal = WriteAheadLog.open(dir, options)) {
                recover(wal);
                wal.append(i, payload(i));
            }
        }
        assertThat(segmentFiles())
                .extracting(p -> p.getFileName().toString())
                .containsExactly("00000000000000000001.wal", "00000000000000000002.wal", "00000000000000000003.wal");
    }

    @Test
    void concurrentAppendersShareOneWriteAndForce() throws Exception {
        try (WriteAheadLog wal = WriteAheadLog.open(dir, options)) {
            recover(wal);
            DefaultWriteAheadLog log = (DefaultWriteAheadLog) wal;
            ReentrantLock io = log.ioLockForTest();
            AtomicLong sequences = new AtomicLong(1);
            List<Future<?>> appenders = new ArrayList<>();
            io.lock();
            try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
                CompletableFuture<Void> first;
                try {
                    // the flusher takes record 1 and then waits for the I/O lock, as if forcing it
                    first = wal.appendAsync(1, payload(1));
                    await().until(() -> log.pendingCount() == 0);
                    for (int i = 0; i < 64; i++) {
                        appenders.add(threads.submit(() -> {
                            long seq = sequences.incrementAndGet();
                            wal.append(seq, payload(seq));
                        }));
                    }
                    await().until(() -> log.pendingCount() == 64);
                    assertThat(appenders).noneMatch(Future::isDone);
                    assertThat(first).isNotDone();
                } finally {
                    io.unlock();
                }
                for (Future<?> f : appenders) {
                    f.get();
                }
                first.join();
            }
            WalStats stats = wal.stats();
            assertThat(stats.records()).isEqualTo(65);
            assertThat(stats.batches()).isEqualTo(2);
        }
        assertThat(reopen(dir, options).recovery().replayedRecords()).isEqualTo(65);
    }

    @Test
    void groupCommitTakesAtMostMaxBatchBytesPerWrite() {
        WalOptions tiny = options.toBuilder().maxBatchBytes(1).build();
        try (WriteAheadLog wal = WriteAheadLog.open(dir, tiny)) {
            recover(wal);
            List<CompletableFuture<Void>> futures = new ArrayList<>();
            for (long seq = 1; seq <= 20; seq++) {
                futures.add(wal.appendAsync(seq, payload(seq)));
            }
            CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new)).join();
            assertThat(wal.stats().batches()).isEqualTo(20);
        }
    }

    @Test
    void statsCountRecordsBytesAndSyncs() {
        try (WriteAheadLog wal = WriteAheadLog.open(dir, options)) {
            recover(wal);
            wal.append(1, new byte[10]);
            wal.append(2, new byte[20]);
            WalStats stats = wal.stats();
            assertThat(stats.records()).isEqualTo(2);
            assertThat(stats.bytes()).isEqualTo(16 + 10 + 16 + 20);
            assertThat(stats.batches()).isEqualTo(2);
            assertThat(stats.syncs()).isEqualTo(3); // the new segment, then one per batch
            assertThat(stats.segments()).isEqualTo(1);
        }
    }

    @Test
    void secondOpenOfTheSameDirectoryFailsNamingIt() {
        try (WriteAheadLog first = WriteAheadLog.open(dir, options)) {
            assertThatThrownBy(() -> WriteAheadLog.open(dir, options))
                    .isInstanceOf(WalLockedException.class)
                    .hasMessageStartingWith("data directory " + first.directory()
                            + " is in use by another write-ahead log in this process (pid "
                            + ProcessHandle.current().pid() + ")")
                    .satisfies(e ->
                            assertThat(((WalLockedException) e).directory()).isEqualTo(first.directory()));
        }
        try (WriteAheadLog again = WriteAheadLog.open(dir, options)) {
            assertThat(recover(again).recovery().lastSequence()).isZero();
        }
    }

    @Test
    void openCreatesAMissingDirectory() {
        Path nested = dir.resolve("a/b/c");
        try (WriteAheadLog wal = WriteAheadLog.open(nested, options)) {
            recover(wal);
            wal.append(1, payload(1));
        }
        assertThat(reopen(nested, options).sequences()).containsExactly(1L);
    }

    @Test
    void optionsRejectOutOfRangeValues() {
        assertThatThrownBy(() -> options.toBuilder().segmentSize(100).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("segmentSize must be between 256 and 1073741824 bytes, got 100");
        assertThatThrownBy(() -> options.toBuilder().maxRecordSize(-1).build())
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> options.toBuilder().maxBatchBytes(0).build())
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(options.toBuilder().build()).isEqualTo(options);
    }

    private List<Path> segmentFiles() throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> p.getFileName().toString().endsWith(".wal"))
                    .sorted()
                    .toList();
        }
    }
}
