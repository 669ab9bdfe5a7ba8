package io.kubeloop.apiserver.internal.controllers;

import java.util.ArrayList;
import java.util.List;
import java.util.function.ToIntFunction;
import tools.jackson.databind.JsonNode;

/**
 * One Deployment's ReplicaSets as one sync of the {@link DeploymentController} read them: the new one (whose
 * template is the Deployment's, its {@code pod-template-hash} label aside; null when there is none), the others
 * oldest first, and whether the sync created the new one; with the counts the rollout and the status take from
 * ReplicaSets, where a missing ReplicaSet counts 0.
 *
 * <p>The lists are not copied and nobody changes them once read; the JSON trees are those read from storage.
 *
 * <p><b>Thread safety.</b> Confined to the worker thread of the sync that reads it; the static helpers are
 * stateless and thread-safe.
 */
record OwnedReplicaSets(JsonNode newSet, List<JsonNode> old, boolean created) {

    /** {@link #specReplicas} as a function, for {@link #sum}. */
    static final ToIntFunction<JsonNode> SPEC_REPLICAS = OwnedReplicaSets::specReplicas;

    /** The old ReplicaSets, then the new one (when there is one). */
    List<JsonNode> all() {
        List<JsonNode> all = new ArrayList<>(old);
        if (newSet != null) {
            all.add(newSet);
        }
        return all;
    }

    /** A ReplicaSet's {@code spec.replicas} (1 when absent; 0 for no ReplicaSet). */
    static int specReplicas(JsonNode rs) {
        return rs == null ? 0 : WorkloadObjects.intField(rs.path("spec"), "replicas", 1);
    }

    /** One of a ReplicaSet's status counts (0 when absent, or for no ReplicaSet). */
    static int statusCount(JsonNode rs, String field) {
        return rs == null ? 0 : rs.path("status").path(field).asInt(0);
    }

    /** The sum of {@code f} over {@code sets}. */
    static int sum(List<JsonNode> sets, ToIntFunction<JsonNode> f) {
        int total = 0;
        for (JsonNode rs : sets) {
            total += f.applyAsInt(rs);
        }
        return total;
    }
}
