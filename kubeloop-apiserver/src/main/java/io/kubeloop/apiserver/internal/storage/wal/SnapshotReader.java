package io.kubeloop.apiserver.internal.storage.wal;

import java.io.InputStream;

/**
 * Loads the snapshot found by {@link WriteAheadLog#recover}: exactly the bytes a
 * {@link SnapshotWriter} wrote, already verified against their checksum before this is called.
 * Not called when the directory holds no snapshot.
 */
@FunctionalInterface
public interface SnapshotReader {

    /**
     * Restores the state the snapshot holds.
     *
     * @param sequence the sequence the snapshot covers
     * @param in the snapshot's bytes; ends where the writer's output ended; closed by the log
     */
    void read(long sequence, InputStream in);
}
