package io.kubeloop.apiserver.internal.storage.wal;

import java.nio.file.Path;

/**
 * The data directory is already used by another write-ahead log: another process, or another
 * open log in this JVM, holds the lock on its lock file. Two writers on one directory would
 * corrupt it, so {@link WriteAheadLog#open} refuses; the message names the directory and, when the
 * owner wrote it, the owner's process id.
 */
public final class WalLockedException extends WalException {
    private static final long serialVersionUID = 1L;

    private final transient Path directory;

    public WalLockedException(Path directory, String message) {
        super(message);
        this.directory = directory;
    }

    /** The directory that is in use. */
    public Path directory() {
        return directory;
    }
}
