package io.kubeloop.cache;

import io.kubeloop.time.Durations;
import io.kubeloop.time.Ticker;
import java.time.Duration;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.concurrent.ThreadFactory;
import java.util.function.BooleanSupplier;
import java.util.random.RandomGenerator;

/**
 * How a {@link Reflector} behaves. Defaults (client-go's): no resync, list pages of 500
 * ({@code pageSize} 0) under client-go's paging rules, the next page requested while the current one
 * is decoded, streaming watch-list on with fallback, watches of 5–10 minutes, the system clock,
 * virtual threads; and the client's watch idle timeout ({@code ClientOptions.watchIdleTimeout}, 3 minutes
 * by default).
 *
 * <p>Immutable and thread-safe; build with {@link #builder()}, derive with {@link #toBuilder()}.
 *
 * @param name names the reflector in logs and thread names
 * @param resyncPeriod how often {@link ReflectorStore#resync()} is called; zero for never
 * @param shouldResync asked at each resync tick; null means always
 * @param pageSize list page size; 0 for client-go's rules (500, except unpaginated for resourceVersion other than "" and "0")
 * @param pagePrefetch request the next page of a paged list as soon as the current page's continue token is known,
 *        while that page is decoded (one page ahead, on a thread of {@code threadFactory}); false requests the pages
 *        strictly one after another, as client-go's pager does. Same requests, same result either way.
 * @param useWatchList try the streaming watch-list first (client-go's WatchListClient, on by default)
 * @param minWatchTimeout each watch asks for a server timeout drawn from [min, 2·min)
 * @param ticker the clock of the back-off, the watch timing and the resync ticks (tests pass an
 *        {@code io.kubeloop.time.testing.FakeTicker})
 * @param random randomness of jitter and watch timeouts
 * @param threadFactory makes the reflector's threads (default: virtual threads)
 * @param watchErrorHandler called when a cycle ends with an error; default logs
 * @param watchIdleTimeout each watch's idle timeout ({@link io.kubeloop.client.ListOptions#idleTimeout()}):
 *        a watch that received nothing for this long while the reflector waited — not even one of the
 *        bookmarks the server sends about every minute — is ended by the client and resumed from the
 *        last resourceVersion; null (the default) for the client's {@code watchIdleTimeout}; zero for
 *        none; else at least 1 s
 * @param metrics makes the metrics of the reflector and its informer ({@link InformerMetrics}); by default none
 */
