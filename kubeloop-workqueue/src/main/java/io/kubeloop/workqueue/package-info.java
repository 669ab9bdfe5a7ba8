/**
 * Work queues as client-go's {@code util/workqueue}: deduplicating, delaying and rate-limited
 * queues and their rate limiters. Stands alone, with no Kubernetes dependency.
 *
 * <p>The layers compose as in client-go: {@link io.kubeloop.workqueue.WorkQueue} (add, get, done,
 * shutdown) → {@link io.kubeloop.workqueue.DelayingQueue} (addAfter) →
 * {@link io.kubeloop.workqueue.RateLimitingQueue} (addRateLimited, forget, numRequeues, with a
 * {@link io.kubeloop.workqueue.RateLimiter}). Configuration is the immutable
 * {@link io.kubeloop.workqueue.WorkQueueOptions}: name, {@link io.kubeloop.time.Ticker} (time;
 * {@code io.kubeloop.time.testing.FakeTicker} for tests), {@link io.kubeloop.workqueue.MetricsProvider}
 * (Micrometer with client-go's metric names, or none) and the thread factory of the delaying loop.
 * There is no static mutable state.
 *
 * <h2>Concurrency</h2>
 * <ul>
 *   <li><b>Threads.</b> A plain work queue starts none. Each delaying (and so each rate-limited)
 *       queue starts exactly one waiting-loop thread, from the configured factory (a virtual thread
 *       by default); it runs no user code and ends when the queue is shut down, which joins it.
 *       Callers' threads (producers, workers) do all other work.</li>
 *   <li><b>Locks.</b> Each work queue has one lock ({@code QueueLock}: a non-reentrant
 *       {@code AbstractQueuedSynchronizer} mutex, which parks like {@code ReentrantLock} and does
 *       not pin virtual threads, without its owner bookkeeping) guarding its item table (one
 *       entry per dirty or processing item, with its state), its ready list and its counters;
 *       {@code add}, {@code get} and {@code done} each take it once, for one hash probe and a
 *       linked-list operation (client-go holds one mutex the same way). Waiting getters and a
 *       draining shutdown wait on two {@code Condition}s of that lock; a producer signals only
 *       when a getter waits. Each delaying queue has one {@code ReentrantLock} guarding its heap of
 *       waiting items, held for O(log n) by {@code addAfter} and by the loop while it moves due
 *       items into the work queue (so the work queue's lock is taken inside it, never the other
 *       way round); the loop parks only after releasing it. An {@code addAfter} for an item that
 *       already waits for an earlier time takes no lock (the heap's index is a concurrent map).
 *       The bucket limiter is lock-free (one fetch-and-add of its theoretical arrival time per
 *       request while it is in debt, else a compare-and-set); per-item limiters keep counters in a
 *       concurrent map that a {@code forget} only zeroes (swept once untouched for a whole interval
 *       between sweeps), so a fail/forget cycle of a recurring item changes no map. An {@code addRateLimited}
 *       reads the clock once: the limiter reserves at the queue's reading when its ticker is the
 *       queue's, and the item is ready at that reading plus the delay. No lock is held while
 *       calling user code, and
 *       metrics hooks are short. There is no combining layer and no lock-free variant: flat
 *       combining and a lock-free queue (concurrent map of per-item CAS states plus a concurrent
 *       linked queue) were built and measured slower on a 2-core machine (see BENCHMARKS.md).</li>
 *   <li><b>Allocation.</b> Adding an item that is already queued allocates nothing. Entries are
 *       intrusive (table chain and ready list) and up to 256 removed ones are reused, so a work
 *       item's whole life (add, get, done) allocates nothing in steady state, and neither does an
 *       {@code addRateLimited}/{@code forget} cycle of a known item with the built-in limiters.</li>
 *   <li><b>Blocking.</b> {@code get} and {@code shutDownWithDrain} block and are cancelled by
 *       interruption ({@link java.util.concurrent.CancellationException}); nothing else blocks
 *       except {@code shutDown} of a delaying queue joining its loop thread, which exits at
 *       once.</li>
 * </ul>
 */
package io.kubeloop.workqueue;
