package io.kubeloop.workqueue;

/**
 * The state of one item known to a {@link DefaultWorkQueue}: the value in the queue's item map and
 * the element of its ready queue.
 *
 * <p>States and their meaning in client-go's terms:
 * <ul>
 *   <li>{@link #QUEUED}: dirty, not processing, in the ready queue exactly once;</li>
 *   <li>{@link #PROCESSING}: handed to a worker, not dirty;</li>
 *   <li>{@link #PROCESSING_DIRTY}: handed to a worker and added again since; goes back to the
 *       ready queue on {@code done};</li>
 *   <li>{@link #REMOVED}: done and clean; no longer in the map and never used again.</li>
 * </ul>
 * Transitions: new → QUEUED (add); QUEUED → PROCESSING (get); PROCESSING → PROCESSING_DIRTY (add);
 * PROCESSING_DIRTY → QUEUED (done); PROCESSING → REMOVED (done). No other transition exists, so an
 * item is never in the ready queue twice and never handed to two workers at once.
 *
 * <p><b>Thread safety:</b> none of its own: every field is guarded by the owning queue's lock.
 *
 * @param <T> the item type
 */
final class QueueEntry<T> {

    static final int QUEUED = 0;
    static final int PROCESSING = 1;
    static final int PROCESSING_DIRTY = 2;
    static final int REMOVED = 3;

    final T item;
    /** One of the state constants; see the class comment for transitions. */
    private int state = QUEUED;
    /** Ticker instant of the add that made the entry dirty; metrics only. */
    long addedAtNanos;
    /** Ticker instant of the get that handed the entry out; metrics only. */
    long startedAtNanos;

    QueueEntry(T item) {
        this.item = item;
    }

    int state() {
        return state;
    }

    void setState(int newState) {
        state = newState;
    }
}
