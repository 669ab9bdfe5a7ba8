package io.kubeloop.apiserver.internal.controllers;

import io.kubeloop.api.errors.ConflictException;
import io.kubeloop.api.errors.NotFoundException;
import io.kubeloop.api.json.KubeJson;
import io.kubeloop.apiserver.internal.registry.DeleteParams;
import io.kubeloop.apiserver.internal.registry.ObjectRegistry;
import io.kubeloop.apiserver.internal.registry.ResourceDefinition;
import io.kubeloop.apiserver.internal.storage.StoredObject;
import io.kubeloop.cache.SharedIndexInformer;
import io.kubeloop.time.Ticker;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The ReplicaSet controller: keeps {@code spec.replicas} active Pods (neither terminating nor finished) made
 * from the template and controlled by each ReplicaSet — creating the missing ones (named
 * {@code <replicaset>-<random>}) and deleting the surplus, least useful first (unscheduled, then pending,
 * then not ready, then the youngest) — and reports {@code status.replicas}, {@code fullyLabeledReplicas},
 * {@code readyReplicas}, {@code availableReplicas} (ready for {@code minReadySeconds}) and
 * {@code observedGeneration}, as kube-controller-manager's does. Pods are read from storage, so a Pod just
 * created is seen at once and no expectations are needed.
 *
 * <p>Driven by the ReplicaSet and Pod metadata informers (a Pod's change queues its controlling ReplicaSet);
 * one worker syncs one ReplicaSet at a time.
 *
 * <p><b>Thread safety.</b> Thread-safe; {@link #close()} stops the worker and waits for it.
 */
final class ReplicaSetController implements AutoCloseable {

    /** A ReplicaSet to sync. */
    record Key(String namespace, String name) {}

    private final ObjectRegistry registry;
    private final ClusterEvents events;
    private final Ticker clock;
    private final QueueWorker<Key> worker;
    private volatile ResourceDefinition replicaSets;
    private volatile ResourceDefinition pods;

    ReplicaSetController(ObjectRegistry registry, Ticker clock, MetadataInformers informers, ClusterEvents events) {
        this.events = Objects.requireNonNull(events, "events");
        this.registry = Objects.requireNonNull(registry, "registry");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.worker = new QueueWorker<>("replicaset", clock, this::sync);
        informers.subscribe(this::monitor);
    }

    private void monitor(ResourceDefinition def, SharedIndexInformer<ObjectMetadata> informer) {
        if (def.group().equals("apps") && def.plural().equals("replicasets")) {
            replicaSets = def;
            informer.addEventHandler(Handlers.queueing(
                    worker,
                    rs -> Optional.of(
                            new Key(rs.metadata().namespace(), rs.metadata().name()))));
        } else if (def.group().isEmpty() && def.plural().equals("pods")) {
            pods = def;
            informer.addEventHandler(Handlers.queueing(worker, ReplicaSetController::owner));
        }
    }

    private static Optional<Key> owner(ObjectMetadata pod) {
        return Handlers.controller(pod, "apps/v1", "ReplicaSet")
                .map(n -> new Key(pod.metadata().namespace(), n));
    }

    void start() {
        worker.start();
    }

    private void sync(Key key) {
        ResourceDefinition rsDef = replicaSets;
        ResourceDefinition podDef = pods;
        if (rsDef == null || podDef == null) {
            return;
        }
        Optional<StoredObject> stored = WorkloadObjects.get(registry, rsDef, key.namespace(), key.name());
        if (stored.isEmpty()) {
            return;
        }
        JsonNode rs = stored.get().object();
        String uid = rs.path("metadata").path("uid").asString();
        List<JsonNode> owned = new ArrayList<>();
        for (StoredObject p : WorkloadObjects.list(registry, podDef, key.namespace())) {
            if (WorkloadObjects.controlledBy(p.object(), uid)) {
                owned.add(p.object());
            }
        }
        List<JsonNode> active = owned.stream().filter(WorkloadObjects::active).toList();
        worker.retrying(key, () -> {
            if (!WorkloadObjects.deleting(rs)) {
                manage(podDef, rs, active);
            }
            updateStatus(rsDef, key, stored.get(), active);
        });
    }

    private void manage(ResourceDefinition podDef, JsonNode rs, List<JsonNode> active) {
        int want = WorkloadObjects.intField(rs.path("spec"), "replicas", 1);
        int diff = active.size() - want;
        String namespace = rs.path("metadata").path("namespace").asString();
        if (diff < 0) {
            for (int i = 0; i < -diff; i++) {
                String created = registry.create(
                                podDef, namespace, pod(rs), WorkloadObjects.context("kube-controller-manager"))
                        .object()
                        .name();
                events.normal(
                        rs,
                        "apps/v1",
                        "ReplicaSet",
                        "replicaset-controller",
                        "SuccessfulCreate",
                        "Created pod: " + created);
            }
        } else if (diff > 0) {
            List<JsonNode> ranked = new ArrayList<>(active);
            ranked.sort(DELETION_ORDER);
            for (JsonNode pod : ranked.subList(0, diff)) {
                try {
                    registry.delete(
                            podDef,
                            namespace,
                            pod.path("metadata").path("name").asString(),
                            new DeleteParams(
                                    null, null, pod.path("metadata").path("uid").asString(), null, null),
                            WorkloadObjects.context("kube-controller-manager"));
                    events.normal(
                            rs,
                            "apps/v1",
                            "ReplicaSet",
                            "replicaset-controller",
                            "SuccessfulDelete",
                            "Deleted pod: " + pod.path("metadata").path("name").asString());
                } catch (NotFoundException | ConflictException e) {
                    // gone meanwhile
                }
            }
        }
    }

    /**
     * Pods to delete first come first: not yet bound to a Node, then pending, then not ready, then the most
     * recently created (kube-controller-manager's ranking, simplified to the criteria that tell simulated Pods
     * apart).
     */
    private static final Comparator<JsonNode> DELETION_ORDER = Comparator.<JsonNode>comparingInt(
                    p -> p.path("spec").path("nodeName").asString("").isEmpty() ? 0 : 1)
            .thenComparingInt(p -> p.path("status").path("phase").asString("").equals("Running") ? 1 : 0)
            .thenComparingInt(p -> WorkloadObjects.ready(p) ? 1 : 0)
            .thenComparing(p -> p.path("metadata").path("creationTimestamp").asString(""), Comparator.reverseOrder());

    private static ObjectNode pod(JsonNode rs) {
        JsonNode template = rs.path("spec").path("template");
        ObjectNode pod = KubeJson.mapper().createObjectNode();
        pod.put("apiVersion", "v1").put("kind", "Pod");
        ObjectNode meta = pod.putObject("metadata");
        meta.put("generateName", rs.path("metadata").path("name").asString() + "-");
        meta.put("namespace", rs.path("metadata").path("namespace").asString());
        if (template.path("metadata").path("labels").isObject()) {
            meta.set("labels", template.path("metadata").path("labels").deepCopy());
        }
        if (template.path("metadata").path("annotations").isObject()) {
            meta.set(
                    "annotations", template.path("metadata").path("annotations").deepCopy());
        }
        meta.putArray("ownerReferences").add(WorkloadObjects.controllerReference("apps/v1", "ReplicaSet", rs));
        pod.set("spec", template.path("spec").deepCopy());
        return pod;
    }

    private void updateStatus(ResourceDefinition rsDef, Key key, StoredObject stored, List<JsonNode> active) {
        JsonNode rs = stored.object();
        Instant now = clock.instant();
        int minReady = WorkloadObjects.intField(rs.path("spec"), "minReadySeconds", 0);
        var templateLabels = WorkloadObjects.labels(rs.path("spec").path("template"));
        int labelled = 0;
        int ready = 0;
        int available = 0;
        Duration recheck = Duration.ZERO;
        for (JsonNode pod : active) {
            var labels = WorkloadObjects.labels(pod);
            if (labels.entrySet().containsAll(templateLabels.entrySet())) {
                labelled++;
            }
            if (WorkloadObjects.ready(pod)) {
                ready++;
                if (WorkloadObjects.available(pod, minReady, now)) {
                    available++;
                } else {
                    Duration left = WorkloadObjects.untilAvailable(pod, minReady, now);
                    recheck = recheck.isZero() || left.compareTo(recheck) < 0 ? left : recheck;
                }
            }
        }
        ObjectNode status = rs.path("status").isObject()
                ? ((ObjectNode) rs.path("status")).deepCopy()
                : KubeJson.mapper().createObjectNode();
        status.put("replicas", active.size());
        putOrRemove(status, "fullyLabeledReplicas", labelled);
        putOrRemove(status, "readyReplicas", ready);
        putOrRemove(status, "availableReplicas", available);
        status.put("observedGeneration", rs.path("metadata").path("generation").asLong(1));
        if (!status.equals(rs.path("status"))) {
            ObjectNode next = WorkloadObjects.copy(rs);
            next.set("status", status);
            registry.update(
                    rsDef,
                    key.namespace(),
                    key.name(),
                    "status",
                    next,
                    WorkloadObjects.context("kube-controller-manager"));
        }
        if (recheck.isPositive()) {
            worker.queue().addAfter(key, recheck.plusMillis(10));
        }
    }

    /** Sets an {@code omitempty} count: absent at zero, as Go serializes it. */
    static void putOrRemove(ObjectNode status, String field, int value) {
        if (value == 0) {
            status.remove(field);
        } else {
            status.put(field, value);
        }
    }

    /** Stops the worker and waits for it. */
    @Override
    public void close() {
        worker.close();
    }
}