public record ReflectorOptions(
        String name,
        Duration resyncPeriod,
        BooleanSupplier shouldResync,
        long pageSize,
        boolean pagePrefetch,
        boolean useWatchList,
        Duration minWatchTimeout,
        Ticker ticker,
        RandomGenerator random,
        ThreadFactory threadFactory,
        WatchErrorHandler watchErrorHandler,
        Duration watchIdleTimeout,
        InformerMetrics.Provider metrics) {

    /** The default minimum watch timeout, 5 minutes. */
    public static final Duration DEFAULT_MIN_WATCH_TIMEOUT = Duration.ofMinutes(5);

    public ReflectorOptions {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(resyncPeriod, "resyncPeriod");
        if (resyncPeriod.isNegative()) {
            throw new IllegalArgumentException(
                    "resyncPeriod must not be negative, got " + Durations.format(resyncPeriod));
        }
        if (pageSize < 0) {
            throw new IllegalArgumentException("pageSize must not be negative, got " + pageSize);
        }
        Objects.requireNonNull(minWatchTimeout, "minWatchTimeout");
        if (minWatchTimeout.compareTo(Duration.ofSeconds(1)) < 0) {
            throw new IllegalArgumentException(
                    "minWatchTimeout must be at least 1s, got " + Durations.format(minWatchTimeout));
        }
        Objects.requireNonNull(ticker, "ticker");
        Objects.requireNonNull(random, "random");
        Objects.requireNonNull(threadFactory, "threadFactory");
        Objects.requireNonNull(watchErrorHandler, "watchErrorHandler");
        Objects.requireNonNull(metrics, "metrics");
        if (watchIdleTimeout != null
                && !watchIdleTimeout.isZero()
                && watchIdleTimeout.compareTo(Duration.ofSeconds(1)) < 0) {
            throw new IllegalArgumentException(
                    "watchIdleTimeout must be zero or at least 1s, got " + Durations.format(watchIdleTimeout));
        }
    }

    /** The defaults. */
    public static ReflectorOptions defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    public Builder toBuilder() {
        return new Builder()
                .name(name)
                .resyncPeriod(resyncPeriod)
                .shouldResync(shouldResync)
                .pageSize(pageSize)
                .pagePrefetch(pagePrefetch)
                .useWatchList(useWatchList)
                .minWatchTimeout(minWatchTimeout)
                .ticker(ticker)
                .random(random)
                .threadFactory(threadFactory)
                .watchErrorHandler(watchErrorHandler)
                .watchIdleTimeout(watchIdleTimeout)
                .metrics(metrics);
    }

    /** Mutable builder; not thread-safe. */
    public static final class Builder {
        private String name = "reflector";
        private Duration resyncPeriod = Duration.ZERO;
        private BooleanSupplier shouldResync;
        private long pageSize;
        private boolean pagePrefetch = true;
        private boolean useWatchList = true;
        private Duration minWatchTimeout = DEFAULT_MIN_WATCH_TIMEOUT;
        private Ticker ticker = Ticker.system();
        private RandomGenerator random;
        private ThreadFactory threadFactory;
        private WatchErrorHandler watchErrorHandler = ReflectorErrors.LOGGING_ERROR_HANDLER;
        private Duration watchIdleTimeout;
        private InformerMetrics.Provider metrics = InformerMetrics.Provider.NONE;

        private Builder() {}

        public Builder name(String name) {
            this.name = name;
            return this;
        }

        public Builder resyncPeriod(Duration resyncPeriod) {
            this.resyncPeriod = resyncPeriod;
            return this;
        }

        public Builder shouldResync(BooleanSupplier shouldResync) {
            this.shouldResync = shouldResync;
            return this;
        }

        public Builder pageSize(long pageSize) {
            this.pageSize = pageSize;
            return this;
        }

        public Builder pagePrefetch(boolean pagePrefetch) {
            this.pagePrefetch = pagePrefetch;
            return this;
        }

        public Builder useWatchList(boolean useWatchList) {
            this.useWatchList = useWatchList;
            return this;
        }

        public Builder minWatchTimeout(Duration minWatchTimeout) {
            this.minWatchTimeout = minWatchTimeout;
            return this;
        }

        public Builder ticker(Ticker ticker) {
            this.ticker = ticker;
            return this;
        }

        public Builder random(RandomGenerator random) {
            this.random = random;
            return this;
        }

        public Builder threadFactory(ThreadFactory threadFactory) {
            this.threadFactory = threadFactory;
            return this;
        }

        public Builder watchErrorHandler(WatchErrorHandler handler) {
            this.watchErrorHandler = handler;
            return this;
        }

        /**
         * End (and resume) a watch that received nothing for this long; null (the default) for the
         * client's {@code watchIdleTimeout}; zero for never.
         */
        public Builder watchIdleTimeout(Duration watchIdleTimeout) {
            this.watchIdleTimeout = watchIdleTimeout;
            return this;
        }

        /** Where the reflector and its informer report their metrics; default nowhere. */
        public Builder metrics(InformerMetrics.Provider metrics) {
            this.metrics = metrics;
            return this;
        }

        public ReflectorOptions build() {
            return new ReflectorOptions(
                    name,
                    resyncPeriod,
                    shouldResync,
                    pageSize,
                    pagePrefetch,
                    useWatchList,
                    minWatchTimeout,
                    ticker,
                    random != null ? random : new SplittableRandom(),
                    threadFactory != null
                            ? threadFactory
                            : Thread.ofVirtual()
                                    .name("kubeloop-" + name + "-", 0)
                                    .factory(),
                    watchErrorHandler,
                    watchIdleTimeout,
                    metrics);
        }
    }
}
