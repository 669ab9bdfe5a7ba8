package io.kubeloop.apiserver.internal.storage.wal;

/**
 * A write-ahead log operation failed because of the file system: an I/O error while writing,
 * forcing, reading or renaming a file of the log's directory. Subclasses name the two failures a
 * caller reacts to differently: {@link WalCorruptionException} (the directory's content is not a
 * valid log) and {@link WalLockedException} (another process owns the directory).
 *
 * <p>After an I/O error while appending the log is <em>failed</em>: the error completes every
 * pending append and every later append throws a {@code WalException} with the first error as its
 * cause. The state of the page cache after a failed {@code fsync} is unknown, so the only safe
 * continuation is to close the log and re-open (recover) it.
 */
public class WalException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public WalException(String message) {
        super(message);
    }

    public WalException(String message, Throwable cause) {
        super(message, cause);
    }
}
