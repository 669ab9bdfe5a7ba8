package io.kubeloop.controller;

import io.kubeloop.cache.InformerFactory;
import io.kubeloop.cache.InformerOptions;
import io.kubeloop.client.KubeClient;
import io.kubeloop.controller.leader.LeaderCallbacks;
import io.kubeloop.controller.leader.LeaderElectionConfig;
import io.kubeloop.controller.leader.LeaderElector;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a set of controllers over one set of shared informers, with optional leader election
 * (controller-runtime's {@code Manager}). The informers start at once on {@link #start()} — so a
 * candidate's caches are warm when it becomes leader — and the controllers start when this process
 * leads (at once without leader election). When leadership is lost, the manager stops everything and
 * records the failure {@code "leader election lost"} (controller-runtime exits the process then; here
 * {@link #awaitTermination} returns and {@link #failure()} says why).
 *
 * {@snippet :
 * try (Manager manager = Manager.create(client, Optional.of(LeaderElectionConfig.defaults("ns", "foo-lock", id)))) {
 *     manager.add(ControllerBuilder.forResource(Foo.class).owns(Deployment.class).build(manager.informers(), reconciler));
 *     manager.start();
 *     manager.awaitTermination();
 * }
 * }
 *
 * <p><b>Thread safety:</b> thread-safe; controllers are added before {@link #start()}.
 */
public final class Manager implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Manager.class);

    private final InformerFactory informers;
    private final Optional<LeaderElector> elector;
    private final List<Controller> controllers = new ArrayList<>();
    private final CountDownLatch terminated = new CountDownLatch(1);
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private boolean started;
    private boolean closed;

    private Manager(KubeClient client, Optional<LeaderElectionConfig> leaderElection) {
        Objects.requireNonNull(client, "client");
        this.informers = InformerFactory.create(client, InformerOptions.defaults());
        this.elector = leaderElection.map(config -> new LeaderElector(client, config, new LeaderCallbacks() {
            @Override
            public void onStartedLeading() {
                startControllers();
            }

            @Override
            public void onStoppedLeading() {
                leadershipEnded();
            }
        }));
    }

    /**
     * A manager over {@code client}, electing a leader on the given Lease if any.
     *
     * @param client the cluster
     * @param leaderElection the Lease and timings, or empty to run the controllers at once
     * @return a manager, not started
     */
    public static Manager create(KubeClient client, Optional<LeaderElectionConfig> leaderElection) {
        return new Manager(client, leaderElection);
    }

    /** The shared informers (and listers) for the controllers of this manager. */
    public InformerFactory informers() {
        return informers;
    }

    /**
     * Adds a controller, to be started when this process leads.
     *
     * @param controller a controller built over {@link #informers()}, not started
     * @throws IllegalStateException once the manager started
     */
    public synchronized void add(Controller controller) {
        if (started || closed) {
            throw new IllegalStateException("controllers must be added before the manager starts");
        }
        controllers.add(Objects.requireNonNull(controller, "controller"));
        controller.onFailure(e -> {
            if (failure.compareAndSet(null, e)) {
                LOG.error("controller {} failed; stopping the manager", controller.name());
            }
            Thread.ofVirtual().name("manager-stop").start(this::close);
        });
    }

    /**
     * Starts the informers, then either the controllers (no leader election) or the elector, and
     * returns.
     *
     * @throws IllegalStateException if started twice or after close
     */
    public void start() {
        synchronized (this) {
            if (started || closed) {
                throw new IllegalStateException("a manager starts once");
            }
            started = true;
        }
        informers.start();
        if (elector.isPresent()) {
            elector.get().start();
        } else {
            startControllers();
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
     * {@link #awaitTermination()} with a timeout.
     *
     * @param timeout the longest wait
     * @return true if the manager stopped
     * @throws InterruptedException if interrupted while waiting
     */
    public boolean awaitTermination(java.time.Duration timeout) throws InterruptedException {
        return terminated.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** Stops the controllers (waiting for reconciles in progress), the elector, then the informers. Idempotent. */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        elector.ifPresent(LeaderElector::stop);
        stopAll();
    }

    private void startControllers() {
        List<Controller> toStart;
        synchronized (this) {
            if (closed) {
                return;
            }
            toStart = List.copyOf(controllers);
        }
        for (Controller c : toStart) {
            try {
                c.start();
            } catch (RuntimeException e) {
                LOG.error("controller {} failed to start; stopping the manager", c.name(), e);
                failure.compareAndSet(null, e);
                Thread.ofVirtual().start(this::close);
                return;
            }
        }
        LOG.info("manager started {} controller(s)", toStart.size());
    }

    private void leadershipEnded() {
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

    private void stopAll() {
        try {
            for (Controller c : List.copyOf(controllers)) {
                c.close();
            }
        } finally {
            informers.close();
            terminated.countDown();
        }
    }
}
