package io.kubeloop.apiserver.internal.storage.wal;

import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;

/**
 * A write-ahead log of opaque records with group commit, snapshots and compaction: the
 * durability layer under the API server's in-memory store. The store owns the data and assigns
 * sequences (resourceVersions); the log only makes bytes durable and gives them back after a
 * restart.
 *
 * <h2>Life cycle</h2>
 * {@link #open} locks the directory; {@link #recover} loads the newest snapshot, replays the
 * records after it and reports the last sequence; then {@link #append} / {@link #appendAsync} and
 * {@link #checkpoint} may be called until {@link #close}.
 * {@snippet :
 * try (WriteAheadLog wal = WriteAheadLog.open(dataDir, WalOptions.defaults())) {
 *     Recovery r = wal.recover((seq, in) -> store.load(in), (seq, bytes) -> store.apply(bytes));
 *     long next = r.lastSequence() + 1;              // resourceVersions keep increasing
 *     wal.append(next, bytes);                       // returns once the record is on disk
 *     wal.checkpoint(next, out -> store.writeTo(out)); // now and then: bounds the log
 * }
 * }
 *
 * <h2>Durability guarantee</h2>
 * When {@code append} returns (or the future of {@code appendAsync} completes normally) the
 * record, and every record whose append was called before it, has been written and forced
 * ({@code FileChannel.force}, i.e. {@code fdatasync}) to its segment file, and the segment's
 * directory entry has been forced when the segment was created. After any crash, including
 * {@code kill -9} or a power cut on a disk that honours flushes, {@code recover} returns it. A
 * record whose append did not complete may or may not be recovered, but never partially: every
 * record is checksummed and a torn tail is cut off.
 *
 * <h2>On-disk format</h2>
 * The directory holds {@code wal.lock}, segments {@code <20-digit number>.wal} and at most one
 * snapshot {@code snapshot-<20-digit sequence>.snap} (two briefly during a checkpoint).
 * A segment is a 16-byte header ({@code "KLOOPWAL"}, format version 1, 4 reserved bytes) followed
 * by frames {@code length (int32) | crc32c (int32) | sequence (int64) | payload}, big-endian, the
 * CRC32C covering length, sequence and payload. A snapshot is a 24-byte header ({@code "KLOOPSNP"},
 * version, reserved, sequence), the caller's bytes, and a trailer (body length, CRC32C of header
 * and body, {@code "KLSNPEND"}); it is written to a {@code .tmp} file, forced, renamed atomically
 * and published by forcing the directory.
 *
 * <h2>Recovery policy</h2>
 * The first invalid frame ends a segment's valid prefix. In the last segment, if nothing valid
 * follows it, it is a torn tail: the unacknowledged end of the last group commit; it is truncated
 * (and the truncation forced) and reported as {@link Truncation.Cause#TORN_TAIL}. An invalid
 * frame with a valid frame after it, or in any segment but the last, or an invalid snapshot, is
 * corruption: by default ({@link CorruptionPolicy#FAIL}) {@code recover} throws
 * {@link WalCorruptionException} naming file, offset, reason and the last good sequence, and
 * changes nothing. Records are replayed in ascending sequence order whatever order they were
 * appended in. Every recovery starts a new segment.
 *
 * <h2>Sequences</h2>
 * Sequences are positive, unique, and above {@link Recovery#lastSequence()}; they need not arrive
 * in order (concurrent appenders). A record whose sequence is at or below the newest checkpoint is
 * kept but not replayed: the snapshot covers it.
 *
 * <h2>Thread safety</h2>
 * All methods are thread-safe. Appends from any number of threads (virtual threads included) are
 * queued and written by one flusher thread: each group commit takes every queued record (up to
 * {@link WalOptions#maxBatchBytes()}), writes them with one write and one {@code force}, then
 * completes them. Checkpoints are serialized with each other and run on the caller's thread,
 * concurrently with appends; recover and close are meant to be called once.
 */
