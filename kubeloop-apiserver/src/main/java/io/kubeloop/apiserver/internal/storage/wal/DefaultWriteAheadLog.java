package io.kubeloop.apiserver.internal.storage.wal;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import io.kubeloop.apiserver.internal.fs.PrivateFiles;
import io.kubeloop.time.internal.Joins;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.zip.CRC32C;

/**
 * The {@link WriteAheadLog}: a queue of pending records drained by one flusher thread that writes
 * and forces each batch (group commit).
 *
 * <p>Locks, always taken in this order: {@link #checkpointLock} (one checkpoint at a time), then
 * {@link #ioLock} (the files), then {@link #lock} (the queue and the state). The flusher holds
 * {@code ioLock} while it writes and forces a batch, never {@code lock}; appenders hold only
 * {@code lock}, briefly; so appenders never wait for the disk, they queue while a batch is being
 * forced and the next batch takes them all.
 */
final class DefaultWriteAheadLog implements WriteAheadLog {

    /** Life cycle. OPEN: locked, not recovered. RUNNING: appends accepted. FAILED: an I/O error. */
    private enum State {
        OPEN,
        RECOVERING,
        RUNNING,
        FAILED,
        CLOSED
    }

    /** A queued append. */
    private record Pending(long sequence, byte[] record, CompletableFuture<Void> done) {}

    private final Path directory;
    private final WalOptions options;
    private final DirectoryLock directoryLock;

    private final ReentrantLock lock = new ReentrantLock();
    /** Signalled when {@link #pending} becomes non-empty or the state leaves RUNNING. */
    private final Condition changed = lock.newCondition();
    /** Guarded by lock. Records queued in call order, not yet taken by the flusher. */
    @GuardedBy("lock")
    private final ArrayDeque<Pending> pending = new ArrayDeque<>();
    /** Guarded by lock. */
    @GuardedBy("lock")
    private State state = State.OPEN;
    /** Guarded by lock. Set with state FAILED: the first write or force error. */
    @GuardedBy("lock")
    private WalException failure;
    /** Guarded by lock. Appends must use sequences above it: the recovered last sequence. */
    @GuardedBy("lock")
    private long floor;

    private final ReentrantLock ioLock = new ReentrantLock();
    /** Guarded by ioLock. Segments before the active one, by number; all forced. */
    @GuardedBy("ioLock")
    private final TreeMap<Long, LogRecovery.SealedSegment> sealed = new TreeMap<>();
    /** Guarded by ioLock. The segment appends go to; null until recovered and after close. */
    @GuardedBy("ioLock")
    private ActiveSegment active;
    /** Guarded by ioLock. Sequence of the newest snapshot, 0 when none. */
    @GuardedBy("ioLock")
    private long snapshotSequence;

    private final ReentrantLock checkpointLock = new ReentrantLock();
    /** Set once by recover; joined by close. */
    private volatile Thread flusher;

    private final AtomicLong records = new AtomicLong();
    private final AtomicLong bytes = new AtomicLong();
    private final AtomicLong batches = new AtomicLong();
    private final AtomicLong syncs = new AtomicLong();

    /** The segment being appended to. Guarded by ioLock. */
    private static final class ActiveSegment {
        final long number;
        final Path path;
        final FileChannel channel;
        long size = RecordFrame.SEGMENT_HEADER_SIZE;
        long maxSequence;
        long records;

        ActiveSegment(long number, Path path, FileChannel channel) {
            this.number = number;
            this.path = path;
            this.channel = channel;
        }
    }

    private DefaultWriteAheadLog(Path directory, WalOptions options, DirectoryLock directoryLock) {
        this.directory = directory;
        this.options = options;
        this.directoryLock = directoryLock;
    }

    static WriteAheadLog open(Path directory, WalOptions options) {
        Objects.requireNonNull(directory, "directory");
        Objects.requireNonNull(options, "options");
        Path dir = directory.toAbsolutePath().normalize();
        try {
            PrivateFiles.createDirectories(dir);
            return new DefaultWriteAheadLog(dir, options, DirectoryLock.acquire(dir));
        } catch (IOException e) {
            throw new WalException("cannot open write-ahead log in " + dir + ": " + e, e);
        }
    }

    @Override
    public Recovery recover(SnapshotReader snapshots, RecordConsumer consumer) {
        Objects.requireNonNull(snapshots, "snapshots");
        Objects.requireNonNull(consumer, "records");
        lock.lock();
        try {
            if (state != State.OPEN) {
                throw new IllegalStateException("recover() may be called once, on a freshly opened log; the log in "
                        + directory + " is " + state.name().toLowerCase(Locale.ROOT));
            }
            state = State.RECOVERING;
        } finally {
            lock.unlock();
        }
        ioLock.lock();
        try {
            LogRecovery.Result result = LogRecovery.run(directory, options, snapshots, consumer);
            for (LogRecovery.SealedSegment s : result.segments()) {
                sealed.put(s.number(), s);
            }
            snapshotSequence = result.recovery().snapshotSequence();
            active = createSegment(result.nextSegmentNumber());
            lock.lock();
            try {
                floor = result.recovery().lastSequence();
                state = State.RUNNING;
            } finally {
                lock.unlock();
            }
            Thread t = options.threadFactory().newThread(this::flushLoop);
            flusher = t;
            t.start();
            return result.recovery();
        } catch (IOException e) {
            throw new WalException("cannot recover write-ahead log in " + directory + ": " + e, e);
        } finally {
            ioLock.unlock();
        }
    }

