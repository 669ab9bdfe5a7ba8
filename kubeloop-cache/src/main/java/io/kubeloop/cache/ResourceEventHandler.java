package io.kubeloop.cache;

/**
 * Receives an informer's notifications (client-go's {@code ResourceEventHandler}). Every method
 * has an empty default, so implement only what you need.
 *
 * <p><b>Delivery.</b> Calls for one handler are sequential, on that handler's own thread, in the
 * order the informer saw the changes; there is no order across handlers. A handler may be
 * arbitrarily slow without delaying the cache or other handlers (its backlog grows instead).
 * An exception is logged and counted ({@link ResourceEventHandlerRegistration#handlerErrors()})
 * and delivery goes on with the next notification.
 *
 * <p><b>What to expect.</b> Objects are the cache's shared instances: read-only. A delete and
 * re-create may show up as one {@code onUpdate} (UID is not identity). Relists and resyncs produce
 * {@code onUpdate} calls whose old and new objects have the same resourceVersion; handlers that do
 * not ask for a resync period still get those that come from relists when the informer has none.
 *
 * @param <T> the object type
 */
public interface ResourceEventHandler<T> {

    /**
     * An object appeared in the cache.
     *
     * @param isInInitialList true for objects of the informer's first list, and for the synthetic
     *        adds of every cached object that a handler registered after start receives
     */
    default void onAdd(T object, boolean isInInitialList) {}

    /** An object changed (or was resynced: then {@code oldObject} and {@code newObject} have the same resourceVersion). */
    default void onUpdate(T oldObject, T newObject) {}

    /**
     * An object changed or was resynced, with the informer's verdict on which: the informer compares
     * the two resourceVersions once, and every handler gets the answer. This is the method the
     * informer calls; the default calls {@link #onUpdate(Object, Object)}, so override either one.
     *
     * @param unchanged true exactly when {@code oldObject} and {@code newObject} have the same
     *        resourceVersion (a resync, or a relist that found the object as it was)
     */
    default void onUpdate(T oldObject, T newObject, boolean unchanged) {
        onUpdate(oldObject, newObject);
    }

    /**
     * An object was deleted.
     *
     * @param object its last known state
     * @param finalStateUnknown true when the deletion was inferred by a relist (client-go passes a
     *        {@link DeletedFinalStateUnknown} then): the object may be stale
     */
    default void onDelete(T object, boolean finalStateUnknown) {}
}
