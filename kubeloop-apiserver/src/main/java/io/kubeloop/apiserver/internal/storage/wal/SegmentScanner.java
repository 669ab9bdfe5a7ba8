package io.kubeloop.apiserver.internal.storage.wal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * Reads one segment file during recovery: maps it read-only, walks its frames from the header
 * on, and stops at the first invalid one. The mapping stays valid after the file is truncated as
 * long as only the bytes before the cut are read, which is all {@link Entry} points at.
 * Not thread-safe (one scanner per recovery).
 */
final class SegmentScanner {

    private final CRC32C crc = new CRC32C();

    /** One valid record: its payload lies in {@code segment} at {@code offset}. */
    record Entry(long sequence, ByteBuffer segment, int offset, int length) {
        byte[] copy() {
            byte[] bytes = new byte[length];
            segment.get(offset, bytes);
            return bytes;
        }
    }

    /**
     * The outcome for one segment.
     *
     * @param validEnd offset where the valid prefix ends (0 when even the header is invalid)
     * @param invalidReason null when the whole file is valid, else what is wrong at {@code validEnd}
     * @param validFrameAfter whether a valid frame exists somewhere after {@code validEnd}
     * @param lastSequence the sequence of the last valid record, 0 when none
     */
    record Scan(
            Path file,
            long number,
            long fileSize,
            List<Entry> entries,
            long maxSequence,
            long lastSequence,
            int validEnd,
            String invalidReason,
            boolean validFrameAfter) {
        boolean clean() {
            return invalidReason == null;
        }
    }

    Scan scan(Path file, long number) throws IOException {
        ByteBuffer buf;
        long size;
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            size = ch.size();
            if (size > Integer.MAX_VALUE) {
                throw new WalCorruptionException(
                        file,
                        0,
                        "write-ahead log segment " + file + " is " + size
                                + " bytes, larger than any segment this log writes");
            }
            buf = ch.map(FileChannel.MapMode.READ_ONLY, 0, size);
        }
        String headerProblem = RecordFrame.checkSegmentHeader(buf);
        if (headerProblem != null) {
            boolean after = RecordFrame.findValidFrame(buf, 1, crc) >= 0;
            return new Scan(file, number, size, List.of(), 0, 0, 0, headerProblem, after);
        }
        List<Entry> entries = new ArrayList<>();
        long max = 0;
        long last = 0;
        int offset = RecordFrame.SEGMENT_HEADER_SIZE;
        while (offset < buf.limit()) {
            switch (RecordFrame.check(buf, offset, crc)) {
                case RecordFrame.Valid v -> {
                    entries.add(new Entry(v.sequence(), buf, v.payloadOffset(), v.payloadLength()));
                    max = Math.max(max, v.sequence());
                    last = v.sequence();
                    offset = v.end();
                }
                case RecordFrame.Invalid inv -> {
                    boolean after = RecordFrame.findValidFrame(buf, offset + 1, crc) >= 0;
                    return new Scan(file, number, size, entries, max, last, offset, inv.reason(), after);
                }
            }
        }
        return new Scan(file, number, size, entries, max, last, offset, null, false);
    }
}