    @Override
    public void append(long sequence, byte[] record) {
        try {
            appendAsync(sequence, record).join();
        } catch (CompletionException e) {
            throw new WalException(
                    "append of sequence " + sequence + " to " + directory + " failed: "
                            + e.getCause().getMessage(),
                    e.getCause());
        }
    }

    @Override
    public CompletableFuture<Void> appendAsync(long sequence, byte[] record) {
        Objects.requireNonNull(record, "record");
        if (record.length > options.maxRecordSize()) {
            throw new IllegalArgumentException(
                    "record of " + record.length + " bytes exceeds maxRecordSize " + options.maxRecordSize());
        }
        CompletableFuture<Void> done = new CompletableFuture<>();
        lock.lock();
        try {
            requireRunningLocked("append");
            if (sequence <= floor) {
                throw new IllegalArgumentException("sequence " + sequence + " is not above " + floor
                        + ", the last sequence recovered from " + directory);
            }
            pending.add(new Pending(sequence, record, done));
            if (pending.size() == 1) {
                changed.signal();
            }
        } finally {
            lock.unlock();
        }
        return done;
    }

    @GuardedBy("lock")
    private void requireRunningLocked(String operation) {
        switch (state) {
            case RUNNING -> {}
            case OPEN, RECOVERING ->
                throw new IllegalStateException(
                        "call recover() before " + operation + " on the write-ahead log in " + directory);
            case CLOSED -> throw new IllegalStateException("write-ahead log in " + directory + " is closed");
            case FAILED ->
                throw new WalException(
                        "write-ahead log in " + directory + " failed earlier and accepts no more writes: "
                                + failure.getMessage(),
                        failure);
        }
    }

    /** The flusher thread's loop: take a batch, write it, force it, complete it; until closed and drained. */
    private void flushLoop() {
        ByteBuffer buffer = ByteBuffer.allocateDirect(Math.max(options.maxBatchBytes(), 1 << 16));
        CRC32C crc = new CRC32C();
        List<Pending> batch = new ArrayList<>();
        while (true) {
            lock.lock();
            try {
                while (pending.isEmpty() && state == State.RUNNING) {
                    changed.awaitUninterruptibly();
                }
                if (pending.isEmpty() || state == State.FAILED) {
                    return;
                }
                long batchBytes = 0;
                do {
                    Pending p = pending.poll();
                    batch.add(p);
                    batchBytes += RecordFrame.frameSize(p.record().length);
                } while (!pending.isEmpty() && batchBytes < options.maxBatchBytes());
            } finally {
                lock.unlock();
            }
            try {
                ioLock.lock();
                try {
                    buffer = writeBatchLocked(batch, buffer, crc);
                } finally {
                    ioLock.unlock();
                }
            } catch (IOException | RuntimeException | Error e) {
                fail(e, batch);
                return;
            }
            for (Pending p : batch) {
                p.done().complete(null);
            }
            batch.clear();
        }
    }

    /** Writes {@code batch} to the active segment (rolling as needed) and forces it. Returns the buffer, maybe grown. */
    @GuardedBy("ioLock")
    private ByteBuffer writeBatchLocked(List<Pending> batch, ByteBuffer buffer, CRC32C crc) throws IOException {
        buffer.clear();
        long batchBytes = 0;
        for (Pending p : batch) {
            int frame = RecordFrame.frameSize(p.record().length);
            long segmentEnd = active.size + buffer.position();
            if (segmentEnd + frame > options.segmentSize() && segmentEnd > RecordFrame.SEGMENT_HEADER_SIZE) {
                drain(buffer);
                forceActiveLocked();
                rollLocked();
            }
            if (buffer.remaining() < frame) {
                drain(buffer);
                if (buffer.capacity() < frame) {
                    buffer = ByteBuffer.allocateDirect(Math.max(frame, buffer.capacity() * 2));
                }
            }
            RecordFrame.encode(buffer, p.sequence(), p.record(), crc);
            active.maxSequence = Math.max(active.maxSequence, p.sequence());
            active.records++;
            batchBytes += frame;
        }
        drain(buffer);
        forceActiveLocked();
        records.addAndGet(batch.size());
        bytes.addAndGet(batchBytes);
        batches.incrementAndGet();
        return buffer;
    }

