package io.kubeloop.apiserver.internal.storage;

import java.time.Duration;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.TimeUnit;

/**
 * One open watch: the items its reader takes with {@link #next(Duration)}.
 *
 * <p>First come the replayed items decided at registration (initial ADDED events or history after the
 * requested revision, and the initial-events-end bookmark), unbounded because they were computed
 * atomically with registration; then live changes through a bounded buffer of
 * {@link StoreOptions#watchBufferSize()} items. Writers never wait for a reader: when the buffer is
 * full, the store ends the watch ({@link WatchItem.CloseReason#OVERFLOW}) after the already buffered
 * items — the client then re-watches from the last revision it saw, or relists on 410. This is what
 * the real API server's watch cache does with unresponsive watchers.
 *
 * <p><b>Thread safety.</b> One reader thread calls {@link #next}; the store's writers feed it under the
 * store lock; {@link #close()} may be called from any thread, any number of times.
 */
public final class Watcher implements AutoCloseable {

    private static final WatchItem STOPPED = new WatchItem.Closed(WatchItem.CloseReason.STOPPED);
    private static final WatchItem OVERFLOW = new WatchItem.Closed(WatchItem.CloseReason.OVERFLOW);

    private final WatchRequest request;
    private final VersionedStore store;
    /** Taken by the reader; inspected (never changed) under the store lock for bookmarks. */
    private final Deque<WatchItem> replay;
    /** Capacity = buffer size + 1: the spare slot is for the final Closed item. */
    private final BlockingQueue<WatchItem> live;

    private final int capacity;
    private volatile boolean closed;
    private boolean finished;

    Watcher(WatchRequest request, VersionedStore store, List<WatchItem> replay, int bufferSize) {
        this.request = request;
        this.store = store;
        this.replay = new ConcurrentLinkedDeque<>(replay);
        this.capacity = bufferSize;
        this.live = new ArrayBlockingQueue<>(bufferSize + 1);
    }

    /** The request this watch serves. */
    public WatchRequest request() {
        return request;
    }

    /**
     * The next item, waiting up to {@code timeout}; empty when nothing arrived in time. After a
     * {@link WatchItem.Closed} item every call returns that item again.
     */
    public Optional<WatchItem> next(Duration timeout) {
        if (finished) {
            return Optional.of(STOPPED);
        }
        WatchItem item = replay.pollFirst();
        if (item == null) {
            try {
                item = live.poll(timeout.toNanos(), TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                item = STOPPED;
            }
        }
        if (item instanceof WatchItem.Closed) {
            finished = true;
        }
        return Optional.ofNullable(item);
    }

    /**
     * A revision up to which this watch has delivered every change, when nothing is pending for it
     * (a bookmark may then be sent); empty while items are still queued.
     */
    public Optional<Long> progressRevision() {
        return store.progressRevision(this, request.initialEvents() ? 0 : Math.max(0, request.fromRevision()));
    }

    /** How many live events this watch buffers before the store ends it. */
    int bufferSize() {
        return capacity;
    }

    boolean idleLocked() {
        return replay.isEmpty() && live.isEmpty();
    }

    /** Ends the watch; the reader gets {@link WatchItem.Closed} (STOPPED) after the buffered items. */
    @Override
    public void close() {
        if (!closed) {
            closed = true;
            store.unregister(this);
            live.offer(STOPPED);
        }
    }

    boolean isClosed() {
        return closed;
    }

    /** Called under the store lock for each matching change. */
    void offerLocked(WatchItem item) {
        if (closed) {
            return;
        }
        if (live.size() >= capacity) {
            closed = true;
            store.unregister(this);
            store.terminatedLocked(this);
            live.offer(OVERFLOW);
            return;
        }
        live.offer(item);
    }
}
