package io.kubeloop.cache;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import io.kubeloop.api.ObjectAccess;
import io.kubeloop.api.ObjectKey;
import io.kubeloop.cache.internal.Delta;
import io.kubeloop.cache.internal.DeltaFifo;
import io.kubeloop.cache.internal.InformerQueue;
import io.kubeloop.cache.internal.PopProcessor;
import io.kubeloop.cache.internal.RealFifo;
import io.kubeloop.time.Durations;
import io.kubeloop.time.internal.Waiters;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The {@link SharedIndexInformer}. */
final class DefaultSharedIndexInformer<T> implements SharedIndexInformer<T> {

    private static final Logger LOG = LoggerFactory.getLogger(DefaultSharedIndexInformer.class);
    private static final Duration MINIMUM_RESYNC_PERIOD = Duration.ofSeconds(1);

    private final ListerWatcher<T> listerWatcher;
    private final InformerOptions options;
    private final Indexer<T> indexer = Indexer.withNamespaceIndex();
    private final SharedProcessor<T> processor;
    private final LongAdder handlerErrors = new LongAdder();

    /** Held while deltas are applied and distributed, and while a late handler is registered. */
    private final ReentrantLock blockDeltas = new ReentrantLock();

    private final ReentrantLock lifecycle = new ReentrantLock();
    /** Threads in {@link #waitForCacheSync}; woken when the informer syncs or stops. */
    private final Waiters syncWaiters = new Waiters();
    /** Guarded by lifecycle. */
    @GuardedBy("lifecycle")
    private boolean started;
    /** Written under lifecycle; read anywhere. */
    private volatile boolean stopped;
    /** Written under lifecycle; read anywhere. */
    private volatile boolean synced;
    /** Guarded by lifecycle. */
    @GuardedBy("lifecycle")
    private Duration resyncCheckPeriod;
    /** Guarded by lifecycle. */
    @GuardedBy("lifecycle")
    private final Duration defaultEventHandlerResyncPeriod;
    /** Guarded by lifecycle; set before start. */
    @GuardedBy("lifecycle")
    private UnaryOperator<T> transform;
    /** Guarded by lifecycle; set before start. */
    @GuardedBy("lifecycle")
    private WatchErrorHandler watchErrorHandler;
    /** Set at start. */
    private volatile InformerQueue<T> queue;
    /** Set at start. */
    private volatile Reflector<T> reflector;
    /** Set at start. */
    private Thread popLoop;

    private final InformerMetrics metrics;
    /** The ticker's time at start; written under lifecycle before the pop loop starts. */
    private volatile long startedNanos;
    /** Guarded by lifecycle: handlers added so far, for their default names. */
    @GuardedBy("lifecycle")
    private int handlersAdded;

    DefaultSharedIndexInformer(ListerWatcher<T> listerWatcher, InformerOptions options) {
        this.listerWatcher = Objects.requireNonNull(listerWatcher, "listerWatcher");
        this.options = Objects.requireNonNull(options, "options");
        this.resyncCheckPeriod = options.resyncPeriod();
        this.defaultEventHandlerResyncPeriod = options.resyncPeriod();
        this.watchErrorHandler = options.reflector().watchErrorHandler();
        this.processor = new SharedProcessor<>(
                options.reflector().ticker(), options.reflector().threadFactory());
        this.metrics = options.reflector().metrics().forInformer(name());
    }

    private String name() {
        return options.reflector().name();
    }

    @Override
    public ResourceEventHandlerRegistration addEventHandler(ResourceEventHandler<T> handler) {
        lifecycle.lock();
        try {
            return addEventHandler(handler, defaultEventHandlerResyncPeriod);
        } finally {
            lifecycle.unlock();
        }
    }

