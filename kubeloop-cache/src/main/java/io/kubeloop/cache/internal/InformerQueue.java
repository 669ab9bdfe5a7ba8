package io.kubeloop.cache.internal;

import io.kubeloop.cache.Reflector;
import io.kubeloop.cache.ReflectorStore;

/**
 * The queue between a {@link Reflector} and the informer's processing (client-go's {@code Queue}):
 * the reflector writes deltas through the {@link ReflectorStore} methods; one consumer thread
 * {@link #pop pops} them. Two implementations: {@link RealFifo} (kubeloop's default, the in-order
 * FIFO of current client-go) and {@link DeltaFifo} (the classic per-key queue).
 *
 * <p><b>Observable differences.</b> A {@link RealFifo} keeps global arrival order and delivers
 * every change (an object changed twice is popped twice, deletions always queued); a relist is
 * one atomic entry. A {@link DeltaFifo} groups a key's deltas and delivers them all at the key's
 * first queue position, collapses duplicate deletions, and expands a relist into one delta per
 * key (plus tombstones).
 *
 * <p><b>Thread safety.</b> Producers may call from any thread; {@link #pop} has a single consumer.
 *
 * @param <T> the object type
 */
public interface InformerQueue<T> extends ReflectorStore<T> {

    /**
     * Waits for the next entry, removes it and hands it to {@code processor}. An exception from the
     * processor propagates; the entry is not requeued (client-go since 1.33).
     *
     * @return false when the queue is closed and empty (client-go's {@code ErrFIFOClosed}), or the
     *         thread was interrupted while waiting (its interrupt flag is then set again)
     */
    boolean pop(PopProcessor<T> processor);

    /**
     * True once the first {@link #replace} has been fully popped (and processed), or an
     * add/update/delete came before any replace. Never goes back to false.
     */
    boolean hasSynced();

    /** Closes the queue: {@link #pop} drains what is queued, then returns false. Idempotent. */
    void close();

    /** True once {@link #close()} was called. */
    boolean isClosed();

    /** The number of queued entries (keys for a DeltaFifo). */
    int size();
}
