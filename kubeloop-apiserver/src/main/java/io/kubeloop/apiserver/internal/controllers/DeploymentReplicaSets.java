package io.kubeloop.apiserver.internal.controllers;

import static io.kubeloop.apiserver.internal.controllers.OwnedReplicaSets.SPEC_REPLICAS;
import static io.kubeloop.apiserver.internal.controllers.OwnedReplicaSets.specReplicas;
import static io.kubeloop.apiserver.internal.controllers.OwnedReplicaSets.statusCount;
import static io.kubeloop.apiserver.internal.controllers.OwnedReplicaSets.sum;

import io.kubeloop.api.errors.AlreadyExistsException;
import io.kubeloop.api.errors.ConflictException;
import io.kubeloop.api.errors.NotFoundException;
import io.kubeloop.api.json.KubeJson;
import io.kubeloop.apiserver.internal.registry.DeleteParams;
import io.kubeloop.apiserver.internal.registry.ObjectRegistry;
import io.kubeloop.apiserver.internal.registry.ResourceDefinition;
import io.kubeloop.apiserver.internal.storage.StoredObject;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The ReplicaSet half of the {@link DeploymentController}: reads a Deployment's ReplicaSets and writes them as
 * kube-controller-manager does — creates the new one ({@code <deployment>-<pod-template-hash>}, counting a hash
 * collision in the Deployment's {@code status.collisionCount}), keeps revisions ({@code
 * deployment.kubernetes.io/revision}, {@code revision-history} after a rollback) and the Deployment's annotations
 * in step, scales ReplicaSets (recording the {@code ScalingReplicaSet} Event) and deletes old ones beyond the
 * revision history limit.
 *
 * <p>Invariants: only ReplicaSets the Deployment controls (by the UID in their controller reference) are
 * returned, written or deleted; once its revision is synced, the new ReplicaSet's revision is above every old
 * one's; creating or scaling a ReplicaSet records the Deployment's desired and maximum replicas
 * ({@code desired-replicas}, {@code max-replicas}). Write errors (a conflict, a name taken) propagate to the
 * caller, whose retrying sync deals with them. The definitions of Deployments and ReplicaSets are read through
 * suppliers at each use, as the controller learns them from its informers after construction.
 *
 * <p><b>Thread safety.</b> Thread-safe: it keeps no state of its own, only final references to thread-safe
 * collaborators; the controller calls it from its one worker.
 */
final class DeploymentReplicaSets {

    static final String REVISION = "deployment.kubernetes.io/revision";
    static final String REVISION_HISTORY = "deployment.kubernetes.io/revision-history";
    static final String DESIRED_REPLICAS = "deployment.kubernetes.io/desired-replicas";
    static final String MAX_REPLICAS = "deployment.kubernetes.io/max-replicas";
    static final String HASH_LABEL = "pod-template-hash";
    private static final Set<String> NOT_COPIED = Set.of(
            "kubectl.kubernetes.io/last-applied-configuration",
            REVISION,
            REVISION_HISTORY,
            DESIRED_REPLICAS,
            MAX_REPLICAS,
            "deprecated.deployment.rollback.to");
    private static final String MANAGER = "kube-controller-manager";

    private final ObjectRegistry registry;
    private final ClusterEvents events;
    private final Supplier<ResourceDefinition> deployments;
    private final Supplier<ResourceDefinition> replicaSets;

