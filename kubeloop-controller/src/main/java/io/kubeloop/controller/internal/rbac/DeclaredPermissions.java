package io.kubeloop.controller.internal.rbac;

import io.kubeloop.controller.rbac.ManagerPermissions;
import io.kubeloop.controller.rbac.PolicyRule;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;

/**
 * What a manager's controllers declared, and which Event APIs its recorders write, gathered while
 * the manager is wired; turned into {@link ManagerPermissions} on demand.
 *
 * <p>Thread-safe: every field is guarded by {@link #lock}.
 */
public final class DeclaredPermissions {

    /** Events in the core group, as {@code EventRecorder}s write them: created, then patched when repeated. */
    static final PolicyRule CORE_EVENTS = PolicyRule.forResources("", List.of("events"), "create", "patch");

    /** Events of {@code events.k8s.io}, as {@code EventsV1Recorder}s write them. */
    static final PolicyRule EVENTS_V1 = PolicyRule.forResources("events.k8s.io", List.of("events"), "create", "patch");

    /** What a leader elector does with its Lease: reads it, creates it once, renews and takes it over by updates. */
    static final PolicyRule LEASES =
            PolicyRule.forResources("coordination.k8s.io", List.of("leases"), "get", "create", "update");

    private final ReentrantLock lock = new ReentrantLock();
    /** Guarded by {@link #lock}; only added to. */
    private final List<ScopedRule> rules = new ArrayList<>();
    /** Guarded by {@link #lock}; set once a core Event recorder was handed out. */
    private boolean coreEvents;
    /** Guarded by {@link #lock}; set once an {@code events.k8s.io} recorder was handed out. */
    private boolean eventsV1;

    /** Adds rules a controller needs. */
    public void add(List<ScopedRule> declared) {
        lock.lock();
        try {
            rules.addAll(declared);
        } finally {
            lock.unlock();
        }
    }

    /** Notes that the manager writes core Events. */
    public void recordsCoreEvents() {
        lock.lock();
        try {
            coreEvents = true;
        } finally {
            lock.unlock();
        }
    }

    /** Notes that the manager writes {@code events.k8s.io} Events. */
    public void recordsEventsV1() {
        lock.lock();
        try {
            eventsV1 = true;
        } finally {
            lock.unlock();
        }
    }

    /**
     * The permissions: the declared rules where they were declared; Event rules where the cache
     * holds objects (an Event is written in its object's namespace), cluster-wide when the cache
     * holds all namespaces; the Lease rules in the Lease's namespace.
     *
     * @param cacheNamespaces the cache's default namespaces; empty for all
     * @param leaseNamespace the leader election Lease's namespace, if the manager elects a leader
     * @return the permissions
     */
    public ManagerPermissions permissions(Set<String> cacheNamespaces, Optional<String> leaseNamespace) {
        ManagerPermissions.Builder builder = ManagerPermissions.builder();
        List<ScopedRule> all = new ArrayList<>();
        lock.lock();
        try {
            all.addAll(rules);
            if (coreEvents) {
                all.add(new ScopedRule(CORE_EVENTS, cacheNamespaces));
            }
            if (eventsV1) {
                all.add(new ScopedRule(EVENTS_V1, cacheNamespaces));
            }
        } finally {
            lock.unlock();
        }
        for (ScopedRule r : all) {
            if (r.namespaces().isEmpty()) {
                builder.clusterWide(r.rule());
            } else {
                r.namespaces().forEach(ns -> builder.inNamespace(ns, r.rule()));
            }
        }
        leaseNamespace.ifPresent(ns -> builder.leaderElection(ns, LEASES));
        return builder.build();
    }
}
