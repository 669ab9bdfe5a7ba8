package io.kubeloop.controller;

import io.kubeloop.cache.InformerFactory;
import io.kubeloop.cache.InformerOptions;
import io.kubeloop.cache.ReflectorOptions;
import io.kubeloop.cache.SharedIndexInformer;
import io.kubeloop.client.KubeClient;
import io.kubeloop.controller.client.Cache;
import io.kubeloop.controller.client.Client;
import io.kubeloop.controller.client.Reader;
import io.kubeloop.controller.endpoints.HealthCheck;
import io.kubeloop.controller.events.EventBroadcaster;
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
import io.kubeloop.controller.webhook.WebhookServer;
import io.kubeloop.time.Ticker;
import io.kubeloop.time.internal.Waiters;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a set of controllers over one set of shared informers, with optional leader election
 * (controller-runtime's {@code Manager}). The informers start at once on {@link #start()}, which
 * returns once the controllers' caches have synced — so a candidate's caches are warm when it becomes
 * leader, and what keeps them from syncing (a CRD not installed, a refused list) makes {@code start()}
 * throw instead of leaving a process that never reconciles — and the controllers start when this process
 * leads (at once without leader election). When leadership is lost, the manager stops everything and
 * records the failure {@code "leader election lost"} (controller-runtime exits the process then; here
 * {@link #awaitTermination} returns and {@link #failure()} says why); a controller stopped by an error
 * it did not recover stops the manager the same way.
 *
 * <p>Metrics of the controllers built with {@link ControllerBuilder#build(Manager, Reconciler)} (and
 * of their work queues, of the requests the manager's client makes ({@link RestClientMetrics}), of
 * its informers ({@link InformerMeters}), of its leader election ({@link LeaderElectionMetrics}) and of
 * the JVM) go to {@link #meterRegistry()}. With
 * {@code io.micrometer:micrometer-registry-prometheus} on the class path (on the module path: a
 * module that requires {@code micrometer.registry.prometheus}), that is a Prometheus registry, served
 * as Prometheus text on {@code /metrics} when {@link ManagerOptions#metricsAddress()} is set and read
 * by {@link #scrape()}; the same server shows them live on {@code /loops}, an HTML page of every
 * informer, work queue and controller and the leadership, updated each second by server-sent events
 * from {@code /loops/events}. Without it (kubeloop-controller declares it optional) the metrics are kept in
 * memory only, in a {@link SimpleMeterRegistry}, and a metrics address makes {@link #start()} fail at
 * once, naming the artifact to add. With {@link ManagerOptions#healthProbeAddress()} set,
 * {@code /healthz} and {@code /readyz} answer the checks added with {@link #addHealthzCheck} and
 * {@link #addReadyzCheck} as controller-runtime's do: on the root every check runs, 200 {@code ok}
 * when all pass ({@code ?verbose} lists them, {@code ?exclude=name} skips one), else 500 with the
 * failed ones named and their reasons withheld (and logged); on {@code /<name>} that check alone,
 * with its reason. Both servers start with {@link #start()} — before leadership, so a candidate
 * answers probes — and stop last.
 *
 * {@snippet :
 * ManagerOptions options = ManagerOptions.defaults().withLeaderElection(LeaderElectionConfig.defaults("ns", "foo-lock", id));
 * try (Manager manager = Manager.create(client, options)) {
 *     ControllerBuilder.forResource(Foo.class).owns(Deployment.class).build(manager, reconciler);
 *     manager.start();
 *     manager.awaitTermination();
 * }
 * }
 *
 * <p><b>Thread safety:</b> thread-safe; controllers are added before {@link #start()}. The lifecycle
 * flags change under the manager's lock and are volatile, so {@link #isLeader()} and the health checks
 * see a start or stop made on another thread at once.
 */
public final class Manager implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Manager.class);

    /** How long {@link #informersReceiving} lets an informer's list or watch fail before it reports it. */
    static final int FAILING_GRACE_SECONDS = InformerHealthChecks.FAILING_GRACE_SECONDS;

    private final InformerFactory informers;
    /** Fires when the manager stops or loses leadership; the client refuses every call afterwards. */
    private final Cancellation stopped = Cancellation.create();

    private final ManagerClients clients;
    private final EventBroadcaster events;
    private final EventsV1Broadcaster eventsV1;
    private final Optional<LeaderElector> elector;
    /** The elector's thread once started; {@link #close()} waits for it. */
    private volatile Thread electorThread;
    /** Guarded by this manager's lock; only added to, and only before start. */
    private final List<Controller> controllers = new ArrayList<>();
    /** What the controllers declared and which Events are written; thread-safe. */
    private final DeclaredPermissions declared = new DeclaredPermissions();

    private final CountDownLatch terminated = new CountDownLatch(1);
    /** Threads in {@link #awaitTermination(java.time.Duration)}; woken on termination. */
    private final Waiters terminationWaiters = new Waiters();

    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final ManagerOptions options;
    /** The registry (Prometheus when micrometer-registry-prometheus is there) and the JVM meters. */
    private final ManagerMeters meters = new ManagerMeters();

    private final MeterRegistry registry = meters.registry();

    /** The metrics, health probe and webhook servers; thread-safe. */
    private final ManagerServers servers = new ManagerServers();
    /** The informer readiness checks. */
    private final InformerHealthChecks informerChecks;
    /** Changed under this manager's lock, read without it ({@link #isLeader()} polls it from any thread). */
    private volatile boolean started;
    /** Changed under this manager's lock, read without it. */
    private volatile boolean closed;

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
        this.informerChecks = new InformerHealthChecks(informers, () -> started);
        this.clients = ManagerClients.create(client, informers, options.cache(), stopped);
        this.events = new EventBroadcaster(client, options.ticker(), 12, java.time.Duration.ofSeconds(10));
        this.eventsV1 = new EventsV1Broadcaster(client, options.ticker());
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
                            startControllersWhenLeading();
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

    /**
     * The metrics text a scrape of {@code /metrics} returns now (Prometheus text format 0.0.4).
     *
     * @throws IllegalStateException when micrometer-registry-prometheus is not there (see the class
     *     comment)
     */
    public String scrape() {
        if (!PrometheusMetrics.AVAILABLE) {
            throw new IllegalStateException(PrometheusMetrics.missing("Manager.scrape()"));
        }
        return PrometheusMetrics.scrape(registry);
    }

    /**
     * Adds a liveness check, answered on {@code /healthz} and {@code /healthz/<name>}.
     *
     * @param name the check's name: non-empty, no {@code /}
     * @param check the check, e.g. {@link HealthCheck#ping()}
     * @throws IllegalArgumentException if the name is invalid or taken
     */
    public void addHealthzCheck(String name, HealthCheck check) {
        servers.addHealthzCheck(name, check);
    }

    /**
     * Adds a readiness check, answered on {@code /readyz} and {@code /readyz/<name>}.
     *
     * @param name the check's name: non-empty, no {@code /}
     * @param check the check, e.g. {@link #informersSynced()}
     * @throws IllegalArgumentException if the name is invalid or taken
     */
    public void addReadyzCheck(String name, HealthCheck check) {
        servers.addReadyzCheck(name, check);
    }

    /**
     * A check that passes once the manager started and every informer it started has synced, naming
     * the ones that have not, each with its last list or watch error when it has one: a refusal reads
     * {@code informers not synced: [deployments.v1.apps (deployments.apps is forbidden: User "…" cannot list
     * resource "deployments" in API group "apps" at the cluster scope)]}, so a readiness probe tells missing
     * RBAC from a slow sync.
     */
    public HealthCheck informersSynced() {
        return informerChecks.synced();
    }

    /**
     * A readiness check that fails not only before the first sync but whenever an informer stops
     * receiving: it fails while {@link #informersSynced()} does, when an informer's lists or watches have
     * been failing for over {@value #FAILING_GRACE_SECONDS} seconds with nothing received since (naming the
     * error: a retried blip does not fail it), and when it has received nothing — no event, no bookmark —
     * for longer than {@code maxSilence}. A working watch gets a bookmark about every minute,
     * so a few minutes (3, the client's watch idle timeout, is the usual choice) tell a quiet cluster
     * from a lost one.
     *
     * @param maxSilence how long an informer may receive nothing; at least a minute
     * @throws IllegalArgumentException when {@code maxSilence} is under a minute
     */
    public HealthCheck informersReceiving(java.time.Duration maxSilence) {
        return informerChecks.receiving(maxSilence);
    }

    /** The controllers added so far: a snapshot. */
    private synchronized List<Controller> controllersNow() {
        return List.copyOf(controllers);
    }

    /** The address metrics are served on, once started with a metrics address. */
    public Optional<InetSocketAddress> metricsAddress() {
        return servers.metricsAddress();
    }

    /** The address health probes are served on, once started with a probe address. */
    public Optional<InetSocketAddress> healthProbeAddress() {
        return servers.healthProbeAddress();
    }

    /** The clock of the manager, its informers, its leader election and its controllers. */
    Ticker ticker() {
        return options.ticker();
    }

    /** The shared informers (and listers) for the controllers of this manager. */
    public InformerFactory informers() {
        return informers;
    }

    /**
     * The client reconcilers read and write through: reads from {@link #cache()}, writes to the API
     * server. It refuses every call (a {@link java.util.concurrent.CancellationException}) once the
     * manager stopped or lost its leader lease, so a process that is no longer leader writes
     * nothing more through it.
     */
    public Client client() {
        return clients.client();
    }

    /** The manager's cache: its informers as a reader, field indexes, and the scope set in {@link ManagerOptions#cache()}. */
    public Cache cache() {
        return clients.cache();
    }

    /**
     * A reader that asks the API server every time, for the rare read that must not be stale
     * (controller-runtime's {@code GetAPIReader}).
     */
    public Reader apiReader() {
        return clients.apiReader();
    }

    /**
     * A recorder of Events reporting as {@code name} (controller-runtime's {@code GetEventRecorderFor});
     * the manager writes them in the background and flushes them when it closes.
     *
     * @param name the reporting component, e.g. the controller's name
     * @return the recorder
     */
    public EventRecorder eventRecorderFor(String name) {
        declared.recordsCoreEvents();
        return events.recorderFor(name);
    }

    /**
     * A recorder of {@code events.k8s.io/v1} Events reporting as {@code name} (controller-runtime's
     * current {@code GetEventRecorder}): Events with an action and a related object, repeated ones
     * written as a series. The manager writes them in the background and flushes them when it closes.
     *
     * @param name the reporting controller, e.g. the controller's name
     * @return the recorder
     */
    public EventsV1Recorder eventsV1RecorderFor(String name) {
        declared.recordsEventsV1();
        return eventsV1.recorderFor(name);
    }

    /** What {@code informer}, of this manager's cache, misses: a kind the server does not serve. */
    Optional<MissingKinds.Miss> missingKind(SharedIndexInformer<?> informer) {
        return clients.missingKinds().missing(informer);
    }

    /** The client of a controller's reconciles: {@link #client()}, also refusing calls once {@code controllerStopped} fired. */
    Client clientFor(Cancellation controllerStopped) {
        return clients.guardedBy(controllerStopped);
    }

    /** The options this manager was made with. */
    ManagerOptions options() {
        return options;
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

    /** Adds the rules a controller built over this manager needs. */
    void declare(List<ScopedRule> rules) {
        declared.add(rules);
    }

    /**
     * Adds a controller, to be started when this process leads.
     *
     * @param controller a controller built over {@link #informers()}, not started
     * @throws IllegalStateException once the manager started
     * @throws IllegalArgumentException if it was added before
     */
    public synchronized void add(Controller controller) {
        requireNotStarted();
        Objects.requireNonNull(controller, "controller");
        if (controllers.contains(controller)) {
            throw new IllegalArgumentException("controller " + controller.name() + " was already added");
        }
        controllers.add(controller);
        controller.onFailure(e -> {
            if (failure.compareAndSet(null, e)) {
                LOG.error("controller {} failed; stopping the manager", controller.name());
            }
            Thread.ofVirtual().name("manager-stop").start(this::close);
        });
    }

    /**
     * Adds a webhook server, started with the manager (before leader election: webhooks serve on every
     * replica) and closed with it.
     *
     * @throws IllegalStateException once the manager started
     */
    public synchronized void add(WebhookServer server) {
        requireNotStarted();
        servers.add(server);
    }

    /** @throws IllegalStateException once the manager started or closed */
    synchronized void requireNotStarted() {
        if (started || closed) {
            throw new IllegalStateException("controllers must be added before the manager starts");
        }
    }

    /**
     * Starts the servers and the informers, waits until the informers of every controller's watches have
     * synced (each controller within its {@link ControllerOptions#cacheSyncTimeout() cache-sync timeout},
     * all at once), then starts either the controllers (no leader election) or the elector, and returns.
     * What keeps a component from starting makes it throw, the manager closed and {@link #failure()} set:
     * a server that cannot bind, a controller whose list is refused (at once), a controller whose caches
     * do not sync in time. An informer listing a kind the server does not serve (its CRD is not installed)
     * says so on its first miss — {@code if kind is a CRD, it should be installed before calling Start: no
     * matches for kind "Gateway" in version "gateway.networking.k8s.io/v1"} — and keeps retrying as
     * controller-runtime's Kind source does: a CRD created a moment later (Helm and OLM create it beside
     * the Deployment) lets the start go on; one still missing at the time-out makes {@code start()} throw a
     * {@link CacheSyncTimeoutException} naming the kind, its cause discovery's
     * {@link io.kubeloop.client.discovery.NoMatchException}.
     *
     * @throws IllegalStateException if started twice or after close; with a metrics address but
     *     without micrometer-registry-prometheus (before anything started; the manager is closed); when
     *     interrupted while waiting for the caches (the manager is closed)
     * @throws java.io.UncheckedIOException when a server cannot bind its address (the manager is closed)
     * @throws CacheSyncTimeoutException when a controller's caches did not sync within its timeout
     * @throws CacheAccessDeniedException when a controller's informer may not list or watch
     * @throws RuntimeException what a controller's own start threw, without leader election
     */
    public void start() {
        synchronized (this) {
            if (started || closed) {
                throw new IllegalStateException("a manager starts once");
            }
            started = true;
        }
        try {
            servers.start(options, registry, this::scrape, this::isLeader, this::controllersNow);
        } catch (RuntimeException e) {
            close();
            throw e;
        }
        informers.start();
        CacheSyncBarrier.await(controllersNow(), e -> {
            failure.compareAndSet(null, e);
            close();
        });
        if (elector.isPresent()) {
            electorThread = elector.get().start();
        } else {
            RuntimeException failed = startControllers();
            if (failed != null) {
                close();
                throw failed;
            }
        }
    }

    /** Whether this process leads (always true without leader election, once started). */
    public boolean isLeader() {
        return elector.map(LeaderElector::isLeader).orElse(started);
    }

    /** Why the manager stopped on its own, if it did: lost leadership, or a controller that failed. */
    public Optional<Throwable> failure() {
        return Optional.ofNullable(failure.get());
    }

    /**
     * Waits until the manager stops (closed, leadership lost, or a controller failed).
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
    public boolean awaitTermination(java.time.Duration timeout) throws InterruptedException {
        return terminationWaiters.awaitInterruptibly(
                options.ticker(),
                Ticker.deadline(options.ticker().nanoTime(), timeout),
                () -> terminated.getCount() == 0);
    }

    /**
     * Stops the controllers (waiting for reconciles in progress), then the elector — which hands the
     * Lease back when its configuration says so, only now that no controller of this process writes, and
     * is waited for so that a process exiting after {@code close()} does not leave the others to wait out
     * the Lease — then the informers. Idempotent.
     */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        stopControllers();
        elector.ifPresent(LeaderElector::stop);
        Thread competing = electorThread;
        if (competing != null && competing != Thread.currentThread()) {
            io.kubeloop.time.internal.Joins.joinUninterruptibly(competing);
        }
        stopAll();
    }

    /** Starts the controllers as the leader election's callback does: a failure stops the manager. */
    private void startControllersWhenLeading() {
        RuntimeException failed = startControllers();
        if (failed != null) {
            LOG.error("{}; stopping the manager", failed.getMessage(), failed);
            Thread.ofVirtual().name("manager-stop").start(this::close);
        }
    }

    /**
     * Starts the controllers, one after the other.
     *
     * @return the first controller's start failure (also kept as {@link #failure()}), or null
     */
    private RuntimeException startControllers() {
        List<Controller> toStart;
        synchronized (this) {
            if (closed) {
                return null;
            }
            toStart = List.copyOf(controllers);
        }
        for (Controller c : toStart) {
            try {
                c.start();
            } catch (RuntimeException e) {
                failure.compareAndSet(null, e);
                return e;
            }
        }
        LOG.info("manager started {} controller(s)", toStart.size());
        return null;
    }

    private void leadershipEnded() {
        stopped.cancel("leader election lost");
        boolean wasClosing;
        synchronized (this) {
            wasClosing = closed;
            closed = true;
        }
        if (!wasClosing) {
            failure.compareAndSet(null, new IllegalStateException("leader election lost"));
            LOG.error("leader election lost; stopping the manager");
        }
        stopAll();
    }

    /** Stops every controller, together, waiting for their reconciles in progress. */
    private void stopControllers() {
        stopped.cancel(
                failure.get() != null ? "the manager stopped: " + failure.get().getMessage() : "the manager stopped");
        List<Controller> toStop;
        synchronized (this) {
            toStop = List.copyOf(controllers);
        }
        // together, so that each waits out its graceful shutdown at the same time as the others
        List<Thread> closing = toStop.stream()
                .map(c -> Thread.ofVirtual().name("stop-" + c.name()).start(c::close))
                .toList();
        io.kubeloop.time.internal.Joins.joinAllUninterruptibly(closing);
    }

    private void stopAll() {
        try {
            stopControllers();
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
