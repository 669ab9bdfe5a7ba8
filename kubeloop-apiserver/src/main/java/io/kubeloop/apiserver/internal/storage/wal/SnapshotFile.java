package io.kubeloop.apiserver.internal.storage.wal;

import io.kubeloop.apiserver.internal.fs.PrivateFiles;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.CRC32C;
import java.util.zip.CheckedInputStream;

/**
 * Snapshot files: {@code snapshot-<20-digit sequence>.snap}, written as
 * {@code snapshot-<sequence>.snap.tmp}, forced, renamed atomically and made durable by forcing the
 * directory. Integers big-endian:
 *
 * <pre>
 * header:  magic "KLOOPSNP" (8) | format version = 1 (int32) | reserved = 0 (int32) | sequence (int64)
 * body:    the SnapshotWriter's bytes
 * trailer: body length (int64) | crc32c of header and body (int32) | magic "KLSNPEND" (8)
 * </pre>
 *
 * A file whose trailer or checksum does not match is corrupt; a leftover {@code .tmp} (crash
 * during a checkpoint) is simply deleted. Stateless.
 */
final class SnapshotFile {

    private static final Pattern NAME = Pattern.compile("snapshot-(\\d{20})\\.snap");
    private static final byte[] MAGIC = "KLOOPSNP".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] END_MAGIC = "KLSNPEND".getBytes(StandardCharsets.US_ASCII);
    private static final int HEADER_SIZE = 24;
    private static final int TRAILER_SIZE = 20;
    static final String TEMP_SUFFIX = ".tmp";

    private SnapshotFile() {}

    static String name(long sequence) {
        return String.format(Locale.ROOT, "snapshot-%020d.snap", sequence);
    }

    /** Sequences of the snapshots in {@code dir}, ascending. */
    static List<Long> list(Path dir) throws IOException {
        List<Long> sequences = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                Matcher m = NAME.matcher(p.getFileName().toString());
                if (m.matches()) {
                    sequences.add(Long.parseLong(m.group(1)));
                }
            }
        }
        sequences.sort(null);
        return sequences;
    }

    /** Writes, forces and atomically publishes the snapshot of {@code sequence}; returns its final path. */
    static Path write(Path dir, long sequence, SnapshotWriter writer) throws IOException {
        Path target = dir.resolve(name(sequence));
        Path temp = dir.resolve(name(sequence) + TEMP_SUFFIX);
        boolean published = false;
        Files.deleteIfExists(temp); // a crash's leftover: created anew, owner-only
        try (FileChannel ch = FileChannel.open(
                temp,
                Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE),
                PrivateFiles.fileAttributes(dir))) {
            CRC32C crc = new CRC32C();
            ByteBuffer header = ByteBuffer.allocate(HEADER_SIZE)
                    .put(MAGIC)
                    .putInt(1)
                    .putInt(0)
                    .putLong(sequence);
            crc.update(header.array());
            writeFully(ch, header.flip());
            BodyStream body = new BodyStream(new BufferedOutputStream(Channels.newOutputStream(ch), 1 << 16), crc);
            writer.write(body);
            body.flush();
            ByteBuffer trailer = ByteBuffer.allocate(TRAILER_SIZE)
                    .putLong(body.count)
                    .putInt((int) crc.getValue())
                    .put(END_MAGIC);
            writeFully(ch, trailer.flip());
            ch.force(true);
            published = true;
        } finally {
            if (!published) {
                Files.deleteIfExists(temp);
            }
        }
        Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE);
        Segments.syncDirectory(dir);
        return target;
    }

    /** Checks the file's framing and checksum; throws {@link WalCorruptionException} when they fail. */
    static void verify(Path file, long expectedSequence) throws IOException {
        long size = Files.size(file);
        if (size < HEADER_SIZE + TRAILER_SIZE) {
            throw corrupt(file, 0, "is " + size + " bytes, too short for a snapshot");
        }
        CRC32C crc = new CRC32C();
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer header = ByteBuffer.allocate(HEADER_SIZE);
            readFully(ch, header, 0);
            if (!Arrays.equals(header.array(), 0, MAGIC.length, MAGIC, 0, MAGIC.length)
                    || header.getInt(8) != 1
                    || header.getLong(16) != expectedSequence) {
                throw corrupt(file, 0, "has an invalid header");
            }
            ByteBuffer trailer = ByteBuffer.allocate(TRAILER_SIZE);
            readFully(ch, trailer, size - TRAILER_SIZE);
            long bodyLength = trailer.getLong(0);
            if (bodyLength != size - HEADER_SIZE - TRAILER_SIZE
                    || !Arrays.equals(trailer.array(), 12, TRAILER_SIZE, END_MAGIC, 0, END_MAGIC.length)) {
                throw corrupt(file, size - TRAILER_SIZE, "has an invalid trailer (incomplete file?)");
            }
            try (InputStream in = new CheckedInputStream(Channels.newInputStream(ch.position(0)), crc)) {
                long remaining = size - TRAILER_SIZE;
                byte[] chunk = new byte[1 << 16];
                while (remaining > 0) {
                    int n = in.read(chunk, 0, (int) Math.min(chunk.length, remaining));
                    if (n < 0) {
                        throw corrupt(file, size - remaining, "ended early while reading");
                    }
                    remaining -= n;
                }
            }
            if ((int) crc.getValue() != trailer.getInt(8)) {
                throw corrupt(file, HEADER_SIZE, "fails its checksum");
            }
        }
    }

    /** Hands the verified body of {@code file} to {@code reader}. */
    static void read(Path file, long sequence, SnapshotReader reader) throws IOException {
        long bodyLength = Files.size(file) - HEADER_SIZE - TRAILER_SIZE;
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ);
                InputStream in = new BufferedInputStream(Channels.newInputStream(ch.position(HEADER_SIZE)), 1 << 16)) {
            reader.read(sequence, new BoundedInputStream(in, bodyLength));
        }
    }

    private static WalCorruptionException corrupt(Path file, long offset, String what) {
        return new WalCorruptionException(file, offset, "snapshot " + file + " " + what + " (offset " + offset + ")");
    }

    private static void writeFully(FileChannel ch, ByteBuffer buf) throws IOException {
        while (buf.hasRemaining()) {
            ch.write(buf);
        }
    }

    private static void readFully(FileChannel ch, ByteBuffer buf, long position) throws IOException {
        while (buf.hasRemaining()) {
            if (ch.read(buf, position + buf.position()) < 0) {
                throw new IOException("unexpected end of " + ch);
            }
        }
    }

    /** Counts and checksums the body; ignores close so the writer cannot close the file early. */
    private static final class BodyStream extends FilterOutputStream {
        private final CRC32C crc;
        private long count;

        BodyStream(OutputStream out, CRC32C crc) {
            super(out);
            this.crc = crc;
        }

        @Override
        public void write(int b) throws IOException {
            out.write(b);
            crc.update(b);
            count++;
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
            crc.update(b, off, len);
            count += len;
        }

        @Override
        public void close() throws IOException {
            flush();
        }
    }

    /** Ends after {@code remaining} bytes, before the trailer. */
    private static final class BoundedInputStream extends InputStream {
        private final InputStream in;
        private long remaining;

        BoundedInputStream(InputStream in, long remaining) {
            this.in = in;
            this.remaining = remaining;
        }

        @Override
        public int read() throws IOException {
            if (remaining <= 0) {
                return -1;
            }
            int b = in.read();
            if (b >= 0) {
                remaining--;
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (remaining <= 0) {
                return len == 0 ? 0 : -1;
            }
            int n = in.read(b, off, (int) Math.min(len, remaining));
            if (n > 0) {
                remaining -= n;
            }
            return n;
        }
    }
}
