package io.kubeloop.apiserver.internal.storage.wal;

import io.kubeloop.apiserver.internal.fs.PrivateFiles;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * File names and directory operations of a log directory: segments are
 * {@code <20-digit number>.wal}, numbered from 1 in creation order. Stateless.
 */
final class Segments {

    private static final Pattern SEGMENT = Pattern.compile("(\\d{20})\\.wal");
    private static final boolean WINDOWS =
            System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("win");

    private Segments() {}

    static String name(long number) {
        return String.format(Locale.ROOT, "%020d.wal", number);
    }

    /** Segment numbers found in {@code dir}, ascending. */
    static List<Long> list(Path dir) throws IOException {
        List<Long> numbers = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                Matcher m = SEGMENT.matcher(p.getFileName().toString());
                if (m.matches()) {
                    numbers.add(Long.parseLong(m.group(1)));
                }
            }
        }
        numbers.sort(null);
        return numbers;
    }

    /**
     * Creates segment {@code number} holding just its header, forces it and the directory entry,
     * and returns it open for writing, positioned at the end.
     */
    static FileChannel create(Path dir, long number) throws IOException {
        Path file = dir.resolve(name(number));
        FileChannel ch = FileChannel.open(
                file,
                Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE),
                PrivateFiles.fileAttributes(dir));
        try {
            ByteBuffer header = ByteBuffer.allocate(RecordFrame.SEGMENT_HEADER_SIZE);
            RecordFrame.putSegmentHeader(header);
            header.flip();
            while (header.hasRemaining()) {
                ch.write(header);
            }
            ch.force(true);
            syncDirectory(dir);
            return ch;
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
    }

    /**
     * Forces the directory itself, making created, renamed and deleted entries durable. A no-op on
     * Windows, where a directory cannot be opened as a file.
     */
    static void syncDirectory(Path dir) throws IOException {
        if (WINDOWS) {
            return;
        }
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        }
    }
}
