package io.kubeloop.apiserver.internal.storage;

import io.kubeloop.apiserver.internal.storage.wal.WalOptions;
import java.util.Objects;

/**
 * Tuning of a {@link WalJournal}: the write-ahead log's own options and when to ask the store for a
 * checkpoint (snapshot + compaction of the log).
 *
 * <p>A checkpoint is due once {@code checkpointRecords} records or {@code checkpointBytes} bytes of
 * records have been appended since the last one (or since recovery, counting the replayed records). It
 * bounds both the disk the log takes and the replay time after a restart. The defaults (10,000
 * records or 64 MiB) keep a restart's replay well under a second for typical objects, while a checkpoint
 * of 10,000 small objects costs a few milliseconds of lock time to copy references and a background
 * write of the snapshot.
 *
 * <p>Immutable and thread-safe when the WAL options are.
 *
 * @param wal options of the underlying {@link io.kubeloop.apiserver.internal.storage.wal.WriteAheadLog}
 * @param checkpointRecords records after which a checkpoint is due, at least 1
 * @param checkpointBytes record bytes after which a checkpoint is due, at least 1
 */
public record WalJournalOptions(WalOptions wal, long checkpointRecords, long checkpointBytes) {

    public WalJournalOptions {
        Objects.requireNonNull(wal, "wal");
        if (checkpointRecords < 1) {
            throw new IllegalArgumentException("checkpointRecords must be at least 1, got " + checkpointRecords);
        }
        if (checkpointBytes < 1) {
            throw new IllegalArgumentException("checkpointBytes must be at least 1, got " + checkpointBytes);
        }
    }

    /** WAL defaults; a checkpoint every 10,000 records or 64 MiB. */
    public static WalJournalOptions defaults() {
        return new WalJournalOptions(WalOptions.defaults(), 10_000, 64L << 20);
    }

    /** These options with other checkpoint thresholds. */
    public WalJournalOptions withCheckpointEvery(long records, long bytes) {
        return new WalJournalOptions(wal, records, bytes);
    }

    /** These options with other WAL options. */
    public WalJournalOptions withWal(WalOptions w) {
        return new WalJournalOptions(w, checkpointRecords, checkpointBytes);
    }
}
