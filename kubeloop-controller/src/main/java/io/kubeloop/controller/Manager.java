package io.kubeloop.controller;

import io.kubeloop.cache.InformerFactory;
import io.kubeloop.cache.InformerOptions;
import io.kubeloop.cache.ReflectorOptions;
import io.kubeloop.cache.SharedIndexInformer;
import io.kubeloop.client.KubeClient;
import io.kubeloop.controller.client.Cache;
import io.kubeloop.controller.client.Client;
import io.kubeloop.controller.client.Reader;
import io.kubeloop.controller.events.EventBroadcaster;
import io.kubeloop.controller.events.EventBroadcasterOptions;
import io.kubeloop.controller.events.EventRecorder;
import io.kubeloop.controller.events.EventsV1Broadcaster;
import io.kubeloop.controller.events.EventsV1Recorder;
import io.kubeloop.controller.internal.client.ManagerClients;
import io.kubeloop.controller.internal.client.MissingKinds;
import io.kubeloop.controller.internal.endpoints.InformerHealthChecks;
import io.kubeloop.controller.internal.rbac.DeclaredPermissions;
import io.kubeloop.controller.internal.rbac.ScopedRule;
import io.kubeloop.controller.leader.LeaderCallbacks;
import io.kubeloop.controller.leader.LeaderElector;
import io.kubeloop.controller.metrics.InformerMeters;
import io.kubeloop.controller.metrics.LeaderElectionMetrics;
import io.kubeloop.controller.metrics.RestClientMetrics;
import io.kubeloop.controller.rbac.ManagerPermissions;
import io.kubeloop.time.Ticker;
import io.kubeloop.time.internal.Joins;
import io.kubeloop.time.internal.Waiters;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs {@linkplain Component components} — controllers, webhook servers, an application's own — over one set of
 * shared informers, with optional leader election (controller-runtime's {@code Manager}). It is a
 * {@link Cluster} (the informers, the cache-backed client, Event recorders); what it serves over HTTP is its
 * {@link #endpoints()}.
 *
 * <p>{@link #start()} starts the metrics and probe servers, the components that run on every replica and are
 * not controllers (webhook servers, so that a conversion webhook answers before the caches list), the informers,
 * and returns once the controllers' caches have synced — so a candidate's caches are warm when it becomes
 * leader, and what keeps them from syncing (a CRD not installed, a refused list) makes {@code start()} throw
 * instead of leaving a process that never reconciles. The components that need leadership start when this
 * process leads (at once without leader election, before {@code start()} returns, which throws what they
 * throw). When leadership is lost, the manager stops everything and records the failure {@code "leader election
 * lost"} (controller-runtime exits the process then; here {@link #awaitTermination} returns and
 * {@link #failure()} says why); a component that fails after it started, or that cannot start once this
 * process was elected, stops the manager the same way.
 *
 * <p>Metrics of the controllers built with {@link ControllerBuilder#build(Manager, Reconciler)} (and of their
 * work queues, of the requests the manager's client makes ({@link RestClientMetrics}), of its informers
 * ({@link InformerMeters}), of its leader election ({@link LeaderElectionMetrics}) and of the JVM) go to
 * {@link #meterRegistry()}. With {@code io.micrometer:micrometer-registry-prometheus} on the class path (on the
 * module path: a module that requires {@code micrometer.registry.prometheus}), that is a Prometheus registry,
 * served as Prometheus text on {@code /metrics} when {@link ManagerOptions#metricsAddress()} is set; the same
 * server shows them live on {@code /loops}, an HTML page of every informer, work queue and controller and the
 * leadership, updated each second by server-sent events from {@code /loops/events}. Without it
 * (kubeloop-controller declares it optional) the metrics are kept in memory only, in a
 * {@link SimpleMeterRegistry}, and a metrics address makes {@link #start()} fail at once, naming the artifact to
 * add.
 *
 * {@snippet :
 * ManagerOptions options = ManagerOptions.defaults().withLeaderElection(LeaderElectionOptions.defaults("ns", "foo-lock", id));
 * try (Manager manager = Manager.create(client, options)) {
 *     ControllerBuilder.forResource(Foo.class).owns(Deployment.class).build(manager, reconciler);
 *     manager.start();
 *     manager.awaitTermination();
 * }
 * }
 *
 * <p><b>Thread safety:</b> thread-safe; components are added before {@link #start()}. The lifecycle flags
 * change under {@link #lock} and are volatile, so {@link #isLeader()} and the health checks see a start or stop
 * made on another thread at once.
 */
public final class Manager implements Cluster, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Manager.class);

    private final ManagerOptions options;
    private final InformerFactory informers;
    private final ManagerClients clients;
    private final EventBroadcaster events;
    private final EventsV1Broadcaster eventsV1;
    private final Optional<LeaderElector> elector;
    /** Fires when the manager stops or loses leadership; the client refuses every call afterwards. */
    private final Cancellation stopped = Cancellation.create();

    private final ManagerComponents components = new ManagerComponents();
    /** What the controllers declared and which Events are written; thread-safe. */
    private final DeclaredPermissions declared = new DeclaredPermissions();
    /** The registry (Prometheus when micrometer-registry-prometheus is there) and the JVM meters. */
    private final ManagerMeters meters = new ManagerMeters();

    private final MeterRegistry registry = meters.registry();
    private final ManagerServers servers = new ManagerServers();
    private final ManagerEndpoints endpoints;

    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final CountDownLatch terminated = new CountDownLatch(1);
    /** Threads in {@link #awaitTermination(Duration)}; woken on termination. */
    private final Waiters terminationWaiters = new Waiters();

    /** Orders the lifecycle: {@link #started} and {@link #closed} change only while holding it. */
    private final Object lock = new Object();
    /** Written under {@link #lock}, read without it ({@link #isLeader()} polls it from any thread). */
    private volatile boolean started;
    /** Written under {@link #lock}, read without it. */
    private volatile boolean closed;
    /** The elector's thread once started; {@link #close()} waits for it. */
    private volatile Thread electorThread;

    private Manager(KubeClient given, ManagerOptions options) {
        Objects.requireNonNull(given, "client");
        this.options = Objects.requireNonNull(options, "options");
        KubeClient measured = given.withRequestMetrics(RestClientMetrics.create(registry));
        KubeClient client = options.accessRecorder()
                .map(recorder -> measured.withInterceptor(recorder.interceptor()))
                .orElse(measured);
        this.informers = InformerFactory.create(
                client,
                InformerOptions.builder()
                        .reflector(ReflectorOptions.builder()
                                .metrics(InformerMeters.provider(registry))
                                .build())
                        .ticker(options.ticker())
                        .build());
        this.endpoints = new ManagerEndpoints(servers, new InformerHealthChecks(informers, () -> started), registry);
        this.clients = ManagerClients.create(client, informers, options.cache(), stopped);
        EventBroadcasterOptions eventOptions =
                EventBroadcasterOptions.builder().ticker(options.ticker()).build();
        this.events = new EventBroadcaster(client, eventOptions);
        this.eventsV1 = new EventsV1Broadcaster(client, eventOptions);
        meters.bindJvm();
        this.elector = options.leaderElection()
                .map(c -> c.withTicker(options.ticker()))
                .map(config -> {
                    LeaderElectionMetrics election =
                            LeaderElectionMetrics.register(registry, config.name(), this::isLeader);
                    return new LeaderElector(client, config, new LeaderCallbacks() {
                        @Override
                        public void onStartedLeading() {
                            election.transitioned();
                            startLeadersWhenElected();
                        }

                        @Override
                        public void onStoppedLeading() {
                            election.transitioned();
                            leadershipEnded();
                        }
                    });
                });
    }

    /**
     * A manager over {@code client} with the {@link ManagerOptions#defaults() default options}: no
     * leader election (the controllers start with the manager), no servers, the system ticker.
     *
     * @param client the cluster
     * @return a manager, not started
     */
    public static Manager create(KubeClient client) {
        return new Manager(client, ManagerOptions.defaults());
    }

    /**
     * A manager over {@code client} with leader election and servers as {@code options} say.
     *
     * @param client the cluster
     * @param options leader election, metrics and health probe addresses
     * @return a manager, not started
     */
    public static Manager create(KubeClient client, ManagerOptions options) {
        return new Manager(client, options);
    }

    /**
     * Where this manager's metrics go: its controllers' (when built with
     * {@link ControllerBuilder#build(Manager, Reconciler)}), their work queues', and the JVM's. A
     * Prometheus registry, served on {@code /metrics} when a metrics address is set, when
     * micrometer-registry-prometheus is there; else an in-memory {@link SimpleMeterRegistry}.
     */
    public MeterRegistry meterRegistry() {
        return registry;
    }

    /** The metrics and health probe servers, and the checks the probes answer. */
    public ManagerEndpoints endpoints() {
        return endpoints;
    }

    @Override
    public InformerFactory informers() {
        return informers;
    }

    @Override
    public Client client() {
        return clients.client();
    }

    @Override
    public Cache cache() {
        return clients.cache();
    }

    @Override
    public Reader apiReader() {
        return clients.apiReader();
    }

    @Override
    public EventRecorder eventRecorderFor(String name) {
        declared.recordsCoreEvents();
        return events.recorderFor(name);
    }

    @Override
    public EventsV1Recorder eventsV1RecorderFor(String name) {
        declared.recordsEventsV1();
        return eventsV1.recorderFor(name);
    }

    /**
     * The RBAC rules this manager needs, as far as it knows them now: for each controller built over
     * it with {@link ControllerBuilder#build(Manager, Reconciler)}, {@code get, list, watch} on every
     * type it watches, in the namespaces the {@link ManagerOptions#cache() cache} holds of it, and what
     * the controller declares ({@link io.kubeloop.controller.rbac.Permission @Permission} on its
     * reconciler's class, {@link ControllerBuilder#withPermissions}) in the cache's default namespaces
     * (cluster-wide for cluster-scoped resources); {@code create, patch} on Events (core, and
     * {@code events.k8s.io} once {@link #eventsV1RecorderFor} was called) where the cache holds objects;
     * with leader election, {@code get, create, update} on Leases in the Lease's namespace.
     * Write them out with {@link io.kubeloop.controller.rbac.RbacManifests}.
     *
     * @return the permissions, merged
     */
    public ManagerPermissions permissions() {
        return declared.permissions(
                options.cache().defaultNamespaces(), options.leaderElection().map(c -> c.namespace()));
    }

    /**
     * Adds a component: a controller (built over {@link #informers()}), a webhook server, or one of the
     * application's own. It starts with the manager, or when this process leads if it
     * {@link Component#needsLeaderElection() needs leadership}, and is closed with the manager; a failure it
     * reports after it started stops the manager.
     *
     * @param component the component, not started
     * @throws IllegalStateException once the manager started
     * @throws IllegalArgumentException if it was added before
     */
    public void add(Component component) {
        synchronized (lock) {
            requireNotStarted();
            components.add(component, (c, e) -> {
                if (failure.compareAndSet(null, e)) {
                    LOG.error("{} failed; stopping the manager", c.name());
                }
                Thread.ofVirtual().name("manager-stop").start(this::close);
            });
        }
    }

    /**
     * Starts the servers, the replica's components that are not controllers, and the informers; waits until
     * the informers of every controller's watches have synced (each controller within its
     * {@link ControllerOptions#cacheSyncTimeout() cache-sync timeout}, all at once); starts the replica's
     * controllers, then either the leader's components (no leader election) or the elector, and returns. What
     * keeps a component from starting makes it throw, the manager closed and {@link #failure()} set: a server
     * that cannot bind, a component whose start throws, a controller whose list is refused (at once), a
     * controller whose caches do not sync in time. An informer listing a kind the server does not serve (its
     * CRD is not installed) says so on its first miss — {@code if kind is a CRD, it should be installed before
     * calling Start: no matches for kind "Gateway" in version "gateway.networking.k8s.io/v1"} — and keeps
     * retrying as controller-runtime's Kind source does: a CRD created a moment later (Helm and OLM create it
     * beside the Deployment) lets the start go on; one still missing at the time-out makes {@code start()}
     * throw a {@link CacheSyncTimeoutException} naming the kind, its cause discovery's
     * {@link io.kubeloop.client.discovery.NoMatchException}.
     *
     * @throws IllegalStateException if started twice or after close; with a metrics address but
     *     without micrometer-registry-prometheus (before anything started; the manager is closed); when
     *     interrupted while waiting for the caches (the manager is closed)
     * @throws java.io.UncheckedIOException when a server cannot bind its address (the manager is closed)
     * @throws CacheSyncTimeoutException when a controller's caches did not sync within its timeout
     * @throws CacheAccessDeniedException when a controller's informer may not list or watch
     * @throws RuntimeException what a component's own start threw (the manager is closed)
     */
    public void start() {
        synchronized (lock) {
            if (started || closed) {
                throw new IllegalStateException("a manager starts once");
            }
            started = true;
        }
        try {
            servers.start(options, registry, endpoints::scrape, this::isLeader, components::controllers);
            failIfAny(ManagerComponents.start(components.replicaServers()));
            informers.start();
            CacheSyncBarrier.await(components.controllers(), this::fail);
            failIfAny(ManagerComponents.start(components.replicaControllers()));
        } catch (RuntimeException e) {
            fail(e);
            throw e;
        }
        if (elector.isPresent()) {
            electorThread = elector.get().start();
        } else {
            RuntimeException failed = startLeaders();
            if (failed != null) {
                fail(failed);
                throw failed;
            }
        }
    }

    /** Whether this process leads (always true without leader election, once started). */
    public boolean isLeader() {
        return elector.map(LeaderElector::isLeader).orElse(started);
    }

    /** Why the manager stopped on its own, if it did: lost leadership, or a component that failed. */
    public Optional<Throwable> failure() {
        return Optional.ofNullable(failure.get());
    }

    /**
     * Waits until the manager stops (closed, leadership lost, or a component failed).
     *
     * @throws InterruptedException if interrupted while waiting
     */
    public void awaitTermination() throws InterruptedException {
        terminated.await();
    }

    /**
     * {@link #awaitTermination()} with a timeout on the options' {@link ManagerOptions#ticker() ticker}.
     *
     * @param timeout the longest wait
     * @return true if the manager stopped
     * @throws InterruptedException if interrupted while waiting
     */
    public boolean awaitTermination(Duration timeout) throws InterruptedException {
        return terminationWaiters.awaitInterruptibly(
                options.ticker(),
                Ticker.deadline(options.ticker().nanoTime(), timeout),
                () -> terminated.getCount() == 0);
    }

    /**
     * Stops the components (waiting for reconciles in progress), then the elector — which hands the
     * Lease back when its configuration says so, only now that no controller of this process writes, and
     * is waited for so that a process exiting after {@code close()} does not leave the others to wait out
     * the Lease — then the informers. Idempotent.
     */
    @Override
    public void close() {
        synchronized (lock) {
            if (closed) {
                return;
            }
            closed = true;
        }
        stopComponents();
        elector.ifPresent(LeaderElector::stop);
        Thread competing = electorThread;
        if (competing != null && competing != Thread.currentThread()) {
            Joins.joinUninterruptibly(competing);
        }
        stopAll();
    }

    // ---- for ControllerBuilder, in this package

    /** The clock of the manager, its informers, its leader election and its controllers. */
    Ticker ticker() {
        return options.ticker();
    }

    /** The options this manager was made with. */
    ManagerOptions options() {
        return options;
    }

    /** What {@code informer}, of this manager's cache, misses: a kind the server does not serve. */
    Optional<MissingKinds.Miss> missingKind(SharedIndexInformer<?> informer) {
        return clients.missingKinds().missing(informer);
    }

    /** The client of a controller's reconciles: {@link #client()}, also refusing calls once {@code controllerStopped} fired. */
    Client clientFor(Cancellation controllerStopped) {
        return clients.guardedBy(controllerStopped);
    }

    /** Adds the rules a controller built over this manager needs. */
    void declare(List<ScopedRule> rules) {
        declared.add(rules);
    }

    /** @throws IllegalStateException once the manager started or closed */
    void requireNotStarted() {
        if (started || closed) {
            throw new IllegalStateException("components must be added before the manager starts");
        }
    }

    // ---- lifecycle

    /** Records {@code e} as the manager's failure (unless one is recorded) and closes the manager. */
    private void fail(RuntimeException e) {
        failure.compareAndSet(null, e);
        close();
    }

    private static void failIfAny(RuntimeException failed) {
        if (failed != null) {
            throw failed;
        }
    }

    /** Starts the leader's components as the election's callback does: a failure stops the manager. */
    private void startLeadersWhenElected() {
        RuntimeException failed = startLeaders();
        if (failed != null) {
            failure.compareAndSet(null, failed);
            LOG.error("{}; stopping the manager", failed.getMessage(), failed);
            Thread.ofVirtual().name("manager-stop").start(this::close);
        }
    }

    /** Starts the leader's components, unless the manager closed; returns the first failure, or null. */
    private RuntimeException startLeaders() {
        synchronized (lock) {
            if (closed) {
                return null;
            }
        }
        return ManagerComponents.start(components.leaders());
    }

    private void leadershipEnded() {
        stopped.cancel("leader election lost");
        boolean wasClosing;
        synchronized (lock) {
            wasClosing = closed;
            closed = true;
        }
        if (!wasClosing) {
            failure.compareAndSet(null, new IllegalStateException("leader election lost"));
            LOG.error("leader election lost; stopping the manager");
        }
        stopAll();
    }

    /** Stops every component, waiting for the reconciles in progress. */
    private void stopComponents() {
        stopped.cancel(
                failure.get() != null ? "the manager stopped: " + failure.get().getMessage() : "the manager stopped");
        components.closeAll();
    }

    private void stopAll() {
        try {
            stopComponents();
        } finally {
            informers.close();
            events.close();
            eventsV1.close();
            servers.close();
            meters.close();
            terminated.countDown();
            terminationWaiters.wakeAll();
        }
    }
}
