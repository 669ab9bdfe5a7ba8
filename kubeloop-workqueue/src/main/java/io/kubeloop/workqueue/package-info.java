/**
 * Work queues as client-go's {@code util/workqueue}: deduplicating, delaying and rate-limited
 * queues and their rate limiters. Stands alone, with no Kubernetes dependency.
 *
 * <p>The layers compose as in client-go: {@link io.kubeloop.workqueue.WorkQueue} (add, get, done,
 * shutdown) → {@link io.kubeloop.workqueue.DelayingQueue} (addAfter) →
 * {@link io.kubeloop.workqueue.RateLimitingQueue} (addRateLimited, forget, numRequeues, with a
 * {@link io.kubeloop.workqueue.RateLimiter}). Configuration is the immutable
 * {@link io.kubeloop.workqueue.WorkQueueConfig}: name, {@link io.kubeloop.workqueue.Ticker} (time;
 * {@link io.kubeloop.workqueue.FakeTicker} for tests), {@link io.kubeloop.workqueue.MetricsProvider}
 * (Micrometer with client-go's metric names, or none) and the thread factory of the delaying loop.
 * There is no static mutable state.
 *
 * <h2>Concurrency</h2>
 * <ul>
 *   <li><b>Threads.</b> A plain work queue starts none. Each delaying (and so each rate-limited)
 *       queue starts exactly one waiting-loop thread, from the configured factory (a virtual thread
 *       by default); it runs no user code and ends when the queue is shut down, which joins it.
 *       Callers' threads (producers, workers) do all other work.</li>
 *   <li><b>add / get / done</b> take no lock: each item has one entry in a
 *       {@code ConcurrentHashMap} whose state (queued, processing, processing-and-dirty) changes
 *       only by compare-and-set, and queued entries wait in a {@code ConcurrentLinkedQueue} with an
 *       atomic count. The CAS discipline is what guarantees that an item is queued at most once and
 *       held by at most one worker.</li>
 *   <li><b>Locks.</b> Each work queue has one {@code ReentrantLock}, taken only by a getter that
 *       finds nothing queued (to wait), by a producer that must wake such a getter, by shutdown, and
 *       by a draining shutdown waiting for in-flight items. Each delaying queue has one more
 *       {@code ReentrantLock} guarding its heap of waiting items, held for O(log n) by
 *       {@code addAfter} and by the loop while it moves due items; the loop parks only after
 *       releasing it. The bucket limiter has one short lock; per-item limiters use concurrent maps.
 *       No lock is ever held while calling user code, and no lock is taken inside another except
 *       the work queue's wake-up lock inside the delaying lock.</li>
 *   <li><b>Blocking.</b> {@code get} and {@code shutDownWithDrain} block and are cancelled by
 *       interruption ({@link java.util.concurrent.CancellationException}); nothing else blocks
 *       except {@code shutDown} of a delaying queue joining its loop thread, which exits at
 *       once.</li>
 * </ul>
 */
package io.kubeloop.workqueue;
