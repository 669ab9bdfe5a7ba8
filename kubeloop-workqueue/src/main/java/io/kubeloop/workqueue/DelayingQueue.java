package io.kubeloop.workqueue;

import java.time.Duration;

/**
 * A {@link WorkQueue} that can also add an item later, as client-go's
 * {@code workqueue.DelayingInterface}: the way to requeue after a failure without a hot loop.
 *
 * <p><b>Invariants:</b> an item waits in the delay set at most once; a second
 * {@link #addAfter} for a waiting item keeps the <em>earlier</em> ready time. When its time comes
 * the item is {@link #add}ed with the usual deduplication. A plain {@code add} does not cancel a
 * pending delayed add. Ready times are measured with the configured {@link io.kubeloop.time.Ticker}.
 *
 * <p><b>Threads:</b> each delaying queue owns one waiting-loop thread, made by the configured
 * thread factory (a virtual thread by default) when the queue is created. {@link #shutDown()} and
 * {@link #shutDownWithDrain()} (after its drain) stop and join it; items still waiting are dropped.
 *
 * <p><b>Thread safety:</b> as {@link WorkQueue}; {@code addAfter} never blocks beyond a short
 * internal lock.
 *
 * @param <T> the item type
 * @see <a href="https://github.com/kubernetes/client-go/blob/master/util/workqueue/delaying_queue.go">client-go delaying_queue.go</a>
 */
public interface DelayingQueue<T> extends WorkQueue<T> {

    /**
     * Creates a delaying queue with the default configuration, starting its waiting loop.
     *
     * @param <T> the item type
     * @return a new, running queue
     */
    static <T> DelayingQueue<T> create() {
        return create(WorkQueueOptions.defaults());
    }

    /**
     * Creates a delaying queue, starting its waiting loop on a thread from
     * {@link WorkQueueOptions#threadFactory()}.
     *
     * @param config the configuration
     * @param <T> the item type
     * @return a new, running queue
     */
    static <T> DelayingQueue<T> create(WorkQueueOptions config) {
        return new DefaultDelayingQueue<>(new DefaultWorkQueue<>(config), config);
    }

    /**
     * Adds {@code item} once {@code delay} has passed. Ignored when shutting down. A zero or
     * negative delay adds at once. Every call on a running queue counts as a retry in the
     * {@code workqueue_retries_total} metric. Thread-safe.
     *
     * @param item the item; not null
     * @param delay how long to wait; not null
     * @throws NullPointerException if an argument is null
     */
    void addAfter(T item, Duration delay);

    /**
     * Shuts down the queue (see {@link WorkQueue#shutDown()}) and stops the waiting loop, waiting
     * for its thread to end; items still waiting for their time are dropped. Idempotent,
     * thread-safe; when called from the waiting-loop thread itself it does not wait for itself.
     */
    @Override
    void shutDown();
}
