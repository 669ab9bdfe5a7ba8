package io.kubeloop.apiserver.internal.storage.wal;

import java.nio.file.Path;
import java.util.Objects;

/**
 * Bytes that recovery cut off a segment (or a whole segment it set aside).
 *
 * @param segment the segment file
 * @param offset where the cut starts, in bytes from the start of the file
 * @param discardedBytes how many bytes were discarded
 * @param cause torn tail (normal after a crash) or corruption (only under
 *     {@link CorruptionPolicy#TRUNCATE})
 * @param reason what was invalid at {@code offset}, e.g. {@code "checksum mismatch"}
 */
public record Truncation(Path segment, long offset, long discardedBytes, Cause cause, String reason) {

    public Truncation {
        Objects.requireNonNull(segment, "segment");
        Objects.requireNonNull(cause, "cause");
        Objects.requireNonNull(reason, "reason");
    }

    /** Why bytes were cut. */
    public enum Cause {
        /** An unfinished write at the end of the last segment: never acknowledged. */
        TORN_TAIL,
        /** Invalid bytes with valid records after them, cut under {@link CorruptionPolicy#TRUNCATE}. */
        CORRUPTION
    }
}
