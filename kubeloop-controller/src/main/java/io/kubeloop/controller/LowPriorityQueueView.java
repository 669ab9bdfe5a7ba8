package io.kubeloop.controller;

import io.kubeloop.workqueue.PriorityQueue;
import io.kubeloop.workqueue.RateLimitingQueue;
import java.time.Duration;
import java.util.Optional;

/**
 * A controller's priority queue as an event handler sees it for an unchanged object (initial list,
 * resync): {@code add} and {@code addAfter} go in at {@link PriorityQueue#LOW_PRIORITY}; everything
 * else is the queue's own. controller-runtime's {@code WithLowPriorityWhenUnchanged} does the same,
 * so handlers need not know about priorities.
 *
 * <p><b>Thread safety:</b> as the queue's.
 */
final class LowPriorityQueueView implements RateLimitingQueue<Request> {

    private static final PriorityQueue.AddOptions LOW =
            PriorityQueue.AddOptions.defaults().withPriority(PriorityQueue.LOW_PRIORITY);

    private final PriorityQueue<Request> queue;

    LowPriorityQueueView(PriorityQueue<Request> queue) {
        this.queue = queue;
    }

    @Override
    public void add(Request item) {
        queue.addWithOptions(item, LOW);
    }

    @Override
    public void addAfter(Request item, Duration delay) {
        queue.addWithOptions(item, LOW.withAfter(delay));
    }

    @Override
    public void addRateLimited(Request item) {
        queue.addWithOptions(item, LOW.withRateLimit());
    }

    @Override
    public void forget(Request item) {
        queue.forget(item);
    }

    @Override
    public int numRequeues(Request item) {
        return queue.numRequeues(item);
    }

    @Override
    public Optional<Request> get() {
        return queue.get();
    }

    @Override
    public void done(Request item) {
        queue.done(item);
    }

    @Override
    public int len() {
        return queue.len();
    }

    @Override
    public void shutDown() {
        queue.shutDown();
    }

    @Override
    public void shutDownWithDrain() {
        queue.shutDownWithDrain();
    }

    @Override
    public boolean isShuttingDown() {
        return queue.isShuttingDown();
    }

    @Override
    public void close() {
        queue.close();
    }
}
