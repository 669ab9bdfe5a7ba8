package io.kubeloop.workqueue;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The state of one item known to a {@link DefaultWorkQueue}: the node stored in the queue's item
 * map and in its ready queue.
 *
 * <p>States and their meaning in client-go's terms:
 * <ul>
 *   <li>{@link #QUEUED}: dirty, not processing, in the ready queue exactly once;</li>
 *   <li>{@link #PROCESSING}: handed to a worker, not dirty;</li>
 *   <li>{@link #PROCESSING_DIRTY}: handed to a worker and added again since; goes back to the
 *       ready queue on {@code done};</li>
 *   <li>{@link #REMOVED}: done and clean; the entry is being unlinked from the map and must not
 *       be used again (an adder that sees it helps to unlink it and starts a fresh entry).</li>
 * </ul>
 * Transitions: new → QUEUED (add); QUEUED → PROCESSING (get, only by the getter that polled the
 * entry); PROCESSING → PROCESSING_DIRTY (add, by CAS); PROCESSING_DIRTY → QUEUED (done, by CAS);
 * PROCESSING → REMOVED (done, by CAS). No other transition exists, so an item is never in the
 * ready queue twice and never handed to two workers at once.
 *
 * <p><b>Thread safety:</b> {@link #state} is accessed atomically; the metric timestamps are plain
 * fields, written before the state change that publishes them and read only for metrics, where a
 * stale value under a race is acceptable.
 *
 * @param <T> the item type
 */
final class QueueEntry<T> {

    static final int QUEUED = 0;
    static final int PROCESSING = 1;
    static final int PROCESSING_DIRTY = 2;
    static final int REMOVED = 3;

    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(QueueEntry.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final T item;
    /** One of the state constants; see the class comment for transitions. */
    private volatile int state = QUEUED;
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

    boolean casState(int expected, int newState) {
        return STATE.compareAndSet(this, expected, newState);
    }
}
