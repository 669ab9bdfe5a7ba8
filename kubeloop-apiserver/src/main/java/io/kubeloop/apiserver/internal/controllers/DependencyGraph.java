package io.kubeloop.apiserver.internal.controllers;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import io.kubeloop.api.OwnerReference;
import io.kubeloop.apiserver.internal.registry.DeleteParams;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * The garbage collector's view of ownership (the real GC's {@code GraphBuilder} and {@code uidToNode}): a node
 * per uid, edges from owners to dependents, and the transitions that start work.
 *
 * <p>{@link #process} applies one observed change, as {@code processGraphChanges} does:
 * <ul>
 *   <li>a new object is inserted and linked to its owners; an owner not in the graph gets a virtual node that
 *       is queued for a live lookup;</li>
 *   <li>changed owner references relink the node; a removed or no longer blocking reference queues the owner
 *       (it may be waiting for its dependents);</li>
 *   <li>an object that starts being deleted with the {@code orphan} finalizer is queued for orphaning; one with
 *       {@code foregroundDeletion} is marked as deleting its dependents, and it and all its dependents are
 *       queued;</li>
 *   <li>a deleted object leaves the graph; its dependents are queued (their owner is gone), and so are its
 *       owners that are deleting their dependents (this one may have been the last).</li>
 * </ul>
 * Queued items are uids, handed to the consumers given at construction.
 *
 * <p><b>Thread safety.</b> Thread-safe: one lock guards the whole graph; the consumers are called under it and
 * must not block.
 */
final class DependencyGraph {

    /** What an event did. */
    enum Type {
        ADD,
        UPDATE,
        DELETE
    }

    /**
     * One change to apply.
     *
     * @param type what happened
     * @param object the object's state (its last one for DELETE)
     * @param old the previous state for UPDATE, else null
     * @param virtual a DELETE the collector made up after a live lookup found the object absent
     */
    record Event(Type type, ObjectMetadata object, ObjectMetadata old, boolean virtual) {}

    private final ReentrantLock lock = new ReentrantLock();
    /** Guarded by {@link #lock}. */
    @GuardedBy("lock")
    private final Map<String, GraphNode> uidToNode = new HashMap<>();

    private final Consumer<String> attemptToDelete;
    private final Consumer<String> attemptToOrphan;

    DependencyGraph(Consumer<String> attemptToDelete, Consumer<String> attemptToOrphan) {
        this.attemptToDelete = Objects.requireNonNull(attemptToDelete, "attemptToDelete");
        this.attemptToOrphan = Objects.requireNonNull(attemptToOrphan, "attemptToOrphan");
    }

    /** A copy of the node of {@code uid}. */
    Optional<Snapshot> snapshot(String uid) {
        lock.lock();
        try {
            GraphNode n = uidToNode.get(uid);
            if (n == null) {
                return Optional.empty();
            }
            List<Dependent> deps = new ArrayList<>();
            for (GraphNode d : n.dependents) {
                deps.add(new Dependent(d.identity, d.blocks(uid), d.deletingDependents));
            }
            return Optional.of(new Snapshot(n.identity, n.observed, n.beingDeleted, n.deletingDependents, deps));
        } finally {
            lock.unlock();
        }
    }

    /** Number of nodes (for tests). */
    int size() {
        lock.lock();
        try {
            return uidToNode.size();
        } finally {
            lock.unlock();
        }
    }

    /**
     * A node as a worker sees it.
     *
     * @param dependents every dependent, with whether its reference blocks the owner's deletion
     */
    record Snapshot(
            ObjectIdentity identity,
            boolean observed,
            boolean beingDeleted,
            boolean deletingDependents,
            List<Dependent> dependents) {}

    /** A dependent of a {@link Snapshot}. */
    record Dependent(ObjectIdentity identity, boolean blocking, boolean deletingDependents) {}

    /** Applies one change (see the class comment). */
    void process(Event event) {
        ObjectMetadata obj = event.object();
        String uid = obj.uid();
        if (uid.isEmpty()) {
            return;
        }
        lock.lock();
        try {
            GraphNode existing = uidToNode.get(uid);
            if (existing != null && !event.virtual() && !existing.observed) {
                ObjectIdentity observedIdentity = ObjectIdentity.of(obj);
                if (!observedIdentity.equals(existing.identity)) {
                    // dependents that named this owner by other coordinates (or from another namespace) are
                    // re-examined: a live lookup decides whether their reference holds
                    for (GraphNode dep : existing.dependents) {
                        attemptToDelete.accept(dep.identity.uid());
                    }
                    existing.identity = observedIdentity;
                }
                existing.observed = true;
            }
            switch (event.type()) {
                case ADD, UPDATE -> {
                    if (existing == null) {
                        GraphNode n = new GraphNode(
                                ObjectIdentity.of(obj), true, obj.metadata().ownerReferencesOrEmpty());
                        n.beingDeleted = obj.beingDeleted();
                        n.deletingDependents =
                                obj.beingDeleted() && obj.hasFinalizer(DeleteParams.FOREGROUND_FINALIZER);
                        uidToNode.put(uid, n);
                        addDependentToOwners(n, n.owners);
                        processTransitions(event.old(), obj, n);
                    } else {
                        List<OwnerReference> now = obj.metadata().ownerReferencesOrEmpty();
                        if (!now.equals(existing.owners)) {
                            relink(existing, now);
                        }
                        if (obj.beingDeleted()) {
                            existing.beingDeleted = true;
                        }
                        processTransitions(event.old(), obj, existing);
                    }
                }
                case DELETE -> {
                    if (existing != null) {
                        delete(existing, event);
                    }
                }
            }
        } finally {
            lock.unlock();
        }
    }

    @GuardedBy("lock")
    private void relink(GraphNode n, List<OwnerReference> now) {
        Map<String, OwnerReference> before = byUid(n.owners);
        Map<String, OwnerReference> after = byUid(now);
        List<OwnerReference> added = new ArrayList<>();
        List<OwnerReference> removed = new ArrayList<>();
        after.forEach((uid, ref) -> {
            if (!before.containsKey(uid)) {
                added.add(ref);
            }
        });
        for (Map.Entry<String, OwnerReference> e : before.entrySet()) { // a loop, not forEach: reads uidToNode
            String uid = e.getKey();
            OwnerReference ref = e.getValue();
            OwnerReference still = after.get(uid);
            if (still == null) {
                removed.add(ref);
            }
            boolean wasBlocking = Boolean.TRUE.equals(ref.blockOwnerDeletion());
            if (wasBlocking && (still == null || !Boolean.TRUE.equals(still.blockOwnerDeletion()))) {
                // the owner may be waiting for this dependent only
                if (uidToNode.containsKey(uid)) {
                    attemptToDelete.accept(uid);
                }
            }
        }
        n.owners = now;
        addDependentToOwners(n, added);
        for (OwnerReference ref : removed) {
            GraphNode owner = uidToNode.get(ref.uid());
            if (owner != null) {
                owner.dependents.remove(n);
            }
        }
    }

    private static Map<String, OwnerReference> byUid(List<OwnerReference> refs) {
        Map<String, OwnerReference> m = new HashMap<>();
        for (OwnerReference r : refs) {
            if (r.uid() != null) {
                m.put(r.uid(), r);
            }
        }
        return m;
    }

    @GuardedBy("lock")
    private void addDependentToOwners(GraphNode n, List<OwnerReference> refs) {
        for (OwnerReference ref : refs) {
            if (ref.uid() == null || ref.uid().isEmpty()) {
                continue;
            }
            GraphNode owner = uidToNode.get(ref.uid());
            if (owner == null) {
                owner = new GraphNode(ObjectIdentity.of(ref, n.identity.namespace()), false, List.of());
                uidToNode.put(ref.uid(), owner);
                attemptToDelete.accept(ref.uid()); // a live lookup decides whether the owner exists
            } else if (owner.observed && !matches(owner.identity, ref, n.identity.namespace())) {
                // a namespaced owner only owns dependents of its namespace; other coordinates are suspect too
                attemptToDelete.accept(n.identity.uid());
            }
            owner.dependents.add(n);
        }
    }

    private static boolean matches(ObjectIdentity owner, OwnerReference ref, String dependentNamespace) {
        return (owner.namespace().isEmpty() || owner.namespace().equals(dependentNamespace))
                && owner.name().equals(ref.name())
                && owner.kind().equals(ref.kind())
                && owner.group().equals(ObjectIdentity.of(ref, "").group());
    }

    private void processTransitions(ObjectMetadata old, ObjectMetadata now, GraphNode n) {
        if (startsWaiting(old, now, DeleteParams.ORPHAN_FINALIZER)) {
            attemptToOrphan.accept(n.identity.uid());
            return;
        }
        if (startsWaiting(old, now, DeleteParams.FOREGROUND_FINALIZER)) {
            n.deletingDependents = true;
            for (GraphNode dep : n.dependents) {
                attemptToDelete.accept(dep.identity.uid());
            }
            attemptToDelete.accept(n.identity.uid());
        }
    }

    private static boolean startsWaiting(ObjectMetadata old, ObjectMetadata now, String finalizer) {
        boolean waitsNow = now.beingDeleted() && now.hasFinalizer(finalizer);
        boolean waitedBefore = old != null && old.beingDeleted() && old.hasFinalizer(finalizer);
        return waitsNow && !waitedBefore;
    }

    @GuardedBy("lock")
    private void delete(GraphNode existing, Event event) {
        if (event.virtual()) {
            ObjectIdentity deleted = ObjectIdentity.of(event.object());
            if (existing.observed && !existing.identity.equals(deleted)) {
                // the informer saw the object at other coordinates: only dependents naming the absent ones go on
                for (GraphNode dep : existing.dependents) {
                    attemptToDelete.accept(dep.identity.uid());
                }
                return;
            }
        }
        uidToNode.remove(existing.identity.uid());
        for (OwnerReference ref : existing.owners) {
            GraphNode owner = uidToNode.get(ref.uid());
            if (owner != null) {
                owner.dependents.remove(existing);
                if (owner.deletingDependents) {
                    attemptToDelete.accept(owner.identity.uid()); // this may have been its last blocking dependent
                }
            }
        }
        for (GraphNode dep : existing.dependents) {
            attemptToDelete.accept(dep.identity.uid());
        }
    }
}
