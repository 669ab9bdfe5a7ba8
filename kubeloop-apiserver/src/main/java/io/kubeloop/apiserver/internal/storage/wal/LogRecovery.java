package io.kubeloop.apiserver.internal.storage.wal;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The recovery procedure of {@link WriteAheadLog#recover}: snapshot, segment scan, torn-tail and
 * corruption policy, replay in sequence order. Runs once, on the recovering thread, while the
 * directory lock is held and before the flusher starts; holds no state of its own.
 */
final class LogRecovery {

    /** A segment that recovery keeps, sealed: later appends go to a new segment. */
    record SealedSegment(long number, Path path, long maxSequence, long records) {}

    /** What the log needs to continue after recovery. */
    record Result(Recovery recovery, List<SealedSegment> segments, long nextSegmentNumber) {}

    private LogRecovery() {}

    static Result run(Path dir, WalOptions options, SnapshotReader snapshots, RecordConsumer records)
            throws IOException {
        deleteTempFiles(dir);

        long snapshotSequence = 0;
        List<Long> snapshotSequences = SnapshotFile.list(dir);
        if (!snapshotSequences.isEmpty()) {
            snapshotSequence = snapshotSequences.getLast();
            Path newest = dir.resolve(SnapshotFile.name(snapshotSequence));
            SnapshotFile.verify(newest, snapshotSequence);
            for (long older : snapshotSequences.subList(0, snapshotSequences.size() - 1)) {
                Files.deleteIfExists(dir.resolve(SnapshotFile.name(older)));
            }
            SnapshotFile.read(newest, snapshotSequence, snapshots);
        }

        List<Long> numbers = Segments.list(dir);
        long nextSegment = numbers.isEmpty() ? 1 : numbers.getLast() + 1;
        List<SegmentScanner.Entry> entries = new ArrayList<>();
        List<SealedSegment> kept = new ArrayList<>();
        List<Truncation> truncations = new ArrayList<>();
        SegmentScanner scanner = new SegmentScanner();
        long lastIntact = snapshotSequence;
        long maxSequence = snapshotSequence;
        for (int i = 0; i < numbers.size(); i++) {
            long number = numbers.get(i);
            SegmentScanner.Scan scan = scanner.scan(dir.resolve(Segments.name(number)), number);
            if (scan.lastSequence() > 0) {
                lastIntact = scan.lastSequence();
            }
            boolean keepScan = true;
            boolean stop = false;
            if (!scan.clean()) {
                boolean last = i == numbers.size() - 1;
                if (last && !scan.validFrameAfter()) {
                    truncations.add(new Truncation(
                            scan.file(),
                            scan.validEnd(),
                            scan.fileSize() - scan.validEnd(),
                            Truncation.Cause.TORN_TAIL,
                            scan.invalidReason()));
                    keepScan = cut(scan);
                } else {
                    String message = "write-ahead log segment " + scan.file() + " is corrupt at offset "
                            + scan.validEnd() + ": " + scan.invalidReason()
                            + (scan.validFrameAfter()
                                    ? ", and valid records follow it"
                                    : ", and it is not the last segment")
                            + "; last intact sequence before it: " + lastIntact;
                    if (options.corruptionPolicy() == CorruptionPolicy.FAIL) {
                        throw new WalCorruptionException(
                                scan.file(),
                                scan.validEnd(),
                                message
                                        + ". Nothing was changed; copy the directory for inspection, or recover with"
                                        + " CorruptionPolicy.TRUNCATE to keep only the records before the corruption");
                    }
                    Files.copy(scan.file(), Path.of(scan.file() + ".corrupt"), StandardCopyOption.REPLACE_EXISTING);
                    truncations.add(new Truncation(
                            scan.file(),
                            scan.validEnd(),
                            scan.fileSize() - scan.validEnd(),
                            Truncation.Cause.CORRUPTION,
                            scan.invalidReason()));
                    keepScan = cut(scan);
                    for (long later : numbers.subList(i + 1, numbers.size())) {
                        Path file = dir.resolve(Segments.name(later));
                        long size = Files.size(file);
                        Files.move(file, Path.of(file + ".corrupt"), StandardCopyOption.REPLACE_EXISTING);
                        truncations.add(new Truncation(
                                file,
                                0,
                                size,
                                Truncation.Cause.CORRUPTION,
                                "follows the corruption in " + scan.file().getFileName()));
                    }
                    stop = true;
                }
            }
            entries.addAll(scan.entries());
            maxSequence = Math.max(maxSequence, scan.maxSequence());
            if (keepScan) {
                kept.add(new SealedSegment(
                        number, scan.file(), scan.maxSequence(), scan.entries().size()));
            }
            if (stop) {
                break;
            }
        }

        long replayed = 0;
        final long covered = snapshotSequence;
        List<SegmentScanner.Entry> toReplay = new ArrayList<>(
                entries.stream().filter(e -> e.sequence() > covered).toList());
        toReplay.sort(Comparator.comparingLong(SegmentScanner.Entry::sequence));
        for (SegmentScanner.Entry e : toReplay) {
            records.accept(e.sequence(), e.copy());
            replayed++;
        }
        return new Result(new Recovery(snapshotSequence, maxSequence, replayed, truncations), kept, nextSegment);
    }

    /**
     * Cuts {@code scan}'s file at its valid end and forces the cut (so the garbage cannot come back
     * after the next crash, when this would no longer be the last segment); deletes the file when
     * no record is left. Returns whether the file still exists.
     */
    private static boolean cut(SegmentScanner.Scan scan) throws IOException {
        if (scan.entries().isEmpty()) {
            Files.delete(scan.file());
            return false;
        }
        try (FileChannel ch = FileChannel.open(scan.file(), StandardOpenOption.WRITE)) {
            ch.truncate(scan.validEnd());
            ch.force(true);
        }
        return true;
    }

    private static void deleteTempFiles(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                String name = p.getFileName().toString();
                if (name.startsWith("snapshot-") && name.endsWith(SnapshotFile.TEMP_SUFFIX)) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }
}
