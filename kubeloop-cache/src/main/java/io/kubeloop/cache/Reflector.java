package io.kubeloop.cache;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import io.kubeloop.api.ObjectAccess;
import io.kubeloop.api.ObjectKey;
import io.kubeloop.api.errors.ApiException;
import io.kubeloop.api.errors.TooManyRequestsException;
import io.kubeloop.client.ListOptions;
import io.kubeloop.client.ResourceVersionMatch;
import io.kubeloop.client.WatchEvent;
import io.kubeloop.time.internal.Joins;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps a {@link ReflectorStore} in step with a collection on the server (client-go's
 * {@code Reflector}): lists, then watches from the list's resourceVersion, and starts over after
 * failures — never in a tight loop.
 *
 * <p><b>Cycle.</b> {@link #start()} runs list-and-watch cycles on one thread until {@link #close()},
 * waiting a {@link Backoff back-off} (0.8 s doubling to 30 s, jittered to [d, 2d), restarted
 * every 2 minutes) after every cycle. When the error that ended a cycle carries a {@code Retry-After}
 * longer than that wait (a 429 the client's own retries did not get past), the reflector waits the
 * {@code Retry-After} instead, up to a minute; so do the back-offs before re-watching after a 429.
 * client-go's reflector leaves {@code Retry-After} to its REST client alone. Each cycle:
 * <ol>
 *   <li><b>Watch-list</b> (when {@link ReflectorOptions#useWatchList()}): a watch with
 *       {@code sendInitialEvents=true}, {@code resourceVersionMatch=NotOlderThan} and bookmarks;
 *       the initial ADDED events are collected aside and {@link ReflectorStore#replace applied at
 *       once} at the BOOKMARK annotated {@code k8s.io/initial-events-end}, with its resourceVersion;
 *       the same watch then goes on. A 410 or "too large resource version" is retried at once from
 *       {@code ""}; the same answer to a request already at {@code ""}, like any other rejection, makes
 *       the cycle fall back to LIST — so watches answered 410 every time cost at most two watch-list
 *       requests and one LIST per cycle, not a tight loop.</li>
 *   <li><b>List</b>: resourceVersion {@code "0"} before the first sync (any cached state will do),
 *       else the last synced one, or {@code ""} (a quorum read) after a list failed with 410 or
 *       "too large resource version" (retried at once). Pages of 500 follow continue tokens;
 *       resourceVersions other than "" and "0" are listed unpaginated unless an earlier "0" list
 *       came back paginated; an expired continue token gives one unpaginated list at the original
 *       resourceVersion ({@link ListPager}). With {@link ReflectorOptions#pagePrefetch()} (the default)
 *       the next page is requested as soon as the current page's continue token has arrived, while its
 *       items are decoded (one page ahead, on a thread of the options' factory). The result replaces the
 *       store.</li>
 *   <li><b>Watch</b> from the last synced resourceVersion with {@code allowWatchBookmarks} and a
 *       {@code timeoutSeconds} drawn from [min, 2·min) (5–10 minutes); every event, bookmarks
 *       included, advances the last synced resourceVersion. A clean close re-watches at once;
 *       a close within 1 s without events ("very short watch") relists after back-off; 410 Gone
 *       relists after back-off; 429 and refused connections back off and re-watch without a list;
 *       anything else relists after back-off.</li>
 * </ol>
 * With a resync period, a second thread calls {@link ReflectorStore#resync()} each period while
 * the {@link ReflectorOptions#shouldResync()} check agrees. Errors ending a cycle go to the
 * {@link WatchErrorHandler}.
 *
 * <p><b>Broken and silent watches.</b> A watch whose connection broke, or went silent, ends like a
 * clean close (the very-short-watch rule included): it is resumed at once from the last synced
 * resourceVersion, without a list unless the server then answers 410. Silent: the client ends a watch
 * that received nothing — not even the BOOKMARK the server sends about every minute — for its idle
 * timeout ({@link ReflectorOptions#watchIdleTimeout()}, by default the client's 3 minutes), or that
 * the server did not end by its {@code timeoutSeconds} plus the client's margin
 * ({@link io.kubeloop.client.WatchTimeoutException}). Each silent watch is logged at INFO with its
 * reason and the reflector's running count of them.
 *
 * <p><b>Thread safety.</b> Thread-safe. The reflector owns its threads (made by the options'
 * thread factory); {@link #close()} stops them and waits for them.
 *
 * @param <T> the object type
 */
public final class Reflector<T> implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Reflector.class);

    /** The longest {@code Retry-After} the back-off honours: its own longest wait (30 s, jittered up to 60 s). */
    static final Duration MAX_RETRY_AFTER = Duration.ofSeconds(60);

    private final ListerWatcher<T> listerWatcher;
    private final ReflectorStore<T> store;
    private final ReflectorOptions options;
    private final KeyFunction keyFunction = KeyFunction.metaNamespace();
    private final ListPager<T> pager;

    private final ReentrantLock lifecycle = new ReentrantLock();
    /** Guarded by lifecycle. */
    @GuardedBy("lifecycle")
    private Thread runner;

    private volatile boolean stopped;
    private final AtomicReference<WatchStream<T>> currentWatch = new AtomicReference<>();

    /** The resourceVersion of the last list or event seen. Written by the runner thread only. */
    private volatile String lastSyncResourceVersion = "";
    /** The error that ended the last cycle, until a list, watch event or bookmark succeeds; null when none. */
    private volatile RuntimeException lastError;
    /** Runner thread only: the last list failed with 410/too large, so list with "" next. */
    private boolean lastSyncResourceVersionUnavailable;
    /** Set by the resync thread when a resync fails; ends the watch. */
    private final AtomicReference<RuntimeException> resyncError = new AtomicReference<>();

    private final InformerMetrics metrics;
    /** The ticker's time of the last list, event or bookmark received; written by the runner thread only. */
    private volatile long lastReceivedNanos;
    /** Runner thread only: events of the current watch. */
    private int watchEvents;
    /** Runner thread only: reads the watch streams and tells how they ended. */
    private final ReflectorWatchReader<T> reader;

    /** A reflector reporting to the metrics its options' provider makes for its name. */
    public Reflector(ListerWatcher<T> listerWatcher, ReflectorStore<T> store, ReflectorOptions options) {
        this(listerWatcher, store, options, options.metrics().forInformer(options.name()));
    }

    /** A reflector reporting to {@code metrics}, those of the informer it serves. */
    Reflector(
            ListerWatcher<T> listerWatcher,
            ReflectorStore<T> store,
            ReflectorOptions options,
            InformerMetrics metrics) {
        this.listerWatcher = Objects.requireNonNull(listerWatcher, "listerWatcher");
        this.store = Objects.requireNonNull(store, "store");
        this.options = Objects.requireNonNull(options, "options");
        this.metrics = Objects.requireNonNull(metrics, "metrics");
        this.lastReceivedNanos = options.ticker().nanoTime();
        this.pager = new ListPager<>(
                listerWatcher, options.pageSize(), options.pagePrefetch(), options.threadFactory(), this::checkStopped);
        this.reader = new ReflectorWatchReader<>(
                options.name(), options.ticker(), this::checkStopped, () -> lastSyncResourceVersion);
    }

    /** The reflector's name (from its options). */
    public String name() {
        return options.name();
    }

    /**
     * The error that ended the last list or watch (a {@link io.kubeloop.api.errors.ForbiddenException} when
     * the client may not list or watch), as long as no list, watch event or bookmark has succeeded since;
     * empty while the reflector runs without error.
     */
    public Optional<RuntimeException> lastError() {
        return Optional.ofNullable(lastError);
    }

    /** The resourceVersion of the last list, watch event or bookmark seen; {@code ""} before the first. */
    public String lastSyncResourceVersion() {
        return lastSyncResourceVersion;
    }

    /**
     * How long ago (on the options' ticker) the reflector last received something from the server: a
     * list, a watch event or a bookmark; before the first, how long ago it was made. A working watch
     * receives a bookmark about every minute even when nothing changes.
     */
    public Duration sinceLastReceived() {
        return Duration.ofNanos(Math.max(0, options.ticker().nanoTime() - lastReceivedNanos));
    }

    private void received() {
        lastReceivedNanos = options.ticker().nanoTime();
    }

    /**
     * Starts the list-and-watch loop on a new thread. Idempotent.
     *
     * @throws IllegalStateException after {@link #close()}
     */
    public void start() {
        lifecycle.lock();
        try {
            if (stopped) {
                throw new IllegalStateException("reflector " + name() + " is closed");
            }
            if (runner == null) {
                runner = options.threadFactory().newThread(this::run);
                runner.start();
            }
        } finally {
            lifecycle.unlock();
        }
    }

    /** Stops the loop, closes the open watch and waits for the reflector's threads to end. Idempotent. */
    @Override
    public void close() {
        Thread t;
        lifecycle.lock();
        try {
            stopped = true;
            t = runner;
        } finally {
            lifecycle.unlock();
        }
        closeCurrentWatch();
        if (t != null && t != Thread.currentThread()) {
            t.interrupt();
            Joins.joinUninterruptibly(t);
        }
    }

    private void closeCurrentWatch() {
        WatchStream<T> w = currentWatch.get();
        if (w != null) {
            w.close();
        }
    }

    private void run() {
        Backoff backoff = new Backoff(options.ticker(), options.random());
        while (!stopped) {
            Throwable ended = null;
            try {
                listAndWatch(backoff);
            } catch (Stopped e) {
                return;
            } catch (RuntimeException | Error e) {
                if (stopped) {
                    return;
                }
                ended = e;
                if (e instanceof RuntimeException failure) {
                    lastError = failure;
                }
                try {
                    options.watchErrorHandler().onError(this, e);
                } catch (RuntimeException handlerFailure) {
                    LOG.warn("{}: watch error handler failed", name(), handlerFailure);
                }
            }
            if (stopped || !sleep(backoff.nextAfter(ended))) {
                return;
            }
        }
    }

    /** Sleeps on the ticker; false when stopped or interrupted. */
    private boolean sleep(Duration d) {
        try {
            options.ticker().sleep(d);
            return !stopped;
        } catch (InterruptedException e) {
            return false;
        }
    }

    /** Thrown inside a cycle to unwind when the reflector stops. */
    private static final class Stopped extends RuntimeException {
        Stopped() {
            super(null, null, false, false);
        }
    }

    private void checkStopped() {
        if (stopped) {
            throw new Stopped();
        }
    }

    private void listAndWatch(Backoff backoff) {
        WatchStream<T> watch = null;
        if (options.useWatchList()) {
            try {
                watch = watchList(backoff);
            } catch (Stopped e) {
                throw e;
            } catch (RuntimeException e) {
                checkStopped();
                LOG.info("{}: the watch-list request failed, falling back to LIST/WATCH: {}", name(), e.toString());
                watch = null;
            }
        }
        if (watch == null) {
            list();
        }
        Thread resyncer = startResync();
        try {
            watchLoop(watch, backoff);
        } finally {
            if (resyncer != null) {
                resyncer.interrupt();
                Joins.joinUninterruptibly(resyncer); // close() interrupts the runner, which must still wait
            }
        }
    }

    // ---- list -----------------------------------------------------------------------------------

    private void list() {
        String rv = relistResourceVersion();
        long start = options.ticker().nanoTime();
        List<T> items;
        String listRv;
        try {
            ListPager.Page<T> p = pager.list(rv);
            items = p.items();
            listRv = p.resourceVersion();
        } catch (ApiException e) {
            checkStopped();
            if (!ReflectorErrors.isExpiredOrTooLarge(e)) {
                throw e;
            }
            lastSyncResourceVersionUnavailable = true;
            ListPager.Page<T> p = pager.list(relistResourceVersion()); // retry at once with a quorum read
            items = p.items();
            listRv = p.resourceVersion();
        }
        checkStopped();
        received();
        metrics.listed(Duration.ofNanos(options.ticker().nanoTime() - start), items.size());
        lastSyncResourceVersionUnavailable = false;
        lastError = null; // cleared before the replace, so a caller woken by the sync never sees the old error
        store.replace(items, listRv);
        lastSyncResourceVersion = listRv == null ? "" : listRv;
    }

    private String relistResourceVersion() {
        if (lastSyncResourceVersionUnavailable) {
            return "";
        }
        return lastSyncResourceVersion.isEmpty() ? "0" : lastSyncResourceVersion;
    }

    // ---- watch-list -----------------------------------------------------------------------------

    /** Streams the initial state; returns the still-open watch after the initial-events-end bookmark. */
    private WatchStream<T> watchList(Backoff backoff) {
        while (true) {
            checkStopped();
            String rv = lastSyncResourceVersionUnavailable ? "" : lastSyncResourceVersion;
            ListOptions opts = ListOptions.builder()
                    .sendInitialEvents(true)
                    .resourceVersionMatch(ResourceVersionMatch.NOT_OLDER_THAN)
                    .resourceVersion(rv)
                    .allowWatchBookmarks(true)
                    .timeout(watchTimeout())
                    .idleTimeout(options.watchIdleTimeout())
                    .build();
            WatchStream<T> w;
            try {
                w = listerWatcher.watch(opts);
            } catch (RuntimeException e) {
                checkStopped();
                if (ReflectorErrors.isRetriableStartError(e)) {
                    if (!sleep(backoff.nextAfter(e))) {
                        throw new Stopped();
                    }
                    continue;
                }
                if (ReflectorErrors.isExpiredOrTooLarge(e) && !rv.isEmpty()) {
                    lastSyncResourceVersionUnavailable = true;
                    continue;
                }
                throw e;
            }
            metrics.watchStarted();
            currentWatch.set(w);
            if (stopped) {
                w.close();
                throw new Stopped();
            }
            boolean synced = false;
            try {
                synced = initialEvents(w);
            } catch (RuntimeException e) {
                checkStopped();
                if (ReflectorErrors.isExpiredOrTooLarge(e) && !rv.isEmpty()) {
                    lastSyncResourceVersionUnavailable = true;
                    continue;
                }
                throw e;
            } finally {
                if (!synced) {
                    currentWatch.set(null);
                    w.close();
                }
            }
            if (synced) {
                return w;
            }
            // closed cleanly before the end marker: issue the watch-list again (no LIST)
        }
    }

    /** Reads initial events into a side map until the end bookmark; true when the store was replaced. */
    private boolean initialEvents(WatchStream<T> w) {
        long start = options.ticker().nanoTime();
        int count = 0;
        Map<ObjectKey, T> temp = new LinkedHashMap<>();
        while (true) {
            Optional<WatchEvent<T>> next = reader.nextOrEnd(w);
            if (next.isEmpty()) {
                checkStopped();
                reader.checkVeryShort(start, count);
                return false;
            }
            count++;
            received();
            metrics.eventReceived(ReflectorWatchReader.type(next.get()));
            switch (next.get()) {
                case WatchEvent.Added<T> a -> temp.put(keyFunction.key(a.object()), a.object());
                case WatchEvent.Modified<T> m -> temp.put(keyFunction.key(m.object()), m.object());
                case WatchEvent.Deleted<T> d -> temp.remove(keyFunction.key(d.object()));
                case WatchEvent.Bookmark<T> b -> {
                    if (b.isInitialEventsEnd()) {
                        metrics.listed(Duration.ofNanos(options.ticker().nanoTime() - start), temp.size());
                        lastError = null; // before the replace that wakes the sync waiters
                        store.replace(new ArrayList<>(temp.values()), b.resourceVersion());
                        lastSyncResourceVersion = b.resourceVersion();
                        lastSyncResourceVersionUnavailable = false;
                        return true;
                    }
                }
                case WatchEvent.Error<T> e -> throw e.exception();
            }
        }
    }

    // ---- watch ----------------------------------------------------------------------------------

    private void watchLoop(WatchStream<T> open, Backoff backoff) {
        WatchStream<T> w = open;
        while (true) {
            checkStopped();
            if (w == null) {
                ListOptions opts = ListOptions.builder()
                        .resourceVersion(lastSyncResourceVersion)
                        .allowWatchBookmarks(true)
                        .timeout(watchTimeout())
                        .idleTimeout(options.watchIdleTimeout())
                        .build();
                try {
                    w = listerWatcher.watch(opts);
                } catch (RuntimeException e) {
                    checkStopped();
                    if (ReflectorErrors.isRetriableStartError(e)) {
                        LOG.debug("{}: watch could not start, backing off: {}", name(), e.toString());
                        if (!sleep(backoff.nextAfter(e))) {
                            throw new Stopped();
                        }
                        continue;
                    }
                    throw e;
                }
                metrics.watchStarted();
                currentWatch.set(w);
                if (stopped) {
                    w.close();
                    throw new Stopped();
                }
            }
            long watchStart = options.ticker().nanoTime();
            watchEvents = 0;
            InformerMetrics.WatchEnd end = InformerMetrics.WatchEnd.ERROR;
            try {
                handleWatch(w);
                end = reader.streamEnd();
            } catch (TooManyRequestsException e) {
                end = InformerMetrics.WatchEnd.THROTTLED;
                checkStopped();
                if (!sleep(backoff.nextAfter(e))) {
                    throw new Stopped();
                }
            } catch (WatchClosedException e) {
                end = InformerMetrics.WatchEnd.SHORT;
                throw e;
            } catch (RuntimeException e) {
                end = ReflectorErrors.isExpiredOrTooLarge(e)
                        ? InformerMetrics.WatchEnd.EXPIRED
                        : InformerMetrics.WatchEnd.ERROR;
                throw e;
            } finally {
                currentWatch.set(null);
                w.close();
                if (!stopped) {
                    metrics.watchEnded(end, Duration.ofNanos(options.ticker().nanoTime() - watchStart), watchEvents);
                }
            }
            w = null;
            RuntimeException resyncFailure = resyncError.getAndSet(null);
            if (resyncFailure != null) {
                throw resyncFailure;
            }
        }
    }

    /** Applies watch events until the stream ends; throws what ended it abnormally. */
    private void handleWatch(WatchStream<T> w) {
        long start = options.ticker().nanoTime();
        int count = 0;
        while (true) {
            Optional<WatchEvent<T>> next = reader.nextOrEnd(w);
            if (next.isEmpty()) {
                checkStopped();
                if (resyncError.get() != null) {
                    return;
                }
                reader.checkVeryShort(start, count);
                return; // clean close: re-watch at once from the last resourceVersion
            }
            count++;
            received();
            WatchEvent<T> event = next.get();
            metrics.eventReceived(ReflectorWatchReader.type(event));
            String rv = switch (event) {
                case WatchEvent.Added<T> a -> {
                    store.add(a.object());
                    yield ObjectAccess.resourceVersion(a.object());
                }
                case WatchEvent.Modified<T> m -> {
                    store.update(m.object());
                    yield ObjectAccess.resourceVersion(m.object());
                }
                case WatchEvent.Deleted<T> d -> {
                    store.delete(d.object());
                    yield ObjectAccess.resourceVersion(d.object());
                }
                case WatchEvent.Bookmark<T> b -> b.resourceVersion();
                case WatchEvent.Error<T> e -> throw e.exception();
            };
            watchEvents = count;
            if (rv != null && !rv.isEmpty()) {
                lastSyncResourceVersion = rv;
            }
            if (lastError != null) {
                lastError = null; // the watch works again
            }
        }
    }

    private Duration watchTimeout() {
        long minSeconds = options.minWatchTimeout().toSeconds();
        return Duration.ofSeconds((long) (minSeconds * (options.random().nextDouble() + 1.0)));
    }

    // ---- resync ---------------------------------------------------------------------------------

    private Thread startResync() {
        return ReflectorResync.start(options, store, () -> stopped, e -> {
            resyncError.set(e);
            closeCurrentWatch();
        });
    }

    @Override
    public String toString() {
        return "Reflector[" + name() + "]";
    }
}
