package io.kubeloop.workqueue;

import java.util.Objects;

/**
 * A limiter built around another that counts and forgets through it: {@link #forget} and
 * {@link #numRequeues} go to the wrapped limiter, and subclasses decide the delay.
 *
 * <p><b>Thread safety:</b> as thread-safe as the wrapped limiter; holds no state of its own.
 *
 * @param <T> the item type
 */
abstract class ForwardingRateLimiter<T> implements NanosRateLimiter<T> {

    /** The wrapped limiter; never null. */
    final RateLimiter<T> delegate;

    ForwardingRateLimiter(RateLimiter<T> delegate) {
        this.delegate = Objects.requireNonNull(delegate, "limiter");
    }

    @Override
    public void forget(T item) {
        delegate.forget(item);
    }

    @Override
    public int numRequeues(T item) {
        return delegate.numRequeues(item);
    }
}
