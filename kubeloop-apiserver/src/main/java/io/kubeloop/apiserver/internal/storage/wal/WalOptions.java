package io.kubeloop.apiserver.internal.storage.wal;

import java.util.Objects;
import java.util.concurrent.ThreadFactory;

/**
 * Tuning of a {@link WriteAheadLog}. Build with {@link #builder()}, derive with {@link #toBuilder()}.
 *
 * <p>Defaults (also the builder's starting values):
 * <ul>
 * <li>{@code segmentSize} 64 MiB: a segment is closed and a new one started before a record would
 *     make it larger; a segment exceeds the size only when it holds one record larger than it.</li>
 * <li>{@code maxRecordSize} 16 MiB: larger appends are rejected.</li>
 * <li>{@code maxBatchBytes} 1 MiB: one group commit takes pending records until their frames
 *     reach this size (at least one record per commit).</li>
 * <li>{@code corruptionPolicy} {@link CorruptionPolicy#FAIL}.</li>
 * <li>{@code threadFactory} makes the one flusher thread: a daemon platform thread named
 *     {@code kubeloop-wal-flusher} (file I/O would pin a virtual thread's carrier anyway).</li>
 * </ul>
 *
 * <p>Immutable and thread-safe when the thread factory is.
 *
 * @param segmentSize target size of a segment file in bytes, 256 B to 1 GiB
 * @param maxRecordSize largest record accepted, 0 to 256 MiB
 * @param maxBatchBytes bytes of frames one group commit gathers before it writes, at least 1
 * @param corruptionPolicy what recovery does on corruption that is not a torn tail
 * @param threadFactory makes the flusher thread
 */
public record WalOptions(
        long segmentSize,
        int maxRecordSize,
        int maxBatchBytes,
        CorruptionPolicy corruptionPolicy,
        ThreadFactory threadFactory) {

    static final long MIN_SEGMENT_SIZE = 256;
    static final long MAX_SEGMENT_SIZE = 1L << 30;
    static final int MAX_RECORD_SIZE_LIMIT = 256 << 20;

    public WalOptions {
        if (segmentSize < MIN_SEGMENT_SIZE || segmentSize > MAX_SEGMENT_SIZE) {
            throw new IllegalArgumentException("segmentSize must be between " + MIN_SEGMENT_SIZE + " and "
                    + MAX_SEGMENT_SIZE + " bytes, got " + segmentSize);
        }
        if (maxRecordSize < 0 || maxRecordSize > MAX_RECORD_SIZE_LIMIT) {
            throw new IllegalArgumentException(
                    "maxRecordSize must be between 0 and " + MAX_RECORD_SIZE_LIMIT + " bytes, got " + maxRecordSize);
        }
        if (maxBatchBytes < 1) {
            throw new IllegalArgumentException("maxBatchBytes must be at least 1, got " + maxBatchBytes);
        }
        Objects.requireNonNull(corruptionPolicy, "corruptionPolicy");
        Objects.requireNonNull(threadFactory, "threadFactory");
    }

    /** The defaults listed above. */
    public static WalOptions defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A builder starting from these values. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.segmentSize = segmentSize;
        b.maxRecordSize = maxRecordSize;
        b.maxBatchBytes = maxBatchBytes;
        b.corruptionPolicy = corruptionPolicy;
        b.threadFactory = threadFactory;
        return b;
    }

    /** Mutable builder; not thread-safe. Setters return this builder. */
    public static final class Builder {
        private long segmentSize = 64L << 20;
        private int maxRecordSize = 16 << 20;
        private int maxBatchBytes = 1 << 20;
        private CorruptionPolicy corruptionPolicy = CorruptionPolicy.FAIL;
        private ThreadFactory threadFactory =
                Thread.ofPlatform().name("kubeloop-wal-flusher").daemon(true).factory();

        private Builder() {}

        public Builder segmentSize(long segmentSize) {
            this.segmentSize = segmentSize;
            return this;
        }

        public Builder maxRecordSize(int maxRecordSize) {
            this.maxRecordSize = maxRecordSize;
            return this;
        }

        public Builder maxBatchBytes(int maxBatchBytes) {
            this.maxBatchBytes = maxBatchBytes;
            return this;
        }

        public Builder corruptionPolicy(CorruptionPolicy corruptionPolicy) {
            this.corruptionPolicy = corruptionPolicy;
            return this;
        }

        public Builder threadFactory(ThreadFactory threadFactory) {
            this.threadFactory = threadFactory;
            return this;
        }

        public WalOptions build() {
            return new WalOptions(segmentSize, maxRecordSize, maxBatchBytes, corruptionPolicy, threadFactory);
        }
    }
}
