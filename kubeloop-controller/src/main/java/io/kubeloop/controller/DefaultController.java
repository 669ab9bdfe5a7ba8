package io.kubeloop.controller;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import io.kubeloop.api.Scheme;
import io.kubeloop.api.errors.ApiException;
import io.kubeloop.api.errors.ForbiddenException;
import io.kubeloop.api.errors.UnauthorizedException;
import io.kubeloop.cache.ResourceEventHandler;
import io.kubeloop.cache.ResourceEventHandlerRegistration;
import io.kubeloop.cache.SharedIndexInformer;
import io.kubeloop.controller.client.Client;
import io.kubeloop.controller.events.EventRecorder;
import io.kubeloop.controller.internal.client.MissingKinds;
import io.kubeloop.controller.internal.desired.DesiredStates;
import io.kubeloop.controller.internal.desired.OwnedKinds;
import io.kubeloop.time.Durations;
import io.kubeloop.time.Ticker;
import io.kubeloop.workqueue.PriorityQueue;
import io.kubeloop.workqueue.RateLimitingQueue;
import io.kubeloop.workqueue.WorkQueueOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * The {@link Controller} implementation: a {@link RateLimitingQueue} of requests and a fixed set of
 * worker threads, each looping get → reconcile → requeue as the outcome asks → done.
 *
 * <p>Invariants: a request is reconciled by at most one worker at a time (the queue hands a request
 * to one worker until its {@code done}, and {@code done} follows every {@code get}); no reconcile
 * starts once {@link #stopping} is set; the state moves only forward, NEW → STARTING → RUNNING →
 * STOPPED, skipping any but the last; watches are added only while NEW; the cancellation fires when
 * the controller stops, and a worker is interrupted only while it reconciles (never in the queue).
 * Watches are added while NEW, STARTING or RUNNING (an owned kind applied for the first time by a
 * reconcile is watched then); {@link #watches} is copy-on-write, so the start's wait for sync sees
 * those added meanwhile.
 *
 * <p><b>Thread safety:</b> all methods are thread-safe; the state is changed under one lock and read
 * without it (volatile); the worker list is written once by the thread that wins the start.
 */
final class DefaultController implements Controller {

    private static final Logger LOG = LoggerFactory.getLogger(Controller.class);
    /** How often {@link #start()} looks at the registrations while it waits for them to sync. */
    private static final Duration SYNC_POLL = Duration.ofMillis(5);

    private enum State {
        NEW,
        STARTING,
        RUNNING,
        STOPPED
    }

    /** A watch: the informer and this controller's registration on it. */
    private record Watch(SharedIndexInformer<?> informer, ResourceEventHandlerRegistration registration) {}

    private final String name;
    private final Reconciler reconciler;
    /** Fires when the controller stops; guards the reconciles' client. */
    private final Cancellation cancellation = Cancellation.create();
    /** The client of the reconciles, guarded by {@link #cancellation}; null without a manager. */
    private final Client client;

    private final EventRecorder events;
    /** The state behind the reconciles' owned objects: field manager, memory of applies, owned watches. */
    private final DesiredStates desired;
    /** What an unsynced informer misses (a kind the server does not serve), for the start's time-out. */
    private final Function<SharedIndexInformer<?>, Optional<MissingKinds.Miss>> missingKind;

    private final Logger reconcileLog;
    private final Duration gracefulShutdownTimeout;
    private final int workers;
    private final boolean recoverPanic;
    private final Ticker ticker;
    private final ReconcileMetrics metrics;
    /** Counts, requeues and logs the reconciles that threw. */
    private final ReconcileFailures failures;

    private final RateLimitingQueue<Request> queue;
    private final RecentKeys recentKeys = new RecentKeys();
    /**
     * The queue as handlers see it for an unchanged object (initial list, resync): with the priority
     * queue a view whose adds go in at low priority, otherwise {@link #queue} itself.
     */
    private final RateLimitingQueue<Request> unchangedQueue;
    /** Guards the state changes (reads need no lock). */
    private final Object lifecycle = new Object();

    private volatile State state = State.NEW;
    /** What stopped the controller on its own; set once, under {@link #lifecycle}. */
    private volatile Throwable failure;
    /** Told of the failure; guarded by {@link #lifecycle}, emptied when the failure is set. */
    @GuardedBy("lifecycle")
    private final List<Consumer<? super Throwable>> failureListeners = new ArrayList<>();

    private final Duration cacheSyncTimeout;
    private final List<Watch> watches = new CopyOnWriteArrayList<>();
    /** The workers; set by {@link #start()} before the state becomes RUNNING. */
    private volatile List<Worker> workerList = List.of();
    /** Set when stopping begins; workers start no reconcile after seeing it. */
    private volatile boolean stopping;
    /** The thread waiting in {@link #start()} for the caches, unparked by {@link #stop()}. */
    private volatile Thread starter;

    DefaultController(Reconciler reconciler, ControllerOptions options) {
        this(reconciler, options, null, null, null, informer -> Optional.empty());
    }

    /**
     * A controller whose reconciles get a client and a recorder.
     *
     * @param clientFor makes the reconciles' client, guarded by the given cancellation; null for none
     * @param events the reconciles' recorder, or null for none
     * @param desired the state behind the reconciles' owned objects; null for one that watches nothing
     * @param missingKind what an informer that has not synced misses, if it knows
     */
    DefaultController(
            Reconciler reconciler,
            ControllerOptions options,
            Function<Cancellation, Client> clientFor,
            EventRecorder events,
            DesiredStates desired,
            Function<SharedIndexInformer<?>, Optional<MissingKinds.Miss>> missingKind) {
        this.reconciler = Objects.requireNonNull(reconciler, "reconciler");
        this.name = options.name();
        this.client = clientFor == null ? null : clientFor.apply(cancellation);
        this.events = events;
        this.desired = desired != null ? desired : DesiredStates.create(Scheme.defaults(), name, OwnedKinds.NONE);
        this.missingKind = Objects.requireNonNull(missingKind, "missingKind");
        this.reconcileLog = LoggerFactory.getLogger(ReconcileContext.loggerName(name));
        this.gracefulShutdownTimeout = options.gracefulShutdownTimeout();
        cancellation.onCancel(this::interruptReconciles);
        this.workers = options.maxConcurrentReconciles();
        this.recoverPanic = options.recoverPanic();
        this.ticker = options.ticker();
        this.cacheSyncTimeout = options.cacheSyncTimeout();
        WorkQueueOptions.Builder queueConfig =
                WorkQueueOptions.builder().name(name).ticker(ticker);
        if (options.meterRegistry() != null) {
            queueConfig.meterRegistry(options.meterRegistry());
        }
        if (options.usePriorityQueue()) {
            PriorityQueue<Request> pq = PriorityQueue.create(options.rateLimiter(), queueConfig.build());
            this.queue = pq;
            this.unchangedQueue = new LowPriorityQueueView(pq);
        } else {
            this.queue = RateLimitingQueue.create(options.rateLimiter(), queueConfig.build());
            this.unchangedQueue = queue;
        }
        this.metrics = options.meterRegistry() == null
                ? ReconcileMetrics.NOOP
                : new MicrometerReconcileMetrics(name, workers, options.meterRegistry());
        this.failures = new ReconcileFailures(name, queue, metrics);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public RateLimitingQueue<Request> queue() {
        return queue;
    }

    @Override
    public <T> void watch(
            SharedIndexInformer<T> informer, EventHandler<T> handler, Predicate<? super Event<T>> filter) {
        Objects.requireNonNull(informer, "informer");
        Objects.requireNonNull(handler, "handler");
        Objects.requireNonNull(filter, "filter");
        synchronized (lifecycle) {
            if (state == State.STOPPED) {
                throw new IllegalStateException("controller " + name + " has stopped: it watches nothing more");
            }
            ResourceEventHandler<T> bridge = new ResourceEventHandler<>() {
                @Override
                public void onAdd(T object, boolean isInInitialList) {
                    deliver(new Event.Create<>(object, isInInitialList));
                }

                @Override
                public void onUpdate(T oldObject, T newObject, boolean unchanged) {
                    deliver(new Event.Update<>(oldObject, newObject, unchanged));
                }

                @Override
                public void onDelete(T object, boolean finalStateUnknown) {
                    deliver(new Event.Delete<>(object, finalStateUnknown));
                }

                private void deliver(Event<T> event) {
                    if (filter.test(event)) {
                        handler.handle(event, unchangedQueue != queue && isUnchanged(event) ? unchangedQueue : queue);
                    }
                }
            };
            watches.add(new Watch(informer, informer.addEventHandler(bridge)));
        }
    }

    /**
     * controller-runtime's {@code WithLowPriorityWhenUnchanged}: an object of the informer's initial
     * list, or an update that changed nothing (a resync: same resourceVersion, as the informer found).
     */
    private static boolean isUnchanged(Event<?> event) {
        return switch (event) {
            case Event.Create<?> c -> c.isInInitialList();
            case Event.Update<?> u -> u.unchanged();
            case Event.Delete<?> d -> false;
            case Event.Generic<?> g -> false;
        };
    }

    @Override
    public void start() {
        synchronized (lifecycle) {
            State was = state;
            if (was != State.NEW) {
                throw new IllegalStateException("controller " + name + " cannot start: it "
                        + (was == State.STOPPED ? "has stopped" : "was already started"));
            }
            state = State.STARTING;
        }
        if (!awaitWatchesSynced()) {
            return; // closed while waiting
        }
        synchronized (lifecycle) {
            if (state != State.STARTING) {
                return; // closed while waiting
            }
            List<Worker> started = new ArrayList<>(workers);
            for (int i = 0; i < workers; i++) {
                started.add(new Worker(name + "-worker-" + i));
            }
            workerList = List.copyOf(started);
            state = State.RUNNING;
            started.forEach(w -> w.thread.start());
        }
        LOG.info("controller {} started with {} worker(s)", name, workers);
    }

    /**
     * Waits until every watch's registration has synced, without starting: what a {@link Manager} does
     * for all its controllers before it starts any, or competes for leadership. Called by one thread at a
     * time, before {@link #start()}.
     *
     * @return true when synced, false when the controller was closed meanwhile
     * @throws CacheSyncTimeoutException after the cache-sync timeout; the controller is closed
     * @throws CacheAccessDeniedException as soon as a list or watch was refused; the controller is closed
     */
    boolean awaitCachesSynced() {
        return awaitWatchesSynced();
    }

    /**
     * Waits until every watch's registration has synced. The timeout runs on the ticker; the
     * registrations are looked at every {@link #SYNC_POLL} of real time (a sync is no timed event,
     * and a poll on a fake ticker would stall until a step), and at once when the controller closes.
     *
     * @return true when synced, false when the controller was closed meanwhile
     * @throws CacheSyncTimeoutException after {@link #cacheSyncTimeout}; the controller is closed. When an
     *     unsynced informer's kind is not served, the message names the kind in controller-runtime's words
     *     and the cause is discovery's {@link io.kubeloop.client.discovery.NoMatchException}
     * @throws CacheAccessDeniedException as soon as an unsynced informer's list or watch was refused with
     *     401 or 403; the controller is closed
     */
    private boolean awaitWatchesSynced() {
        long deadline = Ticker.deadline(ticker.nanoTime(), cacheSyncTimeout);
        starter = Thread.currentThread();
        try {
            for (; ; ) {
                if (stopping) {
                    return false;
                }
                List<Watch> unsynced = watches.stream()
                        .filter(w -> !w.registration().hasSynced())
                        .toList();
                if (unsynced.isEmpty()) {
                    return true;
                }
                for (Watch w : unsynced) {
                    if (w.informer().lastSyncError().orElse(null) instanceof ApiException denied
                            && (denied instanceof ForbiddenException || denied instanceof UnauthorizedException)) {
                        close();
                        throw new CacheAccessDeniedException(
                                "controller " + name + ": the informer " + w.informer() + " may not list or watch: "
                                        + denied.getMessage(),
                                denied);
                    }
                }
                if (deadline != Long.MAX_VALUE && ticker.nanoTime() - deadline >= 0) {
                    close();
                    throw timedOut(unsynced);
                }
                LockSupport.parkNanos(this, SYNC_POLL.toNanos());
                if (Thread.currentThread().isInterrupted()) {
                    close();
                    throw new IllegalStateException(
                            "controller " + name + ": interrupted while waiting for caches to sync");
                }
            }
        } finally {
            starter = null;
        }
    }

    /**
     * The time-out of a start: naming the first kind the server does not serve (controller-runtime's
     * {@code timed out waiting for cache to be synced for Kind}), else the informers that did not sync.
     */
    private CacheSyncTimeoutException timedOut(List<Watch> unsynced) {
        for (Watch w : unsynced) {
            Optional<MissingKinds.Miss> miss = missingKind.apply(w.informer());
            if (miss.isPresent()) {
                return new CacheSyncTimeoutException(
                        "controller " + name + ": timed out after " + Durations.format(cacheSyncTimeout)
                                + " waiting for the cache of kind "
                                + miss.get().kind().groupKind()
                                + " to sync: " + miss.get().describe(),
                        miss.get().error());
            }
        }
        return new CacheSyncTimeoutException("controller " + name + ": caches did not sync within "
                + Durations.format(cacheSyncTimeout) + " (is the informer started, and can it list?): "
                + unsynced.stream().map(w -> w.informer().toString()).toList());
    }

    /**
     * Stops: no new reconciles, the cancellation fires (interrupting reconciles in flight), then waits
     * for the workers up to the graceful shutdown timeout and names the reconciles still running
     * after it. A reconciler closing its own controller does not wait for itself.
     */
    @Override
    public void close() {
        synchronized (lifecycle) {
            state = State.STOPPED;
        }
        stop();
        cancellation.cancel("controller " + name + " stopped");
        for (Watch w : watches) {
            w.informer().removeEventHandler(w.registration());
        }
        List<Worker> stillRunning = awaitWorkers();
        if (!stillRunning.isEmpty()) {
            LOG.warn(
                    "controller {}: {} reconcile(s) still running {} after it stopped, left behind: {}",
                    name,
                    stillRunning.size(),
                    Durations.format(gracefulShutdownTimeout),
                    stillRunning.stream()
                            .map(Worker::current)
                            .flatMap(Optional::stream)
                            .toList());
        }
    }

    /** Waits for the workers up to the graceful shutdown timeout (on the ticker); returns those still alive. */
    private List<Worker> awaitWorkers() {
        long deadline = Ticker.deadline(ticker.nanoTime(), gracefulShutdownTimeout);
        boolean interrupted = false;
        List<Worker> alive = new ArrayList<>();
        for (Worker w : workerList) {
            if (w.thread == Thread.currentThread()) {
                continue;
            }
            while (w.thread.isAlive() && ticker.nanoTime() - deadline < 0) {
                try {
                    w.thread.join(Duration.ofMillis(20));
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            if (w.thread.isAlive()) {
                alive.add(w);
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        return alive;
    }

    /** Interrupts the workers that are reconciling now (not those waiting on the queue). */
    private void interruptReconciles() {
        for (Worker w : workerList) {
            w.interruptIfReconciling();
        }
    }

    @Override
    public Optional<Throwable> failure() {
        return Optional.ofNullable(failure);
    }

    @Override
    public void onFailure(Consumer<? super Throwable> listener) {
        Objects.requireNonNull(listener, "listener");
        Throwable already;
        synchronized (lifecycle) {
            already = failure;
            if (already == null) {
                failureListeners.add(listener);
                return;
            }
        }
        tell(listener, already);
    }

    /** Records the first failure and tells the listeners (outside the lock). */
    private void stoppedBy(Throwable e) {
        List<Consumer<? super Throwable>> listeners;
        synchronized (lifecycle) {
            if (failure != null) {
                return;
            }
            failure = e;
            listeners = List.copyOf(failureListeners);
            failureListeners.clear();
        }
        listeners.forEach(l -> tell(l, e));
    }

    private void tell(Consumer<? super Throwable> listener, Throwable e) {
        try {
            listener.accept(e);
        } catch (RuntimeException listenerFailure) {
            LOG.error("controller {}: a failure listener threw", name, listenerFailure);
        }
    }

    /** Starts stopping: no new reconciles, the queue refuses adds and lets idle workers go. */
    private void stop() {
        stopping = true;
        queue.shutDown();
        Thread waiting = starter;
        if (waiting != null) {
            LockSupport.unpark(waiting);
        }
    }

    /**
     * One worker thread and the request it reconciles now. The request is set and cleared under
     * {@link #slot}, and the thread is interrupted only under it while a request is set, so an
     * interrupt meant for a reconcile never reaches the queue calls around it.
     */
    private final class Worker implements Runnable {
        private final Thread thread;
        private final Object slot = new Object();

        @GuardedBy("slot")
        private Request current;

        Worker(String threadName) {
            this.thread = Thread.ofVirtual().name(threadName).unstarted(this);
        }

        Optional<Request> current() {
            synchronized (slot) {
                return Optional.ofNullable(current);
            }
        }

        void interruptIfReconciling() {
            synchronized (slot) {
                if (current != null) {
                    thread.interrupt();
                }
            }
        }

        @Override
        public void run() {
            for (; ; ) {
                Optional<Request> next = queue.get();
                if (next.isEmpty()) {
                    return; // shut down and empty
                }
                Request request = next.get();
                try {
                    boolean run;
                    synchronized (slot) {
                        run = !stopping;
                        current = run ? request : null;
                    }
                    if (run) {
                        try {
                            reconcileOnce(request);
                        } finally {
                            synchronized (slot) {
                                current = null;
                                Thread.interrupted(); // an interrupt meant for the reconcile ends with it
                            }
                        }
                    }
                } finally {
                    queue.done(request);
                }
            }
        }
    }

    @Override
    public HotKeys hotKeys() {
        return recentKeys.hot();
    }

    /** Runs the reconciler for {@code request} and requeues as its outcome asks. */
    private void reconcileOnce(Request request) {
        metrics.activeWorkers(1);
        long start = ticker.nanoTime();
        ReconcileMetrics.Outcome outcome = ReconcileMetrics.Outcome.ERROR;
        MDC.put("controller", name);
        MDC.put("namespace", request.namespace());
        MDC.put("name", request.name());
        MDC.put("reconcileID", UUID.randomUUID().toString());
        try {
            Result result = reconciler.reconcile(
                    request,
                    ReconcileContext.create(name, client, events, reconcileLog, cancellation, desired, ticker));
            if (result == null) {
                throw new NullPointerException("reconciler of controller " + name + " returned no Result for " + request
                        + "; return Result.done() when there is nothing more to do");
            }
            outcome = switch (result) {
                case Result.Done d -> {
                    queue.forget(request);
                    yield ReconcileMetrics.Outcome.SUCCESS;
                }
                case Result.RequeueAfter after -> {
                    queue.forget(request);
                    queue.addAfter(request, after.delay());
                    yield ReconcileMetrics.Outcome.REQUEUE_AFTER;
                }
            };
        } catch (VirtualMachineError e) {
            throw e;
        } catch (Error e) {
            if (!recoverPanic) {
                // stop first, so whoever sees the failure also sees the controller stopping; the error
                // is not rethrown: logged here once and kept in failure(), the worker ends as the queue
                // drains (an uncaught rethrow would only print it again from the thread's handler)
                stop();
                LOG.error(
                        "controller {}: reconcile of {} threw {}; stopping the controller (recoverPanic is off)",
                        name,
                        request,
                        e.toString(),
                        e);
                stoppedBy(e);
                return;
            }
            metrics.panic();
            failures.failed(request, e, "panic (recovered)");
        } catch (Exception e) {
            if (stopping && ReconcileFailures.isCancellation(e)) {
                LOG.debug("controller {}: reconcile of {} ended by the stop: {}", name, request, e.toString());
            } else {
                failures.failed(request, e, "error");
            }
        } finally {
            MDC.remove("controller");
            MDC.remove("namespace");
            MDC.remove("name");
            MDC.remove("reconcileID");
            long nanos = ticker.nanoTime() - start;
            recentKeys.reconciled(request, nanos, queue.numRequeues(request));
            metrics.reconciled(outcome, metrics.timed() ? nanos : 0);
            metrics.activeWorkers(-1);
        }
    }

    @Override
    public String toString() {
        return "Controller[" + name + ", " + state + ", workers=" + workers + "]";
    }
}