    @Override
    public ResourceEventHandlerRegistration addEventHandler(ResourceEventHandler<T> handler, Duration resyncPeriod) {
        Objects.requireNonNull(handler, "handler");
        Objects.requireNonNull(resyncPeriod, "resyncPeriod");
        lifecycle.lock();
        try {
            if (stopped) {
                throw new IllegalStateException("informer " + name() + " has stopped; cannot add handler " + handler);
            }
            Duration period = resyncPeriod.isNegative() ? Duration.ZERO : resyncPeriod;
            if (period.isPositive()) {
                if (period.compareTo(MINIMUM_RESYNC_PERIOD) < 0) {
                    LOG.info(
                            "{}: resync period {} is too small, changing it to {}",
                            name(),
                            Durations.format(period),
                            Durations.format(MINIMUM_RESYNC_PERIOD));
                    period = MINIMUM_RESYNC_PERIOD;
                }
                if (period.compareTo(resyncCheckPeriod) < 0) {
                    if (started) {
                        LOG.info(
                                "{}: resync period {} is below the informer's check period {}; using the latter",
                                name(),
                                Durations.format(period),
                                Durations.format(resyncCheckPeriod));
                        period = resyncCheckPeriod;
                    } else {
                        resyncCheckPeriod = period;
                        processor.resyncCheckPeriodChanged(period);
                    }
                }
            }
            ProcessorListener<T> listener = new ProcessorListener<>(
                    name(),
                    handler,
                    period,
                    SharedProcessor.effectiveResyncPeriod(period, resyncCheckPeriod),
                    this::hasSynced,
                    handlerErrors,
                    handlerName(handler, handlersAdded++),
                    metrics,
                    options.ticker());
            metrics.handlerAdded(listener.handlerName(), listener::backlog);
            if (!started) {
                processor.addListener(listener);
                return listener;
            }
            // Late: replay the cache as initial adds, with no delta applied in between.
            blockDeltas.lock();
            try {
                processor.addListener(listener);
                for (T object : indexer.list()) {
                    listener.add(new Notification.Add<>(object, true));
                }
            } finally {
                blockDeltas.unlock();
            }
            return listener;
        } finally {
            lifecycle.unlock();
        }
    }

    @Override
    public void removeEventHandler(ResourceEventHandlerRegistration registration) {
        if (registration instanceof ProcessorListener<?> l) {
            processor.removeListener(l);
            l.stop();
        }
    }

    @Override
    public void shutDownEventHandler(ResourceEventHandlerRegistration registration) {
        if (registration instanceof ProcessorListener<?> l) {
            processor.removeListener(l);
            l.stopAndWait();
        }
    }

    @Override
    public Indexer<T> indexer() {
        return indexer;
    }

    @Override
    public void addIndexers(Map<String, IndexFunction<T>> indexers) {
        lifecycle.lock();
        try {
            if (stopped) {
                throw new IllegalStateException("informer " + name() + " has stopped; cannot add indexers");
            }
            indexer.addIndexers(indexers);
        } finally {
            lifecycle.unlock();
        }
    }

    @Override
    public void setTransform(UnaryOperator<T> transform) {
        lifecycle.lock();
        try {
            if (started) {
                throw new IllegalStateException(
                        "informer " + name() + " has already started; set the transform before start");
            }
            this.transform = transform;
        } finally {
            lifecycle.unlock();
        }
    }

    @Override
    public UnaryOperator<T> transform() {
        lifecycle.lock();
        try {
            return transform;
        } finally {
            lifecycle.unlock();
        }
    }

    @Override
    public void setWatchErrorHandler(WatchErrorHandler handler) {
        lifecycle.lock();
        try {
            if (started) {
                throw new IllegalStateException(
                        "informer " + name() + " has already started; set the handler before start");
            }
            this.watchErrorHandler = Objects.requireNonNull(handler, "handler");
        } finally {
            lifecycle.unlock();
        }
    }

