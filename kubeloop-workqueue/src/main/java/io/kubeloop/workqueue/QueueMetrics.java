package io.kubeloop.workqueue;

/**
 * The hooks a queue calls on its hot path to feed metrics. Exactly two implementations exist:
 * {@link #NOOP}, whose empty methods the JIT removes (queues without metrics pay nothing, not even a
 * clock read), and {@link MicrometerQueueMetrics}.
 *
 * <p>The work-queue hooks ({@code added}, {@code handedOut}, {@code done}) are called with the
 * queue's lock held, so they must be short and must not call back into the queue; {@code retried}
 * is called without it, possibly by several threads at once. Implementations must be thread-safe.
 */
interface QueueMetrics {

    /** The implementation used when metrics are off. */
    QueueMetrics NOOP = new QueueMetrics() {
        @Override
        public void added(QueueEntry<?> entry) {}

        @Override
        public void handedOut(QueueEntry<?> entry) {}

        @Override
        public void done(QueueEntry<?> entry) {}

        @Override
        public void retried() {}
    };

    /** An effective add: the entry became dirty (new, or added again while processing). */
    void added(QueueEntry<?> entry);

    /** The entry was handed to a worker by {@code get}. */
    void handedOut(QueueEntry<?> entry);

    /** A worker called {@code done} for the entry. */
    void done(QueueEntry<?> entry);

    /** {@code addAfter} was called on a running delaying queue (client-go counts every call). */
    void retried();
}
