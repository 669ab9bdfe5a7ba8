package io.kubeloop.apiserver.internal.storage.wal;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32C;

/**
 * The byte layout of segment files: a 16-byte segment header, then frames. All integers are
 * big-endian.
 *
 * <pre>
 * segment header: magic "KLOOPWAL" (8) | format version = 1 (int32) | reserved = 0 (int32)
 * frame:          length (int32) | crc32c (int32) | sequence (int64) | payload (length bytes)
 * </pre>
 *
 * The checksum is CRC32C over the length field, the sequence field and the payload, so a frame
 * whose length field was damaged cannot pass. A valid frame has {@code length >= 0},
 * {@code sequence >= 1} and a matching checksum. Stateless; the {@link CRC32C} passed in is the
 * caller's and not thread-safe.
 */
final class RecordFrame {

    static final int SEGMENT_HEADER_SIZE = 16;
    static final int HEADER_SIZE = 16;
    static final int FORMAT_VERSION = 1;
    private static final byte[] MAGIC = "KLOOPWAL".getBytes(StandardCharsets.US_ASCII);

    private RecordFrame() {}

    /** Result of checking the bytes at one offset. */
    sealed interface Check permits Valid, Invalid {}

    /** A complete frame whose checksum matches. */
    record Valid(long sequence, int payloadOffset, int payloadLength) implements Check {
        int end() {
            return payloadOffset + payloadLength;
        }
    }

    /** Not a valid frame; {@code reason} says why, e.g. "checksum mismatch". */
    record Invalid(String reason) implements Check {}

    static int frameSize(int payloadLength) {
        return HEADER_SIZE + payloadLength;
    }

    static void putSegmentHeader(ByteBuffer buf) {
        buf.put(MAGIC).putInt(FORMAT_VERSION).putInt(0);
    }

    /** Null when {@code buf} starts with a valid segment header, else what is wrong. */
    static String checkSegmentHeader(ByteBuffer buf) {
        if (buf.limit() < SEGMENT_HEADER_SIZE) {
            return "segment header incomplete (" + buf.limit() + " of " + SEGMENT_HEADER_SIZE + " bytes)";
        }
        for (int i = 0; i < MAGIC.length; i++) {
            if (buf.get(i) != MAGIC[i]) {
                return "not a kubeloop write-ahead log segment (bad magic)";
            }
        }
        int version = buf.getInt(MAGIC.length);
        if (version != FORMAT_VERSION) {
            return "unsupported segment format version " + version;
        }
        return null;
    }

    /** Writes one frame at {@code buf}'s position (which must have room) and advances it. */
    static void encode(ByteBuffer buf, long sequence, byte[] payload, CRC32C crc) {
        int start = buf.position();
        buf.putInt(payload.length).putInt(0).putLong(sequence).put(payload);
        buf.putInt(start + 4, checksum(buf, start, payload.length, crc));
    }

    /** Checks the frame at absolute offset {@code offset} of {@code buf}, bytes up to {@code buf.limit()}. */
    static Check check(ByteBuffer buf, int offset, CRC32C crc) {
        int available = buf.limit() - offset;
        if (available < HEADER_SIZE) {
            return new Invalid("frame header incomplete (" + available + " of " + HEADER_SIZE + " bytes)");
        }
        int length = buf.getInt(offset);
        if (length < 0) {
            return new Invalid("negative record length " + length);
        }
        if (length > available - HEADER_SIZE) {
            return new Invalid("record incomplete (length " + length + ", " + (available - HEADER_SIZE)
                    + " bytes left in the file)");
        }
        if (checksum(buf, offset, length, crc) != buf.getInt(offset + 4)) {
            return new Invalid("checksum mismatch");
        }
        long sequence = buf.getLong(offset + 8);
        if (sequence < 1) {
            return new Invalid("invalid sequence " + sequence);
        }
        return new Valid(sequence, offset + HEADER_SIZE, length);
    }

    /**
     * The first offset at or after {@code from} where a valid frame starts, or -1. Used after an
     * invalid frame to tell a torn tail (nothing valid follows) from corruption (valid frames
     * follow); a random match needs a plausible length and a 32-bit checksum hit.
     */
    static int findValidFrame(ByteBuffer buf, int from, CRC32C crc) {
        int limit = buf.limit();
        for (int offset = Math.max(from, 0); offset <= limit - HEADER_SIZE; offset++) {
            int length = buf.getInt(offset);
            if (length >= 0
                    && length <= limit - offset - HEADER_SIZE
                    && buf.getLong(offset + 8) >= 1
                    && checksum(buf, offset, length, crc) == buf.getInt(offset + 4)) {
                return offset;
            }
        }
        return -1;
    }

    private static int checksum(ByteBuffer buf, int offset, int length, CRC32C crc) {
        crc.reset();
        crc.update(buf.slice(offset, 4));
        crc.update(buf.slice(offset + 8, 8 + length));
        return (int) crc.getValue();
    }
}