    /** Writes the buffer's content at the end of the active segment and clears it. */
    @GuardedBy("ioLock")
    private void drain(ByteBuffer buffer) throws IOException {
        buffer.flip();
        while (buffer.hasRemaining()) {
            active.size += active.channel.write(buffer);
        }
        buffer.clear();
    }

    @GuardedBy("ioLock")
    private void forceActiveLocked() throws IOException {
        active.channel.force(false);
        syncs.incrementAndGet();
    }

    /** Seals the active segment (already forced) and starts the next one. */
    @GuardedBy("ioLock")
    private void rollLocked() throws IOException {
        ActiveSegment old = active;
        old.channel.close();
        sealed.put(old.number, new LogRecovery.SealedSegment(old.number, old.path, old.maxSequence, old.records));
        active = createSegment(old.number + 1);
    }

    private ActiveSegment createSegment(long number) throws IOException {
        FileChannel ch = Segments.create(directory, number);
        syncs.incrementAndGet();
        return new ActiveSegment(number, directory.resolve(Segments.name(number)), ch);
    }

    private void fail(Throwable cause, List<Pending> batch) {
        WalException error =
                new WalException("writing the write-ahead log in " + directory + " failed: " + cause, cause);
        List<Pending> failed = new ArrayList<>(batch);
        lock.lock();
        try {
            if (state == State.RUNNING) {
                state = State.FAILED;
            }
            failure = error;
            failed.addAll(pending);
            pending.clear();
            changed.signalAll();
        } finally {
            lock.unlock();
        }
        for (Pending p : failed) {
            p.done().completeExceptionally(error);
        }
    }

    @Override
    public Checkpoint checkpoint(long upToSequence, SnapshotWriter writer) {
        Objects.requireNonNull(writer, "writer");
        checkpointLock.lock();
        try {
            lock.lock();
            try {
                requireRunningLocked("checkpoint");
            } finally {
                lock.unlock();
            }
            long previous = currentSnapshotSequence();
            if (upToSequence <= previous) {
                throw new IllegalArgumentException(
                        "checkpoint sequence " + upToSequence + " is not above the newest snapshot's " + previous);
            }
            Path snapshot = SnapshotFile.write(directory, upToSequence, writer);
            int deleted = 0;
            ioLock.lock();
            try {
                snapshotSequence = upToSequence;
                if (active != null && active.records > 0 && active.maxSequence <= upToSequence) {
                    rollLocked();
                }
                for (Iterator<LogRecovery.SealedSegment> it = sealed.values().iterator(); it.hasNext(); ) {
                    LogRecovery.SealedSegment s = it.next();
                    if (s.maxSequence() <= upToSequence) {
                        Files.deleteIfExists(s.path());
                        it.remove();
                        deleted++;
                    }
                }
            } finally {
                ioLock.unlock();
            }
            if (previous > 0) {
                Files.deleteIfExists(directory.resolve(SnapshotFile.name(previous)));
            }
            return new Checkpoint(upToSequence, snapshot, Files.size(snapshot), deleted);
        } catch (IOException e) {
            throw new WalException("checkpoint at sequence " + upToSequence + " in " + directory + " failed: " + e, e);
        } finally {
            checkpointLock.unlock();
        }
    }

    private long currentSnapshotSequence() {
        ioLock.lock();
        try {
            return snapshotSequence;
        } finally {
            ioLock.unlock();
        }
    }

    @Override
    public WalStats stats() {
        int segments;
        ioLock.lock();
        try {
            segments = sealed.size() + (active == null ? 0 : 1);
        } finally {
            ioLock.unlock();
        }
        return new WalStats(records.get(), bytes.get(), batches.get(), syncs.get(), segments);
    }

    @Override
    public Path directory() {
        return directory;
    }

    /** For tests: how many appends are queued and not yet taken by the flusher. */
    int pendingCount() {
        lock.lock();
        try {
            return pending.size();
        } finally {
            lock.unlock();
        }
    }

    /** For tests: the lock the flusher holds while writing; holding it pauses group commits. */
    ReentrantLock ioLockForTest() {
        return ioLock;
    }

    @Override
    public void close() {
        lock.lock();
        try {
            if (state == State.CLOSED) {
                return;
            }
            state = State.CLOSED;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
        Joins.joinUninterruptibly(flusher);
        WalException error = null;
        ioLock.lock();
        try {
            if (active != null) {
                active.channel.close();
                active = null;
            }
        } catch (IOException e) {
            error = new WalException("closing the write-ahead log in " + directory + " failed: " + e, e);
        } finally {
            ioLock.unlock();
        }
        try {
            directoryLock.close();
        } catch (IOException e) {
            if (error == null) {
                error = new WalException("releasing the lock of " + directory + " failed: " + e, e);
            }
        }
        if (error != null) {
            throw error;
        }
    }
}
