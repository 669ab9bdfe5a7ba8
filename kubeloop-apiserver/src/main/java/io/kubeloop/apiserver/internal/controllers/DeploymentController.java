package io.kubeloop.apiserver.internal.controllers;

import static io.kubeloop.apiserver.internal.controllers.OwnedReplicaSets.SPEC_REPLICAS;
import static io.kubeloop.apiserver.internal.controllers.OwnedReplicaSets.specReplicas;
import static io.kubeloop.apiserver.internal.controllers.OwnedReplicaSets.statusCount;
import static io.kubeloop.apiserver.internal.controllers.OwnedReplicaSets.sum;

import io.kubeloop.apiserver.internal.registry.ObjectRegistry;
import io.kubeloop.apiserver.internal.registry.ResourceDefinition;
import io.kubeloop.apiserver.internal.storage.StoredObject;
import io.kubeloop.cache.ResourceEventHandler;
import io.kubeloop.cache.SharedIndexInformer;
import io.kubeloop.time.Ticker;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

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

    /** A Deployment to sync. */
    record Key(String namespace, String name) {}

    private final ObjectRegistry registry;
    private final QueueWorker<Key> worker;
    private final DeploymentReplicaSets ownedSets;
    private final DeploymentStatusWriter statusWriter;
    private volatile ResourceDefinition deployments;
    private volatile ResourceDefinition replicaSets;
    private volatile ResourceDefinition pods;

    DeploymentController(ObjectRegistry registry, Ticker clock, MetadataInformers informers, ClusterEvents events) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.worker = new QueueWorker<>("deployment", Objects.requireNonNull(clock, "clock"), this::sync);
        this.ownedSets = new DeploymentReplicaSets(registry, events, () -> deployments, () -> replicaSets);
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
            writeStatus(key, d, ownedSets.of(d, false), false);
            return;
        }
        d = statusWriter.checkPaused(key, d);
        boolean paused = d.path("spec").path("paused").asBoolean(false);
        int replicas = WorkloadObjects.intField(d.path("spec"), "replicas", 1);
        RolloutMath.Limits limits = RolloutMath.limits(d, replicas);
        boolean recreate =
                d.path("spec").path("strategy").path("type").asString("").equals("Recreate");
        OwnedReplicaSets sets = ownedSets.of(d, !paused && !recreate);
        d = statusWriter.announce(key, d, sets);
        d = ownedSets.syncRevision(key, d, sets);
        if (paused) {
            List<JsonNode> active =
                    sets.all().stream().filter(rs -> specReplicas(rs) > 0).toList();
            JsonNode only = active.size() == 1 ? active.getFirst() : active.isEmpty() ? sets.newSet() : null;
            if (only != null && specReplicas(only) != replicas) {
                ownedSets.scale(only, replicas, d, limits);
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
            ownedSets.scale(newSet, replicas, d, limits);
            return;
        }
        if (specReplicas(newSet) < replicas) {
            int wanted = RolloutMath.newReplicaSetReplicas(
                    replicas, limits.maxSurge(), sum(all, SPEC_REPLICAS), specReplicas(newSet));
            if (wanted != specReplicas(newSet)) {
                ownedSets.scale(newSet, wanted, d, limits);
                return;
            }
        }
        if (scaleDownOld(d, sets, replicas, limits)) {
            return;
        }
        DeploymentStatusWriter.Counts status = DeploymentStatusWriter.counts(d, sets);
        if (status.complete(d, replicas)) {
            ownedSets.cleanup(d, sets);
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
                ownedSets.scale(oldActive.get(i), targets.get(i)[0], d, limits);
                scaled = true;
            }
        }
        return scaled;
    }

    private void rolloutRecreate(Key key, JsonNode d, OwnedReplicaSets sets, int replicas, RolloutMath.Limits limits) {
        boolean scaledDown = false;
        for (JsonNode rs : sets.old()) {
            if (specReplicas(rs) > 0) {
                ownedSets.scale(rs, 0, d, limits);
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
        OwnedReplicaSets withNew = sets.newSet() == null ? ownedSets.of(d, true) : sets;
        d = statusWriter.announce(key, d, withNew);
        d = ownedSets.syncRevision(key, d, withNew);
        if (specReplicas(withNew.newSet()) != replicas) {
            ownedSets.scale(withNew.newSet(), replicas, d, limits);
            return;
        }
        if (DeploymentStatusWriter.counts(d, withNew).complete(d, replicas)) {
            ownedSets.cleanup(d, withNew);
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
