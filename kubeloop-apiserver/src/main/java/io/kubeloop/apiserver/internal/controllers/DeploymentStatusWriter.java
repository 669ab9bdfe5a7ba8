package io.kubeloop.apiserver.internal.controllers;

import static io.kubeloop.apiserver.internal.controllers.OwnedReplicaSets.SPEC_REPLICAS;
import static io.kubeloop.apiserver.internal.controllers.OwnedReplicaSets.statusCount;
import static io.kubeloop.apiserver.internal.controllers.OwnedReplicaSets.sum;

import io.kubeloop.api.json.KubeJson;
import io.kubeloop.apiserver.internal.registry.ObjectRegistry;
import io.kubeloop.apiserver.internal.registry.ResourceDefinition;
import io.kubeloop.time.Ticker;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The status half of the {@link DeploymentController}: computes a Deployment's status from its ReplicaSets and
 * writes it as kube-controller-manager does — the replica counts, the {@code Available} condition, and through a
 * rollout the {@code Progressing} condition ({@code NewReplicaSetCreated}, {@code ReplicaSetUpdated},
 * {@code NewReplicaSetAvailable}, {@code ProgressDeadlineExceeded}, {@code DeploymentPaused} and
 * {@code DeploymentResumed}) with its messages.
 *
 * <p>Invariants: writes only the Deployment's {@code status} subresource, as {@code kube-controller-manager}, and
 * conditions only through {@link DeploymentConditions}; {@link #write} writes only when the status differs from
 * the stored one, and leaves requeueing to the caller (it returns the delay). Write errors (a conflict, the
 * Deployment gone) propagate to the caller, whose retrying sync deals with them. The Deployments' definition is
 * read through a supplier at each write, as the controller learns it from its informers after construction.
 *
 * <p><b>Thread safety.</b> Thread-safe: it keeps no state of its own, only final references to thread-safe
 * collaborators; the controller calls it from its one worker.
 */
final class DeploymentStatusWriter {

    private static final String MANAGER = "kube-controller-manager";

    private final ObjectRegistry registry;
    private final Ticker clock;
    private final Supplier<ResourceDefinition> deployments;

    DeploymentStatusWriter(ObjectRegistry registry, Ticker clock, Supplier<ResourceDefinition> deployments) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.deployments = Objects.requireNonNull(deployments, "deployments");
    }

    /** The counts of a Deployment's status computed from its ReplicaSets. */
    record Counts(int replicas, int updated, int ready, int available, int unavailable) {
        boolean complete(JsonNode d, int desired) {
            return updated == desired && replicas == desired && available == desired;
        }
    }

    /** The counts of {@code d}'s status from its ReplicaSets {@code sets}. */
    static Counts counts(JsonNode d, OwnedReplicaSets sets) {
        List<JsonNode> all = sets.all();
        int available = sum(all, rs -> statusCount(rs, "availableReplicas"));
        int total = sum(all, SPEC_REPLICAS);
        return new Counts(
                sum(all, rs -> statusCount(rs, "replicas")),
                sets.newSet() == null ? 0 : statusCount(sets.newSet(), "replicas"),
                sum(all, rs -> statusCount(rs, "readyReplicas")),
                available,
                Math.max(0, total - available));
    }

    /**
     * Writes the Deployment's status from its ReplicaSets; with {@code rollout}, also its {@code Progressing}
     * condition (kube-controller-manager's {@code syncRolloutStatus}). Returns how long until the Deployment is to
     * be looked at again for its progress deadline, if it is to be.
     */
    Optional<Duration> write(DeploymentController.Key key, JsonNode d, OwnedReplicaSets sets, boolean rollout) {
        Instant now = clock.instant();
        int replicas = WorkloadObjects.intField(d.path("spec"), "replicas", 1);
        RolloutMath.Limits limits = RolloutMath.limits(d, replicas);
        Counts view = counts(d, sets);
        JsonNode old = d.path("status");
        ObjectNode status = KubeJson.mapper().createObjectNode();
        status.put("observedGeneration", d.path("metadata").path("generation").asLong(1));
        ReplicaSetController.putOrRemove(status, "replicas", view.replicas());
        ReplicaSetController.putOrRemove(status, "updatedReplicas", view.updated());
        ReplicaSetController.putOrRemove(status, "readyReplicas", view.ready());
        ReplicaSetController.putOrRemove(status, "availableReplicas", view.available());
        ReplicaSetController.putOrRemove(status, "unavailableReplicas", view.unavailable());
        if (old.has("collisionCount")) {
            status.set("collisionCount", old.get("collisionCount"));
        }
        ArrayNode conditions = old.path("conditions").isArray()
                ? (ArrayNode) old.get("conditions").deepCopy()
                : KubeJson.mapper().createArrayNode();
        status.set("conditions", conditions);
        if (view.available() >= replicas - limits.maxUnavailable()) {
            DeploymentConditions.set(
                    status,
                    "Available",
                    "True",
                    "MinimumReplicasAvailable",
                    "Deployment has minimum availability.",
                    now,
                    false);
        } else {
            DeploymentConditions.set(
                    status,
                    "Available",
                    "False",
                    "MinimumReplicasUnavailable",
                    "Deployment does not have minimum availability.",
                    now,
                    false);
        }
        int deadline = WorkloadObjects.intField(d.path("spec"), "progressDeadlineSeconds", Integer.MAX_VALUE);
        boolean hasDeadline = deadline != Integer.MAX_VALUE;
        String subject = sets.newSet() == null
                ? "Deployment \"" + key.name() + "\""
                : "ReplicaSet \"" + sets.newSet().path("metadata").path("name").asString() + "\"";
        Optional<JsonNode> progressing = WorkloadObjects.condition(d, "Progressing");
        boolean complete = view.complete(d, replicas);
        if (!hasDeadline) {
            DeploymentConditions.remove(status, "Progressing");
        } else if (rollout) {
            boolean alreadyComplete = view.replicas() == view.updated()
                    && progressing
                            .map(c -> c.path("reason").asString("").equals("NewReplicaSetAvailable"))
                            .orElse(false);
            if (!alreadyComplete) {
                if (complete) {
                    DeploymentConditions.set(
                            status,
                            "Progressing",
                            "True",
                            "NewReplicaSetAvailable",
                            subject + " has successfully progressed.",
                            now,
                            false);
                } else if (progressed(old, view) || progressing.isEmpty()) {
                    DeploymentConditions.set(
                            status,
                            "Progressing",
                            "True",
                            "ReplicaSetUpdated",
                            subject + " is progressing.",
                            now,
                            true);
                } else if (timedOut(progressing.get(), deadline, now)) {
                    DeploymentConditions.set(
                            status,
                            "Progressing",
                            "False",
                            "ProgressDeadlineExceeded",
                            subject + " has timed out progressing.",
                            now,
                            false);
                }
            }
        }
        if (!status.equals(old)) {
            ObjectNode next = WorkloadObjects.copy(d);
            next.set("status", status);
            writeStatus(key, next);
        }
        // a rollout that makes no progress is looked at again when its deadline passes
        Optional<JsonNode> cond = WorkloadObjects.conditionIn(status, "Progressing");
        if (hasDeadline
                && rollout
                && !complete
                && cond.isPresent()
                && !cond.get().path("reason").asString("").equals("ProgressDeadlineExceeded")) {
            Instant from = WorkloadObjects.instant(cond.get().path("lastUpdateTime"));
            if (from != null) {
                Duration left = Duration.between(now, from.plusSeconds(deadline));
                return Optional.of(left.isNegative() ? Duration.ZERO : left.plusSeconds(1));
            }
        }
        return Optional.empty();
    }

    private static boolean progressed(JsonNode old, Counts now) {
        int oldUpdated = old.path("updatedReplicas").asInt(0);
        int oldOld = old.path("replicas").asInt(0) - oldUpdated;
        int newOld = now.replicas() - now.updated();
        return now.updated() > oldUpdated
                || newOld < oldOld
                || now.ready() > old.path("readyReplicas").asInt(0)
                || now.available() > old.path("availableReplicas").asInt(0);
    }

    private static boolean timedOut(JsonNode progressing, int deadline, Instant now) {
        String reason = progressing.path("reason").asString("");
        if (reason.equals("NewReplicaSetAvailable")) {
            return false;
        }
        if (reason.equals("ProgressDeadlineExceeded")) {
            return true;
        }
        Instant from = WorkloadObjects.instant(progressing.path("lastUpdateTime"));
        return from != null && from.plusSeconds(deadline).isBefore(now);
    }

    /**
     * After a new ReplicaSet was created, sets {@code Progressing} to {@code NewReplicaSetCreated} at once (when
     * the Deployment has a progress deadline); returns the Deployment as stored afterwards.
     */
    JsonNode announce(DeploymentController.Key key, JsonNode d, OwnedReplicaSets sets) {
        if (!sets.created() || !d.path("spec").path("progressDeadlineSeconds").isNumber()) {
            return d;
        }
        ObjectNode next = WorkloadObjects.copy(d);
        ObjectNode status = next.get("status") instanceof ObjectNode s ? s : next.putObject("status");
        DeploymentConditions.set(
                status,
                "Progressing",
                "True",
                "NewReplicaSetCreated",
                "Created new replica set \""
                        + sets.newSet().path("metadata").path("name").asString() + "\"",
                clock.instant(),
                false);
        return writeStatus(key, next);
    }

    /** Sets {@code Progressing} to DeploymentPaused / DeploymentResumed as {@code spec.paused} changes. */
    JsonNode checkPaused(DeploymentController.Key key, JsonNode d) {
        int deadline = WorkloadObjects.intField(d.path("spec"), "progressDeadlineSeconds", Integer.MAX_VALUE);
        if (deadline == Integer.MAX_VALUE) {
            return d;
        }
        Optional<JsonNode> cond = WorkloadObjects.condition(d, "Progressing");
        String reason = cond.map(c -> c.path("reason").asString("")).orElse("");
        if (reason.equals("ProgressDeadlineExceeded")) {
            return d;
        }
        boolean paused = d.path("spec").path("paused").asBoolean(false);
        boolean pausedCondition = reason.equals("DeploymentPaused");
        ObjectNode next = WorkloadObjects.copy(d);
        ObjectNode status = next.get("status") instanceof ObjectNode s ? s : next.putObject("status");
        Instant now = clock.instant();
        if (paused && !pausedCondition) {
            DeploymentConditions.set(
                    status, "Progressing", "Unknown", "DeploymentPaused", "Deployment is paused", now, false);
        } else if (!paused && pausedCondition) {
            DeploymentConditions.set(
                    status, "Progressing", "Unknown", "DeploymentResumed", "Deployment is resumed", now, false);
        } else {
            return d;
        }
        return writeStatus(key, next);
    }

    /** Writes {@code next} through the status subresource as the deployment controller; the stored object. */
    private JsonNode writeStatus(DeploymentController.Key key, ObjectNode next) {
        return registry.update(
                        deployments.get(),
                        key.namespace(),
                        key.name(),
                        "status",
                        next,
                        WorkloadObjects.context(MANAGER))
                .object()
                .object();
    }
}
