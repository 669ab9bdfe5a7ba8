package io.kubeloop.cache;

import java.time.Duration;

/**
 * The handle of one {@link ResourceEventHandler} added to a {@link SharedIndexInformer}; pass it to
 * {@link SharedIndexInformer#removeEventHandler} to remove the handler.
 *
 * <p>Thread-safe.
 */
public interface ResourceEventHandlerRegistration {

    /**
     * True once the informer has synced and this handler has returned from every {@code onAdd}
     * flagged {@code isInInitialList} (client-go's registration {@code HasSynced}).
     */
    boolean hasSynced();

    /** How many notifications this handler threw on. */
    long handlerErrors();

    /** The resync period in effect for this handler (zero: none). */
    Duration resyncPeriod();
}
