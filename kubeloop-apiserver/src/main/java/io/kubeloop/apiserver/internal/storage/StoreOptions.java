package io.kubeloop.apiserver.internal.storage;

import java.time.Duration;
import java.util.Objects;

/**
 * Tuning of a {@link VersionedStore}.
 *
 * <p>Immutable and thread-safe.
 *
 * @param historySize events kept for watches from a resourceVersion and for paging (default 10,000);
 *        older revisions answer 410 Expired
 * @param watchBufferSize events buffered per watcher before the server ends that watch (default 1,000)
 * @param futureRevisionWait how long a read at a revision newer than the store waits for it before
 *        failing with 504 (default 3 s, as the real server)
 */
public record StoreOptions(int historySize, int watchBufferSize, Duration futureRevisionWait) {

    public StoreOptions {
        if (historySize < 1) {
            throw new IllegalArgumentException("historySize must be at least 1, got " + historySize);
        }
        if (watchBufferSize < 1) {
            throw new IllegalArgumentException("watchBufferSize must be at least 1, got " + watchBufferSize);
        }
        Objects.requireNonNull(futureRevisionWait, "futureRevisionWait");
    }

    /** The defaults: 10,000 events of history, 1,000 per watcher, 3 s wait for future revisions. */
    public static StoreOptions defaults() {
        return new StoreOptions(10_000, 1_000, Duration.ofSeconds(3));
    }

    /** These options with another history size. */
    public StoreOptions withHistorySize(int size) {
        return new StoreOptions(size, watchBufferSize, futureRevisionWait);
    }

    /** These options with another per-watcher buffer. */
    public StoreOptions withWatchBufferSize(int size) {
        return new StoreOptions(historySize, size, futureRevisionWait);
    }

    /** These options with another wait for future revisions. */
    public StoreOptions withFutureRevisionWait(Duration wait) {
        return new StoreOptions(historySize, watchBufferSize, wait);
    }
}