    DeploymentReplicaSets(
            ObjectRegistry registry,
            ClusterEvents events,
            Supplier<ResourceDefinition> deployments,
            Supplier<ResourceDefinition> replicaSets) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.events = Objects.requireNonNull(events, "events");
        this.deployments = Objects.requireNonNull(deployments, "deployments");
        this.replicaSets = Objects.requireNonNull(replicaSets, "replicaSets");
    }

    /** The Deployment's ReplicaSets; with {@code create}, a missing new one is created first. */
    OwnedReplicaSets of(JsonNode d, boolean create) {
        String uid = d.path("metadata").path("uid").asString();
        String namespace = d.path("metadata").path("namespace").asString();
        List<JsonNode> owned = new ArrayList<>();
        for (StoredObject rs : WorkloadObjects.list(registry, replicaSets.get(), namespace)) {
            if (WorkloadObjects.controlledBy(rs.object(), uid)) {
                owned.add(rs.object());
            }
        }
        owned.sort(Comparator.comparing((JsonNode rs) ->
                        rs.path("metadata").path("creationTimestamp").asString(""))
                .thenComparing(rs -> rs.path("metadata").path("name").asString()));
        JsonNode template = d.path("spec").path("template");
        JsonNode newSet = null;
        List<JsonNode> old = new ArrayList<>();
        for (JsonNode rs : owned) {
            if (newSet == null && sameTemplate(template, rs.path("spec").path("template"))) {
                newSet = rs;
            } else {
                old.add(rs);
            }
        }
        boolean created = false;
        if (newSet == null && create && !WorkloadObjects.deleting(d)) {
            newSet = createNewSet(d, old);
            created = true;
        }
        return new OwnedReplicaSets(newSet, old, created);
    }

    /** True when a ReplicaSet's template is the Deployment's, the {@code pod-template-hash} label aside. */
    static boolean sameTemplate(JsonNode deploymentTemplate, JsonNode rsTemplate) {
        ObjectNode a = (ObjectNode) deploymentTemplate.deepCopy();
        ObjectNode b = rsTemplate.isObject()
                ? (ObjectNode) rsTemplate.deepCopy()
                : KubeJson.mapper().createObjectNode();
        for (ObjectNode t : List.of(a, b)) {
            if (t.path("metadata").path("labels") instanceof ObjectNode labels) {
                labels.remove(HASH_LABEL);
                if (labels.isEmpty()) {
                    ((ObjectNode) t.get("metadata")).remove("labels");
                }
            }
        }
        return a.equals(b);
    }

    private JsonNode createNewSet(JsonNode d, List<JsonNode> old) {
        int collisions = WorkloadObjects.intField(d.path("status"), "collisionCount", 0);
        String hash = TemplateHash.of(d.path("spec").path("template"), collisions);
        String name = d.path("metadata").path("name").asString() + "-" + hash;
        String namespace = d.path("metadata").path("namespace").asString();
        int replicas = WorkloadObjects.intField(d.path("spec"), "replicas", 1);
        RolloutMath.Limits limits = RolloutMath.limits(d, replicas);

        ObjectNode rs = KubeJson.mapper().createObjectNode();
        rs.put("apiVersion", "apps/v1").put("kind", "ReplicaSet");
        ObjectNode meta = rs.putObject("metadata");
        meta.put("name", name).put("namespace", namespace);
        ObjectNode template = (ObjectNode) d.path("spec").path("template").deepCopy();
        ObjectNode templateMeta = template.get("metadata") instanceof ObjectNode m ? m : template.putObject("metadata");
        ObjectNode labels = templateMeta.get("labels") instanceof ObjectNode l ? l : templateMeta.putObject("labels");
        labels.put(HASH_LABEL, hash);
        meta.set("labels", labels.deepCopy());
        ObjectNode annotations = meta.putObject("annotations");
        copyAnnotations(d, annotations);
        annotations.put(REVISION, Long.toString(maxRevision(old) + 1));
        annotations.put(DESIRED_REPLICAS, Integer.toString(replicas));
        annotations.put(MAX_REPLICAS, Integer.toString(replicas + limits.maxSurge()));
        meta.putArray("ownerReferences").add(WorkloadObjects.controllerReference("apps/v1", "Deployment", d));
        ObjectNode spec = rs.putObject("spec");
        boolean recreate =
                d.path("spec").path("strategy").path("type").asString("").equals("Recreate");
        int oldReplicas = sum(old, SPEC_REPLICAS);
        spec.put(
                "replicas",
                recreate ? replicas : RolloutMath.newReplicaSetReplicas(replicas, limits.maxSurge(), oldReplicas, 0));
        int minReady = WorkloadObjects.intField(d.path("spec"), "minReadySeconds", 0);
        if (minReady > 0) {
            spec.put("minReadySeconds", minReady);
        }
        ObjectNode selector = (ObjectNode) d.path("spec").path("selector").deepCopy();
        ObjectNode matchLabels =
                selector.get("matchLabels") instanceof ObjectNode ml ? ml : selector.putObject("matchLabels");
        matchLabels.put(HASH_LABEL, hash);
        spec.set("selector", selector);
        spec.set("template", template);
        try {
            JsonNode created = registry.create(replicaSets.get(), namespace, rs, WorkloadObjects.context(MANAGER))
                    .object()
                    .object();
            int initial = spec.path("replicas").asInt(0);
            if (initial > 0) {
                scaled(d, name, 0, initial);
            }
            return created;
        } catch (AlreadyExistsException e) {
            Optional<StoredObject> existing = WorkloadObjects.get(registry, replicaSets.get(), namespace, name);
            if (existing.isPresent()
                    && WorkloadObjects.controlledBy(
                            existing.get().object(),
                            d.path("metadata").path("uid").asString())
                    && sameTemplate(
                            d.path("spec").path("template"),
                            existing.get().object().path("spec").path("template"))) {
                return existing.get().object();
            }
            // a hash collision: count it, so the next hash differs
            ObjectNode next = WorkloadObjects.copy(d);
            ObjectNode status = next.get("status") instanceof ObjectNode s ? s : next.putObject("status");
            status.put("collisionCount", collisions + 1);
            registry.update(
                    deployments.get(),
                    namespace,
                    d.path("metadata").path("name").asString(),
                    "status",
                    next,
                    WorkloadObjects.context(MANAGER));
            throw e;
        }
    }

    /**
     * Gives the new ReplicaSet the next revision when an older one (a rollback's) became new, keeps its
     * annotations those of the Deployment, and the Deployment's revision annotation that of the new
     * ReplicaSet. Returns the Deployment as stored afterwards.
     */
    JsonNode syncRevision(DeploymentController.Key key, JsonNode d, OwnedReplicaSets sets) {
        JsonNode newSet = sets.newSet();
        if (newSet == null) {
            return d;
        }
        long next = maxRevision(sets.old()) + 1;
        long current = revision(newSet);
        ObjectNode rs = WorkloadObjects.copy(newSet);
        ObjectNode annotations = annotations(rs);
        boolean changed = copyAnnotations(d, annotations);
        if (current < next) {
            annotations.put(REVISION, Long.toString(next));
            if (current > 0) {
                String history = annotations.path(REVISION_HISTORY).asString("");
                annotations.put(REVISION_HISTORY, history.isEmpty() ? Long.toString(current) : history + "," + current);
            }
            changed = true;
        }
        int minReady = WorkloadObjects.intField(d.path("spec"), "minReadySeconds", 0);
        if (WorkloadObjects.intField(rs.path("spec"), "minReadySeconds", 0) != minReady) {
            ((ObjectNode) rs.get("spec")).put("minReadySeconds", minReady);
            changed = true;
        }
        if (changed) {
            registry.update(
                    replicaSets.get(),
                    key.namespace(),
                    rs.path("metadata").path("name").asString(),
                    "",
                    rs,
                    WorkloadObjects.context(MANAGER));
        }
        String revision = annotations.path(REVISION).asString("");
        if (!d.path("metadata").path("annotations").path(REVISION).asString("").equals(revision)) {
            ObjectNode updated = WorkloadObjects.copy(d);
            annotations(updated).put(REVISION, revision);
            return registry.update(
                            deployments.get(),
                            key.namespace(),
                            key.name(),
                            "",
                            updated,
                            WorkloadObjects.context(MANAGER))
                    .object()
                    .object();
        }
        return d;
    }

    private static ObjectNode annotations(ObjectNode object) {
        ObjectNode meta = (ObjectNode) object.get("metadata");
        return meta.get("annotations") instanceof ObjectNode a ? a : meta.putObject("annotations");
    }

    /** Copies the Deployment's annotations (but the revision-keeping ones) onto a ReplicaSet's; true if any changed. */
    private static boolean copyAnnotations(JsonNode d, ObjectNode rsAnnotations) {
        boolean changed = false;
        for (var e : d.path("metadata").path("annotations").properties()) {
            if (NOT_COPIED.contains(e.getKey())) {
                continue;
            }
            if (!e.getValue().equals(rsAnnotations.get(e.getKey()))) {
                rsAnnotations.set(e.getKey(), e.getValue().deepCopy());
                changed = true;
            }
        }
        return changed;
    }

    void scale(JsonNode rs, int replicas, JsonNode d, RolloutMath.Limits limits) {
        ObjectNode next = WorkloadObjects.copy(rs);
        ((ObjectNode) next.get("spec")).put("replicas", replicas);
        int desired = WorkloadObjects.intField(d.path("spec"), "replicas", 1);
        annotations(next).put(DESIRED_REPLICAS, Integer.toString(desired));
        annotations(next).put(MAX_REPLICAS, Integer.toString(desired + limits.maxSurge()));
        registry.update(
                replicaSets.get(),
                rs.path("metadata").path("namespace").asString(),
                rs.path("metadata").path("name").asString(),
                "",
                next,
                WorkloadObjects.context(MANAGER));
        scaled(d, rs.path("metadata").path("name").asString(), specReplicas(rs), replicas);
    }

    /** Records the {@code ScalingReplicaSet} Event kube-controller-manager records for a scale step. */
    private void scaled(JsonNode d, String replicaSet, int from, int to) {
        if (from != to) {
            events.normal(
                    d,
                    "apps/v1",
                    "Deployment",
                    "deployment-controller",
                    "ScalingReplicaSet",
                    "Scaled " + (to > from ? "up" : "down") + " replica set " + replicaSet + " from " + from + " to "
                            + to);
        }
    }

    /**
     * Deletes the oldest old ReplicaSets without Pods (nor any wanted) beyond the Deployment's
     * {@code revisionHistoryLimit}, if it has one.
     */
    void cleanup(JsonNode d, OwnedReplicaSets sets) {
        JsonNode limitNode = d.path("spec").path("revisionHistoryLimit");
        if (!limitNode.isNumber()) {
            return;
        }
        List<JsonNode> idle = new ArrayList<>(sets.old().stream()
                .filter(rs ->
                        specReplicas(rs) == 0 && statusCount(rs, "replicas") == 0 && !WorkloadObjects.deleting(rs))
                .toList());
        int surplus = idle.size() - limitNode.asInt();
        if (surplus <= 0) {
            return;
        }
        idle.sort(Comparator.comparingLong(DeploymentReplicaSets::revision));
        for (JsonNode rs : idle.subList(0, surplus)) {
            try {
                registry.delete(
                        replicaSets.get(),
                        rs.path("metadata").path("namespace").asString(),
                        rs.path("metadata").path("name").asString(),
                        DeleteParams.propagation(
                                null, rs.path("metadata").path("uid").asString()),
                        WorkloadObjects.context(MANAGER));
            } catch (NotFoundException | ConflictException e) {
                // gone meanwhile
            }
        }
    }

    /** A ReplicaSet's {@code deployment.kubernetes.io/revision}; 0 when absent or not a number. */
    static long revision(JsonNode rs) {
        try {
            return Long.parseLong(
                    rs.path("metadata").path("annotations").path(REVISION).asString("0"));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** The highest revision among {@code sets}; 0 for none. */
    private static long maxRevision(List<JsonNode> sets) {
        long max = 0;
        for (JsonNode rs : sets) {
            max = Math.max(max, revision(rs));
        }
        return max;
    }
}
