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
 *   <li>{@link #DONE}: done and clean, by {@code done}'s lock-free path, but still linked in the
 *       table (a tombstone): for every purpose the item is unknown to the queue; the next lock
 *       holder that meets the entry unlinks it (then REMOVED);</li>
 *   <li>{@link #REMOVED}: done and clean; no longer in the table. The table may keep the object
 *       in its free list and reuse it, with a new item, for a later new item.</li>
 * </ul>
 * Transitions: new → QUEUED (add); QUEUED → PROCESSING (get); PROCESSING → PROCESSING_DIRTY (add);
 * PROCESSING_DIRTY → QUEUED (done); PROCESSING → REMOVED (done, locked); PROCESSING → DONE (done,
 * lock-free); DONE → REMOVED (unlinked by a lock holder). No other transition exists while the
 * entry holds one item, so an item is never in the ready list twice and never handed to two
 * workers at once.
 *
 * <p><b>Thread safety:</b> every field but {@link #state} is guarded by the owning queue's lock.
 * {@code state} is written under the lock too, with one exception: {@code done}'s lock-free path
 * moves PROCESSING → DONE by {@link #casState} without it. So the two transitions out of
 * PROCESSING (to PROCESSING_DIRTY under the lock, to DONE without it) are both compare-and-set and
 * exactly one of two racing ones wins; every other transition starts from a state that only lock
 * holders leave, and is a release-store.
 *
 * @param <T> the item type
 */
final class QueueEntry<T> {

    static final int QUEUED = 0;
    static final int PROCESSING = 1;
    static final int PROCESSING_DIRTY = 2;
    static final int REMOVED = 3;
    static final int DONE = 4;

    private static final java.lang.invoke.VarHandle STATE;

    static {
        try {
            STATE = java.lang.invoke.MethodHandles.lookup().findVarHandle(QueueEntry.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The item; null only while the entry is REMOVED (free). */
    T item;
    /** The item's spread hash code, as {@link EntryTable#hash}. */
    int hash;
    /** One of the state constants; see the class comment for transitions and access modes. */
    @SuppressWarnings("unused") // through STATE
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

    /** The state, with acquire semantics. */
    int state() {
        return (int) STATE.getAcquire(this);
    }

    /** The state, read as a volatile (for the drain check, which races with lock-free done). */
    int stateVolatile() {
        return (int) STATE.getVolatile(this);
    }

    /** Sets the state with release semantics; only for transitions no lock-free path races with. */
    void setState(int newState) {
        STATE.setRelease(this, newState);
    }

    /** Atomically moves the state from {@code expected} to {@code next}; false if it was not expected. */
    boolean casState(int expected, int next) {
        return STATE.compareAndSet(this, expected, next);
    }
}
