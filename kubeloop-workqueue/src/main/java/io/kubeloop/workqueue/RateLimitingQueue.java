package io.kubeloop.workqueue;

/**
 * A {@link DelayingQueue} whose delays come from a {@link RateLimiter}, as client-go's
 * {@code workqueue.RateLimitingInterface}.
 *
 * <p>The usual worker loop: {@code get}; process; on success {@link #forget}, on failure
 * {@link #addRateLimited}; in both cases {@code done}. Forgetting is the caller's duty: a limiter
 * that is never told to forget an item keeps its failure count (and its memory) forever.
 *
 * <p><b>Thread safety:</b> as {@link DelayingQueue}; the limiter must be thread-safe (all built-in
 * ones are).
 *
 * @param <T> the item type
 * @see <a href="https://github.com/kubernetes/client-go/blob/master/util/workqueue/rate_limiting_queue.go">client-go rate_limiting_queue.go</a>
 */
public interface RateLimitingQueue<T> extends DelayingQueue<T> {

    /**
     * Creates a rate-limited queue with {@link RateLimiter#defaultControllerRateLimiter()} and the
     * default configuration.
     *
     * @param <T> the item type
     * @return a new, running queue
     */
    static <T> RateLimitingQueue<T> create() {
        return create(RateLimiter.defaultControllerRateLimiter(), WorkQueueOptions.defaults());
    }

    /**
     * Creates a rate-limited queue.
     *
     * @param rateLimiter decides each item's delay; give it the same ticker as {@code config} when
     *     testing with a {@code io.kubeloop.time.testing.FakeTicker}
     * @param config the configuration
     * @param <T> the item type
     * @return a new, running queue
     */
    static <T> RateLimitingQueue<T> create(RateLimiter<T> rateLimiter, WorkQueueOptions config) {
        return new DefaultRateLimitingQueue<>(DelayingQueue.create(config), rateLimiter);
    }

    /**
     * Adds {@code item} after the delay the limiter gives it now ({@code addAfter(item,
     * limiter.when(item))}); the limiter counts this as a failure of the item. Thread-safe.
     *
     * @param item the item; not null
     */
    void addRateLimited(T item);

    /**
     * Tells the limiter to stop tracking {@code item} (success, or giving up). Clears limiter state
     * only: {@code done} must still be called. Thread-safe.
     *
     * @param item the item
     */
    void forget(T item);

    /**
     * Returns how many times the limiter was asked to delay {@code item} since it was last
     * forgotten. Thread-safe.
     *
     * @param item the item
     * @return the number of requeues
     */
    int numRequeues(T item);
}
