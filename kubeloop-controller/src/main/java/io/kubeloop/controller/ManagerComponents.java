package io.kubeloop.controller;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import io.kubeloop.time.internal.Joins;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The components of one {@link Manager}, started in controller-runtime's order: the ones that run on every replica
 * and are not controllers (webhook servers: a conversion webhook must answer before the caches can list) first,
 * then — once the caches synced — the controllers that run on every replica, then, while this process leads, the
 * rest. Stopped in the reverse: the leader's components together (each waits out its graceful shutdown at the
 * same time as the others), then the replica's.
 *
 * <p>Invariants: a component is added once, before the manager starts; each is started at most once and closed
 * once when the manager stops, started or not.
 *
 * <p><b>Thread safety:</b> thread-safe; the list is guarded by {@link #lock}.
 */
final class ManagerComponents {

    private static final Logger LOG = LoggerFactory.getLogger(Manager.class);

    private final Object lock = new Object();

    @GuardedBy("lock")
    private final List<Component> components = new ArrayList<>();

    /** Set by the first {@link #closeAll()}. */
    private final AtomicBoolean closing = new AtomicBoolean();
    /** Open once the first {@link #closeAll()} is done. */
    private final CountDownLatch closed = new CountDownLatch(1);

    /**
     * Adds {@code component}; {@code failed} hears of its failure after start.
     *
     * @throws IllegalArgumentException if it was added before
     */
    void add(Component component, BiConsumer<Component, Throwable> failed) {
        Objects.requireNonNull(component, "component");
        synchronized (lock) {
            if (components.contains(component)) {
                throw new IllegalArgumentException("component " + component.name() + " was already added");
            }
            components.add(component);
        }
        component.onFailure(e -> failed.accept(component, e));
    }

    /** The controllers added so far. */
    List<Controller> controllers() {
        return select(Controller.class::isInstance).stream()
                .map(Controller.class::cast)
                .toList();
    }

    /** The replica's components that are not controllers: started before the caches. */
    List<Component> replicaServers() {
        return select(c -> !c.needsLeaderElection() && !(c instanceof Controller));
    }

    /** The replica's controllers: started once the caches synced, before the election. */
    List<Component> replicaControllers() {
        return select(c -> !c.needsLeaderElection() && c instanceof Controller);
    }

    /** The components that run while this process leads. */
    List<Component> leaders() {
        return select(Component::needsLeaderElection);
    }

    private List<Component> select(Predicate<Component> which) {
        synchronized (lock) {
            return components.stream().filter(which).toList();
        }
    }

    /**
     * Starts {@code group}, one after the other.
     *
     * @return the first start failure, or null when all started
     */
    static RuntimeException start(List<Component> group) {
        for (Component c : group) {
            try {
                c.start();
            } catch (RuntimeException e) {
                return e;
            }
        }
        if (!group.isEmpty()) {
            LOG.info("manager started {} component(s): {}", group.size(), names(group));
        }
        return null;
    }

    /**
     * Closes the leader's components together, then the replica's, waiting for each. Runs once: a later or
     * concurrent call waits until the first one is done.
     */
    void closeAll() {
        if (!closing.compareAndSet(false, true)) {
            awaitUninterruptibly(closed);
            return;
        }
        try {
            closeTogether(leaders());
            closeTogether(replicaControllers());
            replicaServers().forEach(ManagerComponents::closeQuietly);
        } finally {
            closed.countDown();
        }
    }

    private static void awaitUninterruptibly(CountDownLatch latch) {
        boolean interrupted = false;
        while (true) {
            try {
                latch.await();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private static void closeTogether(List<Component> group) {
        List<Thread> closing = group.stream()
                .map(c -> Thread.ofVirtual().name("stop-" + c.name()).start(() -> closeQuietly(c)))
                .toList();
        Joins.joinAllUninterruptibly(closing);
    }

    private static void closeQuietly(Component c) {
        try {
            c.close();
        } catch (RuntimeException e) {
            LOG.warn("component {} did not close cleanly: {}", c.name(), e.toString());
        }
    }

    private static List<String> names(List<Component> group) {
        return group.stream().map(Component::name).toList();
    }
}
