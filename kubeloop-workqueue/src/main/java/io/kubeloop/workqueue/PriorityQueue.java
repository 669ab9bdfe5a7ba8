package io.kubeloop.workqueue;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * controller-runtime's priority queue ({@code pkg/controller/priorityqueue}, its controllers' default
 * queue since v0.23): a {@link RateLimitingQueue} whose items carry a priority. Differences from the
 * client-go queue, all deliberate and controller-runtime's:
 * <ul>
 *   <li>{@code get} hands out the ready item of the highest priority, first added first among
 *       equals; items added with a delay come after every item added without one, in ready-time
 *       order;</li>
 *   <li>one entry per item: adding a queued item again keeps the higher priority and the earlier
 *       ready time — so a plain {@code add} of an item waiting for its time makes it ready now (the
 *       client-go queue would hand it out twice);</li>
 *   <li>an item is never handed to two workers at once: added while in flight, it waits in the queue
 *       until {@code done};</li>
 *   <li>{@link #shutDown()} does not drain: {@code get} returns empty at once, items still queued
 *       are dropped; {@link #shutDownWithDrain()} is the same.</li>
 * </ul>
 * {@link #len()} counts the items that are ready. Metrics are the work queue's ({@code workqueue_*});
 * an item added with a delay counts as added when it is handed out.
 *
 * <p><b>Thread safety:</b> all methods are thread-safe.
 *
 * @param <T> the item type
 */
public interface PriorityQueue<T> extends RateLimitingQueue<T> {

    /** The priority controller-runtime gives the objects of an informer's initial list and resyncs. */
    int LOW_PRIORITY = -100;

    /**
     * Creates a running priority queue.
     *
     * @param rateLimiter decides the delay of {@link #addRateLimited}; controller-runtime's default for
     *     this queue is {@code RateLimiter.itemExponentialFailure(5 ms, 1000 s)} alone
     * @param config name, ticker, metrics, and the thread factory of its timer thread
     * @param <T> the item type
     * @return the queue
     */
    static <T> PriorityQueue<T> create(RateLimiter<T> rateLimiter, WorkQueueOptions config) {
        return new DefaultPriorityQueue<>(rateLimiter, config);
    }

    /**
     * How an item is added.
     *
     * @param priority higher is handed out first; 0 for a plain add
     * @param after the delay before it is ready; zero or negative for none
     * @param rateLimited whether the rate limiter decides the delay too (the shorter of the two wins
     *     when both are set; the limiter counts a failure)
     */
    record AddOptions(int priority, Duration after, boolean rateLimited) {

        public AddOptions {
            Objects.requireNonNull(after, "after");
        }

        /** Priority 0, no delay, not rate-limited: a plain add. */
        public static AddOptions defaults() {
            return new AddOptions(0, Duration.ZERO, false);
        }

        /** These options with another priority. */
        public AddOptions withPriority(int newPriority) {
            return new AddOptions(newPriority, after, rateLimited);
        }

        /** These options with a delay. */
        public AddOptions withAfter(Duration delay) {
            return new AddOptions(priority, delay, rateLimited);
        }

        /**
         * These options, rate-limited: the rate limiter decides the delay too (and counts a failure).
         */
        public AddOptions withRateLimit() {
            return new AddOptions(priority, after, true);
        }
    }

    /**
     * An item handed out, with the priority it was queued at.
     *
     * @param item the item
     * @param priority its priority
     * @param <T> the item type
     */
    record Prioritized<T>(T item, int priority) {}

    /**
     * Adds {@code item} as {@code options} say (see the class comment for how it merges with an
     * entry already queued). Ignored after {@link #shutDown()}.
     *
     * @param item the item; not null
     * @param options priority, delay, rate limiting
     */
    void addWithOptions(T item, AddOptions options);

    /**
     * {@link #get()} with the priority the item was queued at.
     *
     * @return the item and its priority, or empty once the queue is shut down
     */
    Optional<Prioritized<T>> getWithPriority();
}
