package io.kubeloop.workqueue;

import java.util.Optional;
import java.util.concurrent.CancellationException;

/**
 * A deduplicating work queue as client-go's {@code workqueue.Interface}: producers {@link #add}
 * items (typically object keys), workers {@link #get} them, process them and call {@link #done}.
 *
 * <p><b>Invariants</b> (each holds for any interleaving of calls from any threads):
 * <ul>
 *   <li>An item is never handed to two workers at once: after {@code get} returned it, no
 *       {@code get} returns it again until {@code done} was called for it.</li>
 *   <li>An item added several times before a worker takes it is handed out once.</li>
 *   <li>An item added while it is being processed is handed out exactly once more, after
 *       {@code done}.</li>
 *   <li>Otherwise items are handed out in the order they were added (FIFO); an item re-queued by
 *       {@code done} goes to the back.</li>
 *   <li>An item handed out is never forgotten: it stays in flight until {@code done}.</li>
 * </ul>
 * Items are compared with {@code equals}/{@code hashCode} and must not be null; use immutable
 * values such as records (an {@code ObjectKey}). Adding an item that is already queued does not
 * allocate.
 *
 * <p><b>Shutdown:</b> after {@link #shutDown()} new adds are ignored, but items already queued are
 * still handed out; {@code get} returns an empty {@link Optional} only once the queue is shut down
 * and empty, which tells a worker to exit. {@code done} still re-queues an item added during its
 * processing (before the shutdown), so a worker that keeps calling {@code get} until it returns
 * empty sees it. {@link #shutDownWithDrain()} also waits until every item in flight is done.
 *
 * <p><b>Thread safety:</b> every method may be called by any number of threads at once; each is
 * atomic with respect to the others (the default implementation holds one short lock, see the
 * package's concurrency note). {@code get} and {@code shutDownWithDrain} block and respond to
 * interruption by throwing {@link CancellationException} with the thread's interrupt flag set
 * again; no other method blocks beyond that lock.
 *
 * @param <T> the item type
 * @see DelayingQueue
 * @see RateLimitingQueue
 * @see <a href="https://github.com/kubernetes/client-go/blob/master/util/workqueue/queue.go">client-go queue.go</a>
 */
public interface WorkQueue<T> extends AutoCloseable {

    /**
     * Creates a queue with the default configuration.
     *
     * @param <T> the item type
     * @return a new, running queue
     */
    static <T> WorkQueue<T> create() {
        return create(WorkQueueOptions.defaults());
    }

    /**
     * Creates a queue. A plain queue starts no thread; only the ticker and metrics of
     * {@code config} are used.
     *
     * @param config the configuration
     * @param <T> the item type
     * @return a new, running queue
     */
    static <T> WorkQueue<T> create(WorkQueueOptions config) {
        return new DefaultWorkQueue<>(config);
    }

    /**
     * Marks {@code item} as needing processing. Ignored when shutting down or when the item is
     * already dirty (queued, or added again while processing). If the item is being processed it
     * is queued again only after {@link #done}. Never blocks; thread-safe.
     *
     * @param item the item; not null
     * @throws NullPointerException if {@code item} is null
     */
    void add(T item);

    /**
     * Blocks until an item can be processed and hands it to the caller, who must call
     * {@link #done} with it when finished. Thread-safe.
     *
     * @return the item, or empty once the queue is shut down and has no queued item left (the
     *     caller should then stop)
     * @throws CancellationException if the calling thread is interrupted while waiting (its
     *     interrupt flag is set again)
     */
    Optional<T> get();

    /**
     * Marks {@code item} as processed. If it was added again while being processed it is queued
     * again (even after shutdown). Ignored if {@code item} is not being processed (null too).
     * Unlike client-go, whose {@code Done} of an item that is queued but not being processed
     * queues it a second time (so it could then reach two workers at once), this keeps the
     * invariant that an item is never handed to two workers at once. Never blocks; thread-safe.
     *
     * @param item the item returned by {@link #get}
     */
    void done(T item);

    /**
     * Returns how many items are queued and not yet handed out, for information only: do not gate
     * {@code add} or {@code get} on it. Items being processed are not counted. Thread-safe.
     *
     * @return the number of queued items
     */
    int len();

    /**
     * Makes the queue ignore new items and wakes every blocked {@link #get}; does not wait for
     * workers (a {@link DelayingQueue} also stops its waiting-loop thread and joins it, which takes
     * no longer than that thread needs to notice). Idempotent, thread-safe; also aborts a
     * {@link #shutDownWithDrain()} waiting in another thread.
     */
    void shutDown();

    /**
     * Like {@link #shutDown()}, then waits until every item handed out has been {@link #done}.
     * Workers must call {@code done} for every item they get, or this waits forever (unless another
     * thread calls {@link #shutDown()}, which ends the wait). Thread-safe.
     *
     * @throws CancellationException if the calling thread is interrupted while waiting (its
     *     interrupt flag is set again)
     */
    void shutDownWithDrain();

    /**
     * Returns whether {@link #shutDown()} or {@link #shutDownWithDrain()} was called. Thread-safe.
     *
     * @return true once shutting down
     */
    boolean isShuttingDown();

    /** Same as {@link #shutDown()}, for try-with-resources. */
    @Override
    void close();
}
