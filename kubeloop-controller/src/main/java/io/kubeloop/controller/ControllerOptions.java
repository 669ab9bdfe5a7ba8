package io.kubeloop.controller;

import io.kubeloop.time.Durations;
import io.kubeloop.time.Ticker;
import io.kubeloop.workqueue.RateLimiter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.Objects;

/**
 * How a {@link Controller} runs: its name, how many requests it reconciles at once, how failures
 * are retried, whether panics are recovered, and where metrics go.
 *
 * <p>Defaults, as controller-runtime's with its priority queue switched off: one worker; the
 * default controller rate limiter (the slower of a per-request exponential back-off from 5 ms to
 * 1000 s and an overall bucket of 10 per second, burst 100) on the system ticker; panics
 * recovered; no metrics; two minutes for the caches to sync; 30 seconds for reconciles to end on
 * close.
 *
 * <p>Immutable and thread-safe.
 *
 * @param name the controller's name: names its work queue, its worker threads, and the
 *     {@code controller} tag of its metrics; not blank
 * @param maxConcurrentReconciles how many worker threads reconcile at once (each a different
 *     request); at least 1
 * @param rateLimiter the back-off of failed requests; its ticker should be {@code ticker}
 * @param ticker the clock of the work queue's delays, of the default rate limiter, of reconcile
 *     timing and of the cache-sync timeout
 * @param recoverPanic whether an {@link Error} thrown by the reconciler is counted and retried
 *     (true) or stops the controller (false); see {@link Reconciler}
 * @param meterRegistry where the controller's and its work queue's metrics go, or null for nowhere
 * @param cacheSyncTimeout how long {@link Controller#start()} waits for the informers of its
 *     watches to sync before it gives up; positive
 * @param usePriorityQueue whether requests go through controller-runtime's priority queue
 *     ({@link io.kubeloop.workqueue.PriorityQueue}; the initial list and resyncs at low priority,
 *     default limiter the per-item exponential back-off alone) instead of client-go's queue
 * @param gracefulShutdownTimeout how long {@link Controller#close()} waits, after cancelling them,
 *     for reconciles in flight to end before it returns anyway and names them; zero for no wait
 */
