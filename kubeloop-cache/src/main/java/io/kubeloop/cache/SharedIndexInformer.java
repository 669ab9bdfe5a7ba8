package io.kubeloop.cache;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * A cache of one collection, shared by any number of event handlers (client-go's
 * {@code SharedIndexInformer}): one {@link Reflector} feeds one {@code InformerQueue}, whose
 * consumer updates one {@link Indexer} and then notifies every handler through its own buffer and
 * thread.
 *
 * {@snippet :
 * SharedIndexInformer<DynamicObject> pods = SharedIndexInformer.create(
 *         ListerWatcher.of(client.resource(PODS, ResourceScope.NAMESPACED, DynamicObject.class).inAnyNamespace()),
 *         InformerOptions.defaults());
 * pods.addEventHandler(new ResourceEventHandler<>() {
 *     public void onAdd(DynamicObject pod, boolean initial) { queue.add(pod.key()); }
 * });
 * pods.start();
 * pods.waitForCacheSync(Duration.ofSeconds(30));
 * }
 *
 * <p><b>Guarantees.</b> The cache is eventually consistent with the server: after the last change,
 * it converges to the server's state. Changes to one object are applied and delivered in order;
 * there is no ordering across objects (a {@code DeltaFifo} informer even reorders them). A
 * handler sees the changes of the cache in order, sequentially, on its own thread. UID is not
 * identity: a delete and re-create can arrive as one update.
 *
 * <p><b>Non-guarantees.</b> The cache may lag the server; a lister read can be stale; a handler can
 * miss intermediate states (a relist only reports the latest). Objects are shared and read-only.
 *
 * <p><b>Thread safety.</b> Thread-safe. The informer owns its threads (reflector, queue consumer,
 * one per handler); {@link #close()} stops them and waits for them.
 *
 * @param <T> the object type
 */
public interface SharedIndexInformer<T> extends AutoCloseable {

    /** An informer over {@code listerWatcher}; call {@link #start()} to run it. */
    static <T> SharedIndexInformer<T> create(ListerWatcher<T> listerWatcher, InformerOptions options) {
        return new DefaultSharedIndexInformer<>(listerWatcher, options);
    }

    /**
     * Adds a handler with the informer's default resync period. Added after start, the handler
     * first gets an {@code onAdd(obj, true)} for every cached object.
     *
     * @throws IllegalStateException once the informer is stopped
     */
    ResourceEventHandlerRegistration addEventHandler(ResourceEventHandler<T> handler);

    /**
     * Adds a handler with its own resync period, adjusted as client-go does: a period in (0, 1 s)
     * becomes 1 s; a period below the informer's check period lowers the check period before
     * start and is raised to it after start; with an informer resync of zero there is no resync.
     *
     * @throws IllegalStateException once the informer is stopped
     */
    ResourceEventHandlerRegistration addEventHandler(ResourceEventHandler<T> handler, Duration resyncPeriod);

    /** Removes a handler; buffered notifications are dropped. Idempotent. */
    void removeEventHandler(ResourceEventHandlerRegistration registration);

    /** {@link #removeEventHandler}, then waits until the handler's thread ended: no callback runs after it returns. */
    void shutDownEventHandler(ResourceEventHandlerRegistration registration);

    /** The cache; read it (or a {@link Lister} over it), never write it. */
    Indexer<T> indexer();

    /**
     * Adds indexers; existing objects are indexed at once (allowed until the informer stops).
     *
     * @throws IllegalArgumentException for a name already registered
     * @throws IllegalStateException once the informer is stopped
     */
    void addIndexers(Map<String, IndexFunction<T>> indexers);

    /**
     * Sets the transform applied to every object before it is cached and delivered (e.g.
     * {@link Transforms#stripManagedFields()}). It must be fast and idempotent; it may change the
     * object it is given (nobody else has seen it) and never sees resyncs or tombstones.
     *
     * @throws IllegalStateException after {@link #start()}
     */
    void setTransform(UnaryOperator<T> transform);

    /**
     * The transform set with {@link #setTransform}, to compose another with it before start; null when none
     * was set.
     */
    UnaryOperator<T> transform();

    /**
     * Sets the handler of list-and-watch errors.
     *
     * @throws IllegalStateException after {@link #start()}
     */
    void setWatchErrorHandler(WatchErrorHandler handler);

    /** Starts the informer's threads; a second call does nothing. Returns at once. */
    void start();

    /** True once the first list has been applied to the cache and handed to every handler's buffer. */
    boolean hasSynced();

    /**
     * Waits until {@link #hasSynced()} or the timeout runs out.
     *
     * @return whether the informer has synced
     */
    boolean waitForCacheSync(Duration timeout);

    /** The resourceVersion of the last list or event the reflector saw. */
    String lastSyncResourceVersion();

    /**
     * Why this informer is not receiving: the error that ended its last list or watch (for a missing
     * permission, the server's {@link io.kubeloop.api.errors.ForbiddenException}, whose message names the
     * user, verb, resource and namespace), as long as no list, watch event or bookmark has succeeded
     * since. Empty while it runs without error, and before it starts.
     */
    Optional<RuntimeException> lastSyncError();

    /**
     * How long ago this informer last received something from the server — a list, a watch event or a
     * bookmark (which a working watch gets about every minute even when nothing changes); before it
     * starts, zero. On the informer's ticker.
     */
    Duration sinceLastReceived();

    /** True once {@link #close()} was called. */
    boolean isStopped();

    /** How many notifications all handlers together threw on. */
    long handlerErrors();

    /** Stops the informer and waits for its threads. Idempotent. */
    @Override
    void close();
}
