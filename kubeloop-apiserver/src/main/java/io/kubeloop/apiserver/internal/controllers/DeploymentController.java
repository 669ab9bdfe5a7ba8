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
import io.kubeloop.cache.ResourceEventHandler;
import io.kubeloop.cache.SharedIndexInformer;
import io.kubeloop.time.Ticker;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The Deployment controller, as kube-controller-manager's: each Deployment's Pod template is rolled out
 * through ReplicaSets it controls. The ReplicaSet whose template equals the Deployment's (its
 * {@code pod-template-hash} label aside) is the new one; without one, {@code <deployment>-<hash>} is created
 * with the next revision ({@code deployment.kubernetes.io/revision}), the Deployment's annotations
 * ({@code kubernetes.io/change-cause} among them) and the hash label in its selector and template. A
 * ReplicaSet brought back by a rollback gets the next revision and keeps the old ones in
 * {@code deployment.kubernetes.io/revision-history}.
 *
 * <ul>
 *   <li>{@code RollingUpdate}: the new ReplicaSet grows while all Pods stay within {@code replicas + maxSurge}
 *       and old ones shrink while {@code replicas - maxUnavailable} stay available (ready for
 *       {@code minReadySeconds}).
 *   <li>{@code Recreate}: every old ReplicaSet goes to 0, and the new one is created once no old Pod runs.
 *   <li>{@code paused}: only scaling; the {@code Progressing} condition says {@code DeploymentPaused} (then
 *       {@code DeploymentResumed}).
 * </ul>
 *
 * <p>Status: replicas, updated, ready, available and unavailable counts from the ReplicaSets, the
 * {@code Available} condition ({@code MinimumReplicasAvailable} when at least {@code replicas -
 * maxUnavailable} are available) and the {@code Progressing} condition ({@code NewReplicaSetCreated},
 * {@code ReplicaSetUpdated} while progress is made, {@code NewReplicaSetAvailable} when complete,
 * {@code ProgressDeadlineExceeded} once {@code progressDeadlineSeconds} pass without progress), with
 * kube-controller-manager's messages, so {@code kubectl rollout status} and {@code kubectl wait
 * --for=condition=Available} behave as on a cluster. Old ReplicaSets beyond {@code revisionHistoryLimit} that
 * have no Pods are deleted.
 *
 * <p>Driven by the Deployment and ReplicaSet metadata informers (a ReplicaSet's change queues its controlling
 * Deployment); one worker syncs one Deployment at a time, reading everything from storage.
 *
 * <p><b>Thread safety.</b> Thread-safe; {@link #close()} stops the worker and waits for it.
 */
final class DeploymentController implements AutoCloseable {

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

    /** A Deployment to sync. */
    record Key(String namespace, String name) {}

    private final ObjectRegistry registry;
    private final ClusterEvents events;
    private final QueueWorker<Key> worker;
    private final DeploymentStatusWriter statusWriter;
    private volatile ResourceDefinition deployments;
    private volatile ResourceDefinition replicaSets;
    private volatile ResourceDefinition pods;

    DeploymentController(ObjectRegistry registry, Ticker clock, MetadataInformers informers, ClusterEvents events) {
        this.events = Objects.requireNonNull(events, "events");
        this.registry = Objects.requireNonNull(registry, "registry");
        this.worker = new QueueWorker<>("deployment", Objects.requireNonNull(clock, "clock"), this::sync);
        this.statusWriter = new DeploymentStatusWriter(registry, clock, () -> deployments);
        informers.subscribe(this::monitor);
    }

    private void monitor(ResourceDefinition def, SharedIndexInformer<ObjectMetadata> informer) {
        if (def.group().equals("apps") && def.plural().equals("deployments")) {
            deployments = def;
            informer.addEventHandler(Handlers.queueing(
                    worker,
                    d -> Optional.of(
                            new Key(d.metadata().namespace(), d.metadata().name()))));
        } else if (def.group().equals("apps") && def.plural().equals("replicasets")) {
            replicaSets = def;
            informer.addEventHandler(Handlers.queueing(
                    worker,
                    rs -> Handlers.controller(rs, "apps/v1", "Deployment")
                            .map(n -> new Key(rs.metadata().namespace(), n))));
        } else if (def.group().isEmpty() && def.plural().equals("pods")) {
            pods = def;
            informer.addEventHandler(new ResourceEventHandler<>() {
                @Override
                public void onAdd(ObjectMetadata pod, boolean isInInitialList) {}

                @Override
                public void onUpdate(ObjectMetadata oldPod, ObjectMetadata newPod) {}

                @Override
                public void onDelete(ObjectMetadata pod, boolean finalStateUnknown) {
                    podGone(pod);
                }
            });
        }
    }

    /**
     * A Pod's end can let a {@code Recreate} rollout go on (it waits for every old Pod to stop): queues the
     * Deployment that controls the Pod's ReplicaSet.
     */
    private void podGone(ObjectMetadata pod) {
        ResourceDefinition rsDef = replicaSets;
        if (rsDef == null) {
            return;
        }
        pod.metadata().ownerReferencesOrEmpty().stream()
                .filter(r -> Boolean.TRUE.equals(r.controller()) && r.kind().equals("ReplicaSet"))
                .findFirst()
                .flatMap(
                        r -> WorkloadObjects.get(registry, rsDef, pod.metadata().namespace(), r.name()))
                .flatMap(rs -> WorkloadObjects.controllerRef(rs.object()))
                .filter(ref -> ref.path("kind").asString("").equals("Deployment"))
                .ifPresent(ref -> worker.queue()
                        .add(new Key(
                                pod.metadata().namespace(), ref.path("name").asString())));
    }

    void start() {
        worker.start();
    }

    private void sync(Key key) {
        if (deployments == null || replicaSets == null || pods == null) {
            return;
        }
        worker.retrying(key, () -> {
            Optional<StoredObject> stored = WorkloadObjects.get(registry, deployments, key.namespace(), key.name());
            if (stored.isEmpty()) {
                return;
            }
            reconcile(key, stored.get().object());
        });
    }

    private void reconcile(Key key, JsonNode d) {
        if (WorkloadObjects.deleting(d)) {
            writeStatus(key, d, sets(d, false), false);
            return;
        }
        d = statusWriter.checkPaused(key, d);
        boolean paused = d.path("spec").path("paused").asBoolean(false);
        int replicas = WorkloadObjects.intField(d.path("spec"), "replicas", 1);
        RolloutMath.Limits limits = RolloutMath.limits(d, replicas);
        boolean recreate =
                d.path("spec").path("strategy").path("type").asString("").equals("Recreate");
        OwnedReplicaSets sets = sets(d, !paused && !recreate);
        d = statusWriter.announce(key, d, sets);
        d = syncRevision(key, d, sets);
        if (paused) {
            List<JsonNode> active =
                    sets.all().stream().filter(rs -> specReplicas(rs) > 0).toList();
            JsonNode only = active.size() == 1 ? active.getFirst() : active.isEmpty() ? sets.newSet() : null;
            if (only != null && specReplicas(only) != replicas) {
                scale(only, replicas, d, limits);
                return;
            }
            writeStatus(key, d, sets, false);
            return;
        }
        if (recreate) {
            rolloutRecreate(key, d, sets, replicas, limits);
        } else {
            rolloutRolling(key, d, sets, replicas, limits);
        }
    }

    // ---- strategies --------------------------------------------------------------------------------------

    private void rolloutRolling(Key key, JsonNode d, OwnedReplicaSets sets, int replicas, RolloutMath.Limits limits) {
        JsonNode newSet = sets.newSet();
        List<JsonNode> all = sets.all();
        if (specReplicas(newSet) > replicas) {
            scale(newSet, replicas, d, limits);
            return;
        }
        if (specReplicas(newSet) < replicas) {
            int wanted = RolloutMath.newReplicaSetReplicas(
                    replicas, limits.maxSurge(), sum(all, SPEC_REPLICAS), specReplicas(newSet));
            if (wanted != specReplicas(newSet)) {
                scale(newSet, wanted, d, limits);
                return;
            }
        }
        if (scaleDownOld(d, sets, replicas, limits)) {
            return;
        }
        DeploymentStatusWriter.Counts status = DeploymentStatusWriter.counts(d, sets);
        if (status.complete(d, replicas)) {
            cleanup(d, sets);
        }
        writeStatus(key, d, sets, true);
    }

    private boolean scaleDownOld(JsonNode d, OwnedReplicaSets sets, int replicas, RolloutMath.Limits limits) {
        List<JsonNode> oldActive =
                sets.old().stream().filter(rs -> specReplicas(rs) > 0).toList();
        if (oldActive.isEmpty()) {
            return false;
        }
        List<JsonNode> all = sets.all();
        int budget = RolloutMath.oldScaleDownBudget(
                sum(all, SPEC_REPLICAS),
                replicas,
                limits.maxUnavailable(),
                specReplicas(sets.newSet()),
                sets.newSet() == null ? 0 : statusCount(sets.newSet(), "availableReplicas"));
        if (budget <= 0) {
            return false;
        }
        // unhealthy old Pods first
        int cleaned = 0;
        List<int[]> targets = new ArrayList<>();
        for (JsonNode rs : oldActive) {
            int spec = specReplicas(rs);
            int unhealthy = spec - statusCount(rs, "availableReplicas");
            if (cleaned >= budget || unhealthy <= 0) {
                targets.add(new int[] {spec});
                continue;
            }
            int down = Math.min(budget - cleaned, unhealthy);
            cleaned += down;
            targets.add(new int[] {spec - down});
        }
        int minAvailable = replicas - limits.maxUnavailable();
        int available = sum(all, rs -> statusCount(rs, "availableReplicas"));
        int healthyBudget = Math.max(0, Math.min(budget - cleaned, available - minAvailable));
        for (int i = 0; i < oldActive.size() && healthyBudget > 0; i++) {
            int down = Math.min(targets.get(i)[0], healthyBudget);
            targets.get(i)[0] -= down;
            healthyBudget -= down;
        }
        boolean scaled = false;
        for (int i = 0; i < oldActive.size(); i++) {
            if (targets.get(i)[0] != specReplicas(oldActive.get(i))) {
                scale(oldActive.get(i), targets.get(i)[0], d, limits);
                scaled = true;
            }
        }
        return scaled;
    }

    private void rolloutRecreate(Key key, JsonNode d, OwnedReplicaSets sets, int replicas, RolloutMath.Limits limits) {
        boolean scaledDown = false;
        for (JsonNode rs : sets.old()) {
            if (specReplicas(rs) > 0) {
                scale(rs, 0, d, limits);
                scaledDown = true;
            }
        }
        if (scaledDown) {
            return;
        }
        if (oldPodsRunning(sets)) {
            writeStatus(key, d, sets, true);
            return;
        }
        OwnedReplicaSets withNew = sets.newSet() == null ? sets(d, true) : sets;
        d = statusWriter.announce(key, d, withNew);
        d = syncRevision(key, d, withNew);
        if (specReplicas(withNew.newSet()) != replicas) {
            scale(withNew.newSet(), replicas, d, limits);
            return;
        }
        if (DeploymentStatusWriter.counts(d, withNew).complete(d, replicas)) {
            cleanup(d, withNew);
        }
        writeStatus(key, d, withNew, true);
    }

    private boolean oldPodsRunning(OwnedReplicaSets sets) {
        List<String> uids = sets.old().stream()
                .map(rs -> rs.path("metadata").path("uid").asString())
                .toList();
        if (uids.isEmpty()) {
            return false;
        }
        String namespace =
                sets.old().getFirst().path("metadata").path("namespace").asString();
        for (StoredObject p : WorkloadObjects.list(registry, pods, namespace)) {
            String phase = p.object().path("status").path("phase").asString("");
            if (!phase.equals("Succeeded")
                    && !phase.equals("Failed")
                    && uids.stream().anyMatch(u -> WorkloadObjects.controlledBy(p.object(), u))) {
                return true;
            }
        }
        return false;
    }

    // ---- ReplicaSets ------------------------------------------------------------------------------------

    /** The Deployment's ReplicaSets; with {@code create}, a missing new one is created first. */
    private OwnedReplicaSets sets(JsonNode d, boolean create) {
        String uid = d.path("metadata").path("uid").asString();
        String namespace = d.path("metadata").path("namespace").asString();
        List<JsonNode> owned = new ArrayList<>();
        for (StoredObject rs : WorkloadObjects.list(registry, replicaSets, namespace)) {
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
            JsonNode created = registry.create(replicaSets, namespace, rs, WorkloadObjects.context(MANAGER))
                    .object()
                    .object();
            int initial = spec.path("replicas").asInt(0);
            if (initial > 0) {
                scaled(d, name, 0, initial);
            }
            return created;
        } catch (AlreadyExistsException e) {
            Optional<StoredObject> existing = WorkloadObjects.get(registry, replicaSets, namespace, name);
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
                    deployments,
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
    private JsonNode syncRevision(Key key, JsonNode d, OwnedReplicaSets sets) {
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
                    replicaSets,
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
                            deployments, key.namespace(), key.name(), "", updated, WorkloadObjects.context(MANAGER))
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

    private void scale(JsonNode rs, int replicas, JsonNode d, RolloutMath.Limits limits) {
        ObjectNode next = WorkloadObjects.copy(rs);
        ((ObjectNode) next.get("spec")).put("replicas", replicas);
        int desired = WorkloadObjects.intField(d.path("spec"), "replicas", 1);
        annotations(next).put(DESIRED_REPLICAS, Integer.toString(desired));
        annotations(next).put(MAX_REPLICAS, Integer.toString(desired + limits.maxSurge()));
        registry.update(
                replicaSets,
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

    private void cleanup(JsonNode d, OwnedReplicaSets sets) {
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
        idle.sort(Comparator.comparingLong(DeploymentController::revision));
        for (JsonNode rs : idle.subList(0, surplus)) {
            try {
                registry.delete(
                        replicaSets,
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

    // ---- small helpers ----------------------------------------------------------------------------------

    static long revision(JsonNode rs) {
        try {
            return Long.parseLong(
                    rs.path("metadata").path("annotations").path(REVISION).asString("0"));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static long maxRevision(List<JsonNode> sets) {
        long max = 0;
        for (JsonNode rs : sets) {
            max = Math.max(max, revision(rs));
        }
        return max;
    }

    // ---- status -----------------------------------------------------------------------------------------

    /** Writes the Deployment's status (see {@link DeploymentStatusWriter#write}); queues it again for its deadline. */
    private void writeStatus(Key key, JsonNode d, OwnedReplicaSets sets, boolean rollout) {
        statusWriter
                .write(key, d, sets, rollout)
                .ifPresent(after -> worker.queue().addAfter(key, after));
    }

    /** Stops the worker and waits for it. */
    @Override
    public void close() {
        worker.close();
    }
}
