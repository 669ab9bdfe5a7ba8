package io.kubeloop.workqueue;

/**
 * The state of one item known to a {@link DefaultWorkQueue}: at once the node of the queue's
 * {@link EntryTable} (hash chain), the node of its ready list, and the item's client-go state.
 *
 * <p>States and their meaning in client-go's terms:
 * <ul>
 *   <li>{@link #QUEUED}: dirty, not processing, in the ready list exactly once;</li>
 *   <li>{@link #PROCESSING}: handed to a worker, not dirty;</li>
 *   <li>{@link #PROCESSING_DIRTY}: handed to a worker and added again since; goes back to the
 *       ready list on {@code done};</li>
 *   <li>{@link #REMOVED}: done and clean; no longer in the table. The table may keep the object
 *       in its free list and reuse it, with a new item, for a later new item.</li>
 * </ul>
 * Transitions: new → QUEUED (add); QUEUED → PROCESSING (get); PROCESSING → PROCESSING_DIRTY (add);
 * PROCESSING_DIRTY → QUEUED (done); PROCESSING → REMOVED (done). No other transition exists while
 * the entry holds one item, so an item is never in the ready list twice and never handed to two
 * workers at once.
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

    /** The item; null only while the entry is REMOVED (free). */
    T item;
    /** The item's spread hash code, as {@link EntryTable#hash}. */
    int hash;
    /** One of the state constants; see the class comment for transitions. */
    private int state = QUEUED;
    /** Next entry in the same hash bucket, or in the free list; owned by {@link EntryTable}. */
    QueueEntry<T> nextInBucket;
    /** Next entry of the ready list (QUEUED entries only); owned by {@link DefaultWorkQueue}. */
    QueueEntry<T> nextReady;
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