public interface WriteAheadLog extends AutoCloseable {

    /**
     * Opens the log in {@code directory} (created if missing) and takes its lock. Reads nothing
     * yet: call {@link #recover} before appending.
     *
     * @param directory the log's own directory; created with its parents when missing
     * @param options tuning, {@link WalOptions#defaults()} for the defaults
     * @return the open, locked, not yet recovered log
     * @throws WalLockedException when another log, in this or another process, has it open
     * @throws WalException when the directory cannot be created or the lock file written
     */
    static WriteAheadLog open(Path directory, WalOptions options) {
        return DefaultWriteAheadLog.open(directory, options);
    }

    /**
     * Restores the state: hands the newest snapshot (if any) to {@code snapshots}, then every
     * record with a higher sequence to {@code records} in ascending sequence order, cuts off a
     * torn tail, starts a fresh segment and the flusher. Callable once, before any append.
     *
     * @param snapshots loads the newest snapshot; not called when there is none
     * @param records applies each replayed record, in ascending sequence order
     * @return what was found: snapshot sequence, last sequence, replay count, truncations
     * @throws WalCorruptionException on corruption under {@link CorruptionPolicy#FAIL}
     * @throws IllegalStateException when called twice or after close
     */
    Recovery recover(SnapshotReader snapshots, RecordConsumer records);

    /**
     * Appends one record and returns once it is durable (see the class's guarantee). The array is
     * not copied: do not change it until this returns. Not interruptible: a write that was queued
     * completes or fails.
     *
     * @param sequence positive, unique, above the recovered last sequence
     * @param record the bytes to persist, at most {@link WalOptions#maxRecordSize()}
     * @throws IllegalArgumentException for a sequence at or below the recovered last sequence, or
     *     a record larger than {@link WalOptions#maxRecordSize()}
     * @throws IllegalStateException before {@link #recover} or after {@link #close}
     * @throws WalException when writing or forcing failed (now or in an earlier group commit)
     */
    void append(long sequence, byte[] record);

    /**
     * Queues one record and returns at once; the future completes when the record is durable, or
     * exceptionally with a {@link WalException}. Records are written in the order of the calls
     * that queued them, so a caller that queues under its own lock (in sequence order) and waits
     * outside it gets both ordered segments and group commit. Same arguments and synchronous
     * exceptions as {@link #append}.
     *
     * @param sequence positive, unique, above the recovered last sequence
     * @param record the bytes to persist; not copied, do not change them until the future completes
     * @return completes when the record is durable
     */
    CompletableFuture<Void> appendAsync(long sequence, byte[] record);

    /**
     * Writes a snapshot of the state up to {@code upToSequence} (as produced by {@code writer},
     * on this thread) atomically and durably, then deletes the segments whose records all have
     * sequences at or below it and the older snapshot. The caller must make sure the state it
     * writes contains every record with a sequence up to {@code upToSequence} — after recovery
     * those records are no longer replayed. Appends continue meanwhile.
     *
     * @param upToSequence the sequence the snapshot covers, above the previous snapshot's
     * @param writer writes the state, on this thread
     * @return the snapshot file and how many segments were deleted
     * @throws IllegalArgumentException when {@code upToSequence} is not above the newest snapshot's
     * @throws IllegalStateException before {@link #recover} or after {@link #close}
     * @throws WalException when writing the snapshot failed; the log stays usable and the previous
     *     snapshot and segments are kept
     */
    Checkpoint checkpoint(long upToSequence, SnapshotWriter writer);

    /**
     * Counters since open.
     *
     * @return records, bytes, group commits, syncs and current segment count
     */
    WalStats stats();

    /**
     * The log's directory.
     *
     * @return the absolute, normalized directory given to {@link #open}
     */
    Path directory();

    /**
     * Writes and forces every queued record (their appends complete normally), stops the
     * flusher, closes the files and releases the directory lock. Later appends throw
     * {@link IllegalStateException}. Idempotent.
     */
    @Override
    void close();
}
