/**
 * client-go's work queues: {@link io.kubeloop.workqueue.WorkQueue} (deduplicating, one worker per
 * item at a time), {@link io.kubeloop.workqueue.DelayingQueue}, {@link
 * io.kubeloop.workqueue.RateLimitingQueue} with its {@link io.kubeloop.workqueue.RateLimiter}s, and
 * {@link io.kubeloop.workqueue.PriorityQueue}; metrics through Micrometer.
 */
@SuppressWarnings({"requires-automatic", "requires-transitive-automatic"})
module io.kubeloop.workqueue {
    requires static com.google.errorprone.annotations;
    requires transitive io.kubeloop.time;
    requires transitive micrometer.core;

    exports io.kubeloop.workqueue;
}
