package io.kubeloop.apiserver.internal.storage.wal;

import java.nio.file.Path;

/**
 * The log's directory holds bytes that are neither a valid record nor a torn tail left by a crash:
 * a bad checksum followed by valid records, an invalid record inside a segment that is not the
 * last one, or a snapshot whose checksum does not match. Recovery refuses to guess (unless
 * {@link CorruptionPolicy#TRUNCATE} was chosen) and changes nothing on disk, so the directory can
 * be copied for inspection. The message names the file, the byte offset, what is wrong and the
 * last sequence read intact before it.
 */
public final class WalCorruptionException extends WalException {
    private static final long serialVersionUID = 1L;

    private final transient Path file;
    private final long offset;

    public WalCorruptionException(Path file, long offset, String message) {
        super(message);
        this.file = file;
        this.offset = offset;
    }

    /** The corrupt segment or snapshot file. */
    public Path file() {
        return file;
    }

    /** Byte offset in {@link #file()} where the invalid data starts. */
    public long offset() {
        return offset;
    }
}