    @Override
    public void start() {
        lifecycle.lock();
        try {
            if (stopped) {
                LOG.info("{}: start after close ignored", name());
                return;
            }
            if (started) {
                LOG.debug("{}: already started", name());
                return;
            }
            KeyFunction keys = indexer.keyFunction();
            queue = switch (options.queue()) {
                case REAL_FIFO -> new RealFifo<>(keys, transform);
                case DELTA_FIFO ->
                    DeltaFifo.<T>builder()
                            .keyFunction(keys)
                            .knownObjects(indexer)
                            .emitDeltaTypeReplaced(true)
                            .transformer(transform)
                            .build();
            };
            ReflectorOptions ro = options.reflector().toBuilder()
                    .resyncPeriod(resyncCheckPeriod)
                    .shouldResync(processor::shouldResync)
                    .watchErrorHandler(watchErrorHandler)
                    .build();
            reflector = new Reflector<>(listerWatcher, new SyncObservingStore(queue), ro, metrics);
            startedNanos = options.ticker().nanoTime();
            metrics.started(indexer::size, reflector::lastSyncResourceVersion);
            started = true;
            processor.start();
            popLoop = ro.threadFactory().newThread(this::popLoop);
            popLoop.start();
            reflector.start();
        } finally {
            lifecycle.unlock();
        }
    }

    private void popLoop() {
        InformerQueue<T> q = queue;
        Processing processing = new Processing();
        while (true) {
            boolean popped;
            try {
                popped = q.pop(processing);
            } catch (RuntimeException e) {
                LOG.error("{}: processing a queue entry failed; the entry is dropped", name(), e);
                continue;
            }
            if (!popped) {
                return;
            }
            if (q.hasSynced()) {
                markSynced();
            }
        }
    }

    private void markSynced() {
        if (synced) {
            return;
        }
        lifecycle.lock();
        try {
            synced = true;
        } finally {
            lifecycle.unlock();
        }
        metrics.synced(Duration.ofNanos(options.ticker().nanoTime() - startedNanos));
        syncWaiters.wakeAll();
    }

    /**
     * A handler's name in metrics: its own {@code toString()} when its class declares one, else
     * {@code handler-N} by the order handlers were added.
     */
    private static String handlerName(Object handler, int index) {
        try {
            if (handler.getClass().getMethod("toString").getDeclaringClass() != Object.class) {
                return handler.toString();
            }
        } catch (NoSuchMethodException e) {
            // every class has toString
        }
        return "handler-" + index;
    }

    @Override
    public boolean hasSynced() {
        InformerQueue<T> q = queue;
        return q != null && q.hasSynced();
    }

    /**
     * {@inheritDoc}
     *
     * <p>The timeout runs on the reflector options' ticker; the wait ends as soon as the queue
     * reports the sync (after the pop of the initial list, or at once for a list that queued
     * nothing) or the informer stops. An interrupt ends it too, with the flag kept.
     */
    @Override
    public boolean waitForCacheSync(Duration timeout) {
        syncWaiters.await(options.reflector().ticker(), timeout, () -> synced || stopped || hasSynced());
        return hasSynced();
    }

    @Override
    public String lastSyncResourceVersion() {
        Reflector<T> r = reflector;
        return r == null ? "" : r.lastSyncResourceVersion();
    }

    @Override
    public Optional<RuntimeException> lastSyncError() {
        Reflector<T> r = reflector;
        return r == null ? Optional.empty() : r.lastError();
    }

    @Override
    public Duration sinceLastReceived() {
        Reflector<T> r = reflector;
        return r == null ? Duration.ZERO : r.sinceLastReceived();
    }

    @Override
    public boolean isStopped() {
        lifecycle.lock();
        try {
            return stopped;
        } finally {
            lifecycle.unlock();
        }
    }

    @Override
    public long handlerErrors() {
        return handlerErrors.sum();
    }