public record ControllerOptions(
        String name,
        int maxConcurrentReconciles,
        RateLimiter<Request> rateLimiter,
        Ticker ticker,
        boolean recoverPanic,
        MeterRegistry meterRegistry,
        Duration cacheSyncTimeout,
        boolean usePriorityQueue,
        Duration gracefulShutdownTimeout) {

    /** Validates the options; see the record components for the rules. */
    public ControllerOptions {
        Objects.requireNonNull(name, "name");
        if (name.isBlank()) {
            throw new IllegalArgumentException("a controller needs a name");
        }
        if (maxConcurrentReconciles < 1) {
            throw new IllegalArgumentException(
                    "maxConcurrentReconciles must be at least 1, got " + maxConcurrentReconciles);
        }
        Objects.requireNonNull(rateLimiter, "rateLimiter");
        Objects.requireNonNull(ticker, "ticker");
        Objects.requireNonNull(cacheSyncTimeout, "cacheSyncTimeout");
        if (cacheSyncTimeout.isZero() || cacheSyncTimeout.isNegative()) {
            throw new IllegalArgumentException(
                    "cacheSyncTimeout must be positive, got " + Durations.format(cacheSyncTimeout));
        }
        Objects.requireNonNull(gracefulShutdownTimeout, "gracefulShutdownTimeout");
        if (gracefulShutdownTimeout.isNegative()) {
            throw new IllegalArgumentException(
                    "gracefulShutdownTimeout must not be negative, got " + Durations.format(gracefulShutdownTimeout));
        }
    }

    /**
     * A builder holding the defaults for a controller named {@code name}.
     *
     * @param name the controller's name
     * @return a new builder
     */
    public static Builder builder(String name) {
        return new Builder(name);
    }

    /** Builds {@link ControllerOptions}. Not thread-safe. */
    public static final class Builder {
        private final String name;
        private int maxConcurrentReconciles = 1;
        private RateLimiter<Request> rateLimiter;
        private Ticker ticker = Ticker.system();
        private boolean usePriorityQueue;
        private boolean recoverPanic = true;
        private MeterRegistry meterRegistry;
        private Duration cacheSyncTimeout = Duration.ofMinutes(2);
        private Duration gracefulShutdownTimeout = Duration.ofSeconds(30);

        private Builder(String name) {
            this.name = name;
        }

        /**
         * How many requests are reconciled at once; default 1.
         *
         * @param workers at least 1
         * @return this builder
         */
        public Builder maxConcurrentReconciles(int workers) {
            this.maxConcurrentReconciles = workers;
            return this;
        }

        /**
         * The back-off of failed requests; default
         * {@link RateLimiter#defaultControllerRateLimiter(Ticker)} on the builder's ticker.
         *
         * @param rateLimiter the limiter
         * @return this builder
         */
        public Builder rateLimiter(RateLimiter<Request> rateLimiter) {
            this.rateLimiter = rateLimiter;
            return this;
        }

        /**
         * The clock of delays, of the default rate limiter and of the cache-sync timeout; tests pass
         * an {@code io.kubeloop.time.testing.FakeTicker}. Default {@link Ticker#system()}.
         *
         * @param ticker the ticker
         * @return this builder
         */
        public Builder ticker(Ticker ticker) {
            this.ticker = ticker;
            return this;
        }

        /**
         * Whether a thrown {@link Error} is recovered (counted, retried) or stops the controller;
         * default true.
         *
         * @param recover true to recover
         * @return this builder
         */
        public Builder recoverPanic(boolean recover) {
            this.recoverPanic = recover;
            return this;
        }

        /**
         * Where metrics go (the controller's and its work queue's); default none.
         *
         * @param registry the registry, or null for none
         * @return this builder
         */
        public Builder meterRegistry(MeterRegistry registry) {
            this.meterRegistry = registry;
            return this;
        }

        /**
         * How long {@link Controller#start()} waits for the informers of the controller's watches
         * to sync; default 2 minutes (controller-runtime's {@code CacheSyncTimeout}).
         *
         * @param timeout positive
         * @return this builder
         */
        public Builder cacheSyncTimeout(Duration timeout) {
            this.cacheSyncTimeout = timeout;
            return this;
        }

        /**
         * Builds the options.
         *
         * @return the options
         * @throws IllegalArgumentException if a value breaks a rule stated on {@link ControllerOptions}
         */
        public ControllerOptions build() {
            Objects.requireNonNull(ticker, "ticker");
            RateLimiter<Request> limiter = rateLimiter != null
                    ? rateLimiter
                    : usePriorityQueue
                            ? RateLimiter.itemExponentialFailure(Duration.ofMillis(5), Duration.ofSeconds(1000))
                            : RateLimiter.defaultControllerRateLimiter(ticker);
            return new ControllerOptions(
                    name,
                    maxConcurrentReconciles,
                    limiter,
                    ticker,
                    recoverPanic,
                    meterRegistry,
                    cacheSyncTimeout,
                    usePriorityQueue,
                    gracefulShutdownTimeout);
        }

        /**
         * How long {@link Controller#close()} waits for cancelled reconciles to end (controller-runtime's
         * {@code GracefulShutdownTimeout}); default 30 seconds.
         *
         * @param timeout zero or more
         * @return this builder
         */
        public Builder gracefulShutdownTimeout(Duration timeout) {
            this.gracefulShutdownTimeout = Objects.requireNonNull(timeout, "timeout");
            return this;
        }

        /**
         * Whether requests go through controller-runtime's priority queue (its default since
         * v0.23): objects of an informer's initial list and unchanged resyncs are reconciled after
         * real changes, a request waiting for its back-off is made ready by a new event, and the
         * default rate limiter is the per-item exponential back-off (5 ms … 1000 s) without the
         * overall 10 qps bucket. Default false: client-go's queue, as controller-runtime with the
         * priority queue switched off.
         *
         * @param use true for the priority queue
         * @return this builder
         */
        public Builder usePriorityQueue(boolean use) {
            this.usePriorityQueue = use;
            return this;
        }
    }
}
