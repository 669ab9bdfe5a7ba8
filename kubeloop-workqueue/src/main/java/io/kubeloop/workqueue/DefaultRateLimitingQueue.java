package io.kubeloop.workqueue;

import io.kubeloop.time.Ticker;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * The {@link RateLimitingQueue} implementation: a {@link DelayingQueue} plus a {@link RateLimiter}.
 *
 * <p><b>Thread safety:</b> thread-safe; it adds no state of its own.
 *
 * @param <T> the item type
 */
final class DefaultRateLimitingQueue<T> implements RateLimitingQueue<T> {

    private final DelayingQueue<T> queue;
    private final NanosRateLimiter<T> rateLimiter;

    DefaultRateLimitingQueue(DelayingQueue<T> queue, RateLimiter<T> rateLimiter) {
        this.queue = queue;
        this.rateLimiter = NanosRateLimiter.of(Objects.requireNonNull(rateLimiter, "rateLimiter"));
    }

    @Override
    public void addRateLimited(T item) {
        Objects.requireNonNull(item, "work queue item must not be null");
        if (queue instanceof DefaultDelayingQueue<T> delaying) {
            // one clock read: the limiter reserves at this instant, the item is ready at it + delay
            Ticker clock = delaying.ticker();
            long now = clock.nanoTime();
            delaying.addAfterNanos(item, rateLimiter.whenNanos(item, clock, now), now);
        } else {
            queue.addAfter(item, Duration.ofNanos(rateLimiter.whenNanos(item, null, 0)));
        }
    }

    @Override
    public void forget(T item) {
        rateLimiter.forget(item);
    }

    @Override
    public int numRequeues(T item) {
        return rateLimiter.numRequeues(item);
    }

    @Override
    public void addAfter(T item, Duration delay) {
        queue.addAfter(item, delay);
    }

    @Override
    public void add(T item) {
        queue.add(item);
    }

    @Override
    public Optional<T> get() {
        return queue.get();
    }

    @Override
    public void done(T item) {
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
        queue.shutDown();
    }

    /** The wrapped queue; for tests. */
    DelayingQueue<T> delegate() {
        return queue;
    }

    @Override
    public String toString() {
        return "RateLimiting" + queue;
    }
}