    @Override
    public void close() {
        Thread pop;
        lifecycle.lock();
        try {
            if (stopped) {
                return;
            }
            stopped = true;
            pop = popLoop;
        } finally {
            lifecycle.unlock();
        }
        syncWaiters.wakeAll();
        Reflector<T> r = reflector;
        if (r != null) {
            r.close();
        }
        InformerQueue<T> q = queue;
        if (q != null) {
            q.close();
        }
        if (pop != null) {
            pop.interrupt();
            try {
                pop.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        processor.stopAll();
    }

    @Override
    public String toString() {
        return "SharedIndexInformer[" + name() + "]";
    }

    private static boolean sameResourceVersion(Object a, Object b) {
        return Objects.equals(ObjectAccess.resourceVersion(a), ObjectAccess.resourceVersion(b));
    }

    /**
     * The informer's queue as the reflector sees it: a replace that leaves the queue synced without
     * anything to pop (an empty first list) marks the informer synced at once.
     */
    private final class SyncObservingStore implements ReflectorStore<T> {

        private final InformerQueue<T> queue;

        SyncObservingStore(InformerQueue<T> queue) {
            this.queue = queue;
        }

        @Override
        public void add(T object) {
            queue.add(object);
        }

        @Override
        public void update(T object) {
            queue.update(object);
        }

        @Override
        public void delete(T object) {
            queue.delete(object);
        }

        @Override
        public void replace(List<T> objects, String resourceVersion) {
            queue.replace(objects, resourceVersion);
            if (!synced && queue.hasSynced()) {
                markSynced();
            }
        }

        @Override
        public void resync() {
            queue.resync();
        }
    }

    /** Applies popped entries to the indexer and hands notifications to the processor (client-go's processDeltas). */
    private final class Processing implements PopProcessor<T> {

        @Override
        public void process(List<Delta<T>> deltas, boolean isInInitialList) {
            blockDeltas.lock();
            try {
                for (Delta<T> d : deltas) {
                    switch (d) {
                        case Delta.Deleted<T> del -> {
                            indexer.delete(del.object());
                            processor.distribute(
                                    new Notification.Delete<>(del.object(), del.finalStateUnknown()), false);
                        }
                        case Delta.Added<T> a -> upsert(a.object(), isInInitialList);
                        case Delta.Updated<T> u -> upsert(u.object(), isInInitialList);
                        case Delta.Replaced<T> r -> upsert(r.object(), isInInitialList);
                        case Delta.Sync<T> s -> upsert(s.object(), isInInitialList);
                    }
                }
            } finally {
                blockDeltas.unlock();
            }
        }

        private void upsert(T object, boolean isInInitialList) {
            Optional<T> old = indexer.get(object);
            if (old.isPresent()) {
                indexer.update(object);
                boolean unchanged = sameResourceVersion(old.get(), object);
                processor.distribute(new Notification.Update<>(old.get(), object, unchanged), unchanged);
            } else {
                indexer.add(object);
                processor.distribute(new Notification.Add<>(object, isInInitialList), false);
            }
        }

        @Override
        public void replaceAll(List<T> objects, String resourceVersion, boolean isInInitialList) {
            blockDeltas.lock();
            try {
                KeyFunction keys = indexer.keyFunction();
                Map<ObjectKey, T> listed = HashMap.newHashMap(objects.size());
                for (T o : objects) {
                    listed.put(keys.key(o), o);
                }
                List<T> deleted = new ArrayList<>();
                List<T> olds = new ArrayList<>(objects.size());
                indexer.forEach((k, cached) -> {
                    if (!listed.containsKey(k)) {
                        deleted.add(cached);
                    }
                });
                for (T o : objects) {
                    olds.add(indexer.getByKey(keys.key(o)).orElse(null));
                }
                indexer.replace(objects, resourceVersion);
                for (T d : deleted) {
                    processor.distribute(new Notification.Delete<>(d, true), false);
                }
                for (int i = 0; i < objects.size(); i++) {
                    T o = objects.get(i);
                    T old = olds.get(i);
                    if (old == null) {
                        processor.distribute(new Notification.Add<>(o, isInInitialList), false);
                    } else {
                        boolean unchanged = sameResourceVersion(old, o);
                        processor.distribute(new Notification.Update<>(old, o, unchanged), unchanged);
                    }
                }
            } finally {
                blockDeltas.unlock();
            }
        }

        @Override
        public void resyncAll() {
            blockDeltas.lock();
            try {
                for (T o : indexer.list()) {
                    processor.distribute(new Notification.Update<>(o, o, true), true);
                }
            } finally {
                blockDeltas.unlock();
            }
        }
    }
}
