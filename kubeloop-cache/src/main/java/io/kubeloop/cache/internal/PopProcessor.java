package io.kubeloop.cache.internal;

import java.util.List;

/**
 * The consumer an {@link InformerQueue} hands popped entries to (client-go's
 * {@code PopProcessFunc}). A {@link DeltaFifo} calls only {@link #process}; a {@link RealFifo}
 * calls {@link #process} with one delta at a time and, for relists and resyncs,
 * {@link #replaceAll} and {@link #resyncAll}.
 *
 * <p>Called on the queue's single consumer thread, one entry at a time.
 *
 * @param <T> the object type
 */
public interface PopProcessor<T> {

    /**
     * Applies the deltas of one key, oldest first (never empty).
     *
     * @param isInInitialList true while the queue has not synced: the deltas belong to the first list
     */
    void process(List<Delta<T>> deltas, boolean isInInitialList);

    /**
     * Applies a relist atomically (client-go's {@code ReplacedAll}): cached keys missing from
     * {@code objects} are deleted (tombstones), the cache content is replaced, then every object
     * is reported as added or updated in list order.
     *
     * @throws UnsupportedOperationException unless the processor handles atomic relists
     */
    default void replaceAll(List<T> objects, String resourceVersion, boolean isInInitialList) {
        throw new UnsupportedOperationException("this processor does not handle atomic relists");
    }

    /**
     * Resyncs every cached object (client-go's {@code SyncAll}).
     *
     * @throws UnsupportedOperationException unless the processor handles atomic resyncs
     */
    default void resyncAll() {
        throw new UnsupportedOperationException("this processor does not handle atomic resyncs");
    }
}
