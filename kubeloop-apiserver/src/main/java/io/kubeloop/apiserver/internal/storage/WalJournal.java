package io.kubeloop.apiserver.internal.storage;

import io.kubeloop.apiserver.internal.storage.wal.Recovery;
import io.kubeloop.apiserver.internal.storage.wal.WalException;
import io.kubeloop.apiserver.internal.storage.wal.WriteAheadLog;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * The durable {@link Journal}: every {@link Mutation} becomes one {@link WriteAheadLog} record whose
 * sequence is its resourceVersion, and a checkpoint becomes a WAL snapshot of the whole state.
 *
 * <ul>
 *   <li>{@link #append} queues the record with {@link WriteAheadLog#appendAsync} (called under the store's
 *       commit lock, so records are queued in resourceVersion order) and returns a {@link Durability}
 *       that waits for the group commit's {@code fsync}. The WAL writes in queue order and completes
 *       group commits in order, which is the ordering {@link Journal} requires.</li>
 *   <li>{@link #replay} loads the newest snapshot and the records above it; {@link #recoveredRevision()}
 *       is the WAL's last sequence, so revisions continue strictly above every one handed out and
 *       persisted before the restart, including deletions a snapshot no longer lists.</li>
 *   <li>{@link #checkpoint} writes the state as a snapshot at the store's revision, after which the WAL
 *       deletes the segments it covers. {@link #checkpointDue()} asks for one every
 *       {@link WalJournalOptions#checkpointRecords()} records or {@link WalJournalOptions#checkpointBytes()}
 *       bytes.</li>
 *   <li>Failures: a {@link WalException} (I/O error, failed log) propagates from {@code append} or
 *       {@code Durability.await()}; the log is then failed for good and the store stops accepting writes
 *       (see {@link VersionedStore}). A failed checkpoint keeps the previous snapshot and the log.</li>
 * </ul>
 *
 * <p>Snapshot format (inside the WAL's checksummed snapshot file): the magic {@code KLJS}, a format
 * version (int32, 1), then per object a length (int32) and {@link Mutation#toBytes()}, and -1 as the end.
 *
 * <p><b>Thread safety.</b> As {@link Journal}: one appender at a time, concurrent awaits, checkpoints
 * concurrent with appends.
 */
public final class WalJournal implements Journal {

    private static final int MAGIC = 0x4B4C4A53; // "KLJS"
    private static final int VERSION = 1;

    private final WriteAheadLog wal;
    private final WalJournalOptions options;
    /** Records and record bytes since the last checkpoint (or recovery). */
    private final AtomicLong records = new AtomicLong();

    private final AtomicLong bytes = new AtomicLong();
    private volatile long recovered;
    /** Sequence of the newest snapshot. */
    private volatile long snapshotRevision;

    private WalJournal(WriteAheadLog wal, WalJournalOptions options) {
        this.wal = wal;
        this.options = options;
    }

    /**
     * Opens (and locks) the write-ahead log in {@code directory}; the store then calls {@link #replay}.
     *
     * @throws io.kubeloop.apiserver.internal.storage.wal.WalLockedException when another process uses the directory
     * @throws WalException when the directory cannot be created or locked
     */
    public static WalJournal open(Path directory, WalJournalOptions options) {
        Objects.requireNonNull(options, "options");
        return new WalJournal(WriteAheadLog.open(directory, options.wal()), options);
    }

    /** The underlying log (for tests and statistics). */
    public WriteAheadLog log() {
        return wal;
    }

    @Override
    public Durability append(Mutation mutation) {
        byte[] record = mutation.toBytes();
        CompletableFuture<Void> done = wal.appendAsync(mutation.resourceVersion(), record);
        records.incrementAndGet();
        bytes.addAndGet(record.length);
        return () -> await(done);
    }

    private static void await(CompletableFuture<Void> done) {
        try {
            done.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new WalException("write-ahead log append failed: " + e.getCause(), e.getCause());
        }
    }

    /**
     * Recovers the log: the snapshot's objects, then every record above it, in resourceVersion order.
     *
     * @throws WalException when the log is damaged beyond a torn tail (a {@code WalCorruptionException})
     *         or a record does not decode
     */
    @Override
    public void replay(Consumer<Mutation> sink) {
        Recovery r = wal.recover((seq, in) -> readSnapshot(in, sink), (seq, rec) -> {
            Mutation m = decode(rec);
            if (m.resourceVersion() != seq) {
                throw new WalException(
                        "write-ahead log record " + seq + " holds resourceVersion " + m.resourceVersion());
            }
            records.incrementAndGet();
            bytes.addAndGet(rec.length);
            sink.accept(m);
        });
        recovered = r.lastSequence();
        snapshotRevision = r.snapshotSequence();
    }

    @Override
    public long recoveredRevision() {
        return recovered;
    }

    /** Writes a snapshot at {@code revision} unless one at or above it exists; compacts the log. */
    @Override
    public void checkpoint(long revision, Iterable<Mutation> state) {
        if (revision <= snapshotRevision) {
            return;
        }
        long r0 = records.get();
        long b0 = bytes.get();
        wal.checkpoint(revision, out -> writeSnapshot(out, state));
        snapshotRevision = revision;
        records.addAndGet(-r0);
        bytes.addAndGet(-b0);
    }

    @Override
    public boolean checkpointDue() {
        return records.get() >= options.checkpointRecords() || bytes.get() >= options.checkpointBytes();
    }

    /** Flushes every queued record and closes the log (idempotent). */
    @Override
    public void close() {
        wal.close();
    }

    private static Mutation decode(byte[] rec) {
        try {
            return Mutation.fromBytes(rec);
        } catch (IllegalArgumentException e) {
            throw new WalException("write-ahead log: " + e.getMessage());
        }
    }

    static void writeSnapshot(OutputStream out, Iterable<Mutation> state) {
        try {
            DataOutputStream data = new DataOutputStream(out);
            data.writeInt(MAGIC);
            data.writeInt(VERSION);
            for (Mutation m : state) {
                byte[] b = m.toBytes();
                data.writeInt(b.length);
                data.write(b);
            }
            data.writeInt(-1);
            data.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static void readSnapshot(InputStream in, Consumer<Mutation> sink) {
        try {
            DataInputStream data = new DataInputStream(in);
            if (data.readInt() != MAGIC) {
                throw new WalException("journal snapshot: bad magic");
            }
            int version = data.readInt();
            if (version != VERSION) {
                throw new WalException("journal snapshot: unknown format version " + version);
            }
            for (int len = data.readInt(); len >= 0; len = data.readInt()) {
                sink.accept(decode(data.readNBytes(len)));
            }
        } catch (IOException e) {
            throw new WalException("journal snapshot: truncated (" + e + ")");
        }
    }
}
