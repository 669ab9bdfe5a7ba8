package io.kubeloop.apiserver.internal.controllers;

import io.kubeloop.api.OwnerReference;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * One object in the {@link DependencyGraph}: its identity, its owner references and the nodes that name it as
 * owner. A <em>virtual</em> node stands for an owner only known from a dependent's reference; it becomes real
 * when an informer observes the object, or is removed once a live lookup found the owner absent.
 *
 * <p><b>Thread safety.</b> Not thread-safe: every field is guarded by the graph's lock.
 */
final class GraphNode {

    ObjectIdentity identity;
    /** Observed through an informer (false for a virtual node until its object is seen). */
    boolean observed;
    /** The object had a deletionTimestamp when last observed. */
    boolean beingDeleted;
    /** Being deleted in the foreground: its blocking dependents go first. */
    boolean deletingDependents;
    /** The object's ownerReferences as last observed. */
    List<OwnerReference> owners;
    /** Nodes whose ownerReferences name this node's uid. */
    final Set<GraphNode> dependents = new LinkedHashSet<>();

    GraphNode(ObjectIdentity identity, boolean observed, List<OwnerReference> owners) {
        this.identity = identity;
        this.observed = observed;
        this.owners = owners;
    }

    /** True when this node's reference to {@code ownerUid} has blockOwnerDeletion set. */
    boolean blocks(String ownerUid) {
        for (OwnerReference r : owners) {
            if (ownerUid.equals(r.uid()) && Boolean.TRUE.equals(r.blockOwnerDeletion())) {
                return true;
            }
        }
        return false;
    }

    @Override
    public String toString() {
        return (observed ? "" : "virtual ") + identity;
    }
}
