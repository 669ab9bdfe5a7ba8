package io.kubeloop.apiserver.internal.controllers;

import io.kubeloop.api.json.KubeJson;
import io.kubeloop.apiserver.internal.registry.ObjectRegistry;
import io.kubeloop.apiserver.internal.registry.ResourceDefinition;
import io.kubeloop.apiserver.internal.storage.StoredObject;
import io.kubeloop.cache.ResourceEventHandler;
import io.kubeloop.cache.SharedIndexInformer;
import io.kubeloop.time.Ticker;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The DaemonSet controller, as kube-controller-manager's: one Pod per Node that the template's
 * {@code nodeSelector} and required node affinity select and whose taints it tolerates (with the tolerations a
 * DaemonSet adds: not-ready, unreachable, pressure and unschedulable Nodes). Each Pod is pinned to its Node by a
 * required {@code matchFields metadata.name} node affinity and bound by the scheduler; Pods on Nodes that no
 * longer qualify are deleted. Pods carry {@code controller-revision-hash} (the template's hash, kept as a
 * {@link ControllerRevisions ControllerRevision} for {@code kubectl rollout history} and {@code undo}) and
 * {@code pod-template-generation}; a {@code RollingUpdate} replaces Pods of an older template while no more
 * than {@code maxUnavailable} Nodes lack an available Pod. Status: {@code desiredNumberScheduled},
 * {@code currentNumberScheduled}, {@code numberMisscheduled}, {@code numberReady}, {@code numberAvailable},
 * {@code numberUnavailable}, {@code updatedNumberScheduled}, {@code observedGeneration}.
 *
 * <p>Driven by the DaemonSet, Pod and Node metadata informers; one worker syncs one DaemonSet at a time.
 *
 * <p><b>Thread safety.</b> Thread-safe; {@link #close()} stops the worker and waits for it.
 */
final class DaemonSetController implements AutoCloseable {

    private static final String MANAGER = "kube-controller-manager";
    static final String HASH_LABEL = "controller-revision-hash";
    private static final List<String[]> TOLERATIONS = List.of(
            new String[] {"node.kubernetes.io/not-ready", "NoExecute"},
            new String[] {"node.kubernetes.io/unreachable", "NoExecute"},
            new String[] {"node.kubernetes.io/disk-pressure", "NoSchedule"},
            new String[] {"node.kubernetes.io/memory-pressure", "NoSchedule"},
            new String[] {"node.kubernetes.io/pid-pressure", "NoSchedule"},
            new String[] {"node.kubernetes.io/unschedulable", "NoSchedule"});

    /** A DaemonSet to sync. */
    record Key(String namespace, String name) {}

    private final ObjectRegistry registry;
    private final ClusterEvents events;
    private final Ticker clock;
    private final QueueWorker<Key> worker;
    private volatile ResourceDefinition daemonSets;
    private volatile ResourceDefinition pods;
    private volatile ResourceDefinition nodes;
    private volatile ControllerRevisions revisions;

    DaemonSetController(ObjectRegistry registry, Ticker clock, MetadataInformers informers, ClusterEvents events) {
        this.events = Objects.requireNonNull(events, "events");
        this.registry = Objects.requireNonNull(registry, "registry");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.worker = new QueueWorker<>("daemonset", clock, this::sync);
        informers.subscribe(this::monitor);
    }

    private void monitor(ResourceDefinition def, SharedIndexInformer<ObjectMetadata> informer) {
        if (def.group().equals("apps") && def.plural().equals("controllerrevisions")) {
            revisions = new ControllerRevisions(registry, def);
        } else if (def.group().equals("apps") && def.plural().equals("daemonsets")) {
            daemonSets = def;
            informer.addEventHandler(Handlers.queueing(
                    worker,
                    d -> Optional.of(
                            new Key(d.metadata().namespace(), d.metadata().name()))));
        } else if (def.group().isEmpty() && def.plural().equals("pods")) {
            pods = def;
            informer.addEventHandler(Handlers.queueing(
                    worker,
                    p -> Handlers.controller(p, "apps/v1", "DaemonSet")
                            .map(n -> new Key(p.metadata().namespace(), n))));
        } else if (def.group().isEmpty() && def.plural().equals("nodes")) {
            nodes = def;
            informer.addEventHandler(new ResourceEventHandler<>() {
                @Override
                public void onAdd(ObjectMetadata node, boolean isInInitialList) {
                    everyDaemonSet();
                }

                @Override
                public void onUpdate(ObjectMetadata oldNode, ObjectMetadata newNode) {
                    everyDaemonSet();
                }

                @Override
                public void onDelete(ObjectMetadata node, boolean finalStateUnknown) {
                    everyDaemonSet();
                }
            });
        }
    }

    private void everyDaemonSet() {
        ResourceDefinition def = daemonSets;
        if (def != null) {
            for (StoredObject ds : WorkloadObjects.list(registry, def, null)) {
                worker.queue().add(new Key(ds.namespace(), ds.name()));
            }
        }
    }

    void start() {
        worker.start();
    }

    private void sync(Key key) {
        if (daemonSets == null || pods == null || nodes == null || revisions == null) {
            return;
        }
        worker.retrying(key, () -> {
            Optional<StoredObject> stored = WorkloadObjects.get(registry, daemonSets, key.namespace(), key.name());
            if (stored.isPresent() && !WorkloadObjects.deleting(stored.get().object())) {
                reconcile(key, stored.get().object());
            }
        });
    }

    private void reconcile(Key key, JsonNode ds) {
        Instant now = clock.instant();
        String uid = ds.path("metadata").path("uid").asString();
        ControllerRevisions.Current revision = revisions.ensure(ds, "apps/v1", "DaemonSet");
        String hash = revision.name().substring(key.name().length() + 1);
        int minReady = WorkloadObjects.intField(ds.path("spec"), "minReadySeconds", 0);
        Map<String, List<JsonNode>> byNode = new LinkedHashMap<>();
        List<JsonNode> nodeList = new ArrayList<>();
        for (StoredObject n : WorkloadObjects.list(registry, nodes, null)) {
            nodeList.add(n.object());
            byNode.put(n.name(), new ArrayList<>());
        }
        for (StoredObject p : WorkloadObjects.list(registry, pods, key.namespace())) {
            JsonNode pod = p.object();
            if (!WorkloadObjects.controlledBy(pod, uid) || !WorkloadObjects.active(pod)) {
                continue;
            }
            String node = targetNode(pod);
            byNode.computeIfAbsent(node, n -> new ArrayList<>()).add(pod);
        }
        JsonNode probe = podFor(ds, hash, "");
        int desired = 0;
        int current = 0;
        int misscheduled = 0;
        int ready = 0;
        int available = 0;
        int updated = 0;
        List<JsonNode> old = new ArrayList<>();
        int unavailableNodes = 0;
        for (JsonNode node : nodeList) {
            String name = node.path("metadata").path("name").asString();
            List<JsonNode> onNode = byNode.getOrDefault(name, List.of());
            boolean shouldRun =
                    PodScheduler.matchesNodeSelector(probe, node) && PodScheduler.toleratesTaints(probe, node);
            if (!shouldRun) {
                if (!onNode.isEmpty()) {
                    misscheduled++;
                    onNode.forEach(p -> deletePod(key, p));
                }
                continue;
            }
            desired++;
            if (onNode.isEmpty()) {
                String created = registry.create(
                                pods, key.namespace(), podFor(ds, hash, name), WorkloadObjects.context(MANAGER))
                        .object()
                        .name();
                events.normal(
                        ds,
                        "apps/v1",
                        "DaemonSet",
                        "daemonset-controller",
                        "SuccessfulCreate",
                        "Created pod: " + created);
                unavailableNodes++;
                continue;
            }
            current++;
            List<JsonNode> sorted = new ArrayList<>(onNode);
            sorted.sort(Comparator.comparing(
                    p -> p.path("metadata").path("creationTimestamp").asString("")));
            for (JsonNode extra : sorted.subList(1, sorted.size())) {
                deletePod(key, extra);
            }
            JsonNode pod = sorted.getFirst();
            boolean podAvailable = WorkloadObjects.available(pod, minReady, now);
            if (WorkloadObjects.ready(pod)) {
                ready++;
            }
            if (podAvailable) {
                available++;
            } else {
                unavailableNodes++;
                Duration left = WorkloadObjects.untilAvailable(pod, minReady, now);
                if (left.isPositive()) {
                    worker.queue().addAfter(key, left.plusMillis(10));
                }
            }
            if (WorkloadObjects.labels(pod).getOrDefault(HASH_LABEL, "").equals(hash)) {
                updated++;
            } else {
                old.add(pod);
            }
        }
        JsonNode strategy = ds.path("spec").path("updateStrategy");
        if (strategy.path("type").asString("RollingUpdate").equals("RollingUpdate") && !old.isEmpty()) {
            JsonNode limit = strategy.path("rollingUpdate").path("maxUnavailable");
            int maxUnavailable = limit.isMissingNode() ? 1 : RolloutMath.scaled(limit, desired, true);
            old.sort(Comparator.comparingInt(p -> WorkloadObjects.ready(p) ? 1 : 0));
            int budget = maxUnavailable - unavailableNodes;
            for (JsonNode pod : old) {
                boolean alreadyUnavailable = !WorkloadObjects.available(pod, minReady, now);
                if (alreadyUnavailable || budget > 0) {
                    deletePod(key, pod);
                    if (!alreadyUnavailable) {
                        budget--;
                    }
                }
            }
        }
        ObjectNode status = ds.path("status").isObject()
                ? WorkloadObjects.copy(ds.path("status"))
                : KubeJson.mapper().createObjectNode();
        status.put("currentNumberScheduled", current);
        status.put("numberMisscheduled", misscheduled);
        status.put("desiredNumberScheduled", desired);
        status.put("numberReady", ready);
        status.put("observedGeneration", ds.path("metadata").path("generation").asLong(1));
        Set<String> inUse = new HashSet<>();
        inUse.add(revision.name());
        byNode.values()
                .forEach(list -> list.forEach(p ->
                        inUse.add(key.name() + "-" + WorkloadObjects.labels(p).getOrDefault(HASH_LABEL, ""))));
        revisions.prune(ds, WorkloadObjects.intField(ds.path("spec"), "revisionHistoryLimit", 10), inUse);
        ReplicaSetController.putOrRemove(status, "updatedNumberScheduled", updated);
        ReplicaSetController.putOrRemove(status, "numberAvailable", available);
        ReplicaSetController.putOrRemove(status, "numberUnavailable", Math.max(0, desired - available));
        if (!status.equals(ds.path("status"))) {
            ObjectNode next = WorkloadObjects.copy(ds);
            next.set("status", status);
            registry.update(daemonSets, key.namespace(), key.name(), "status", next, WorkloadObjects.context(MANAGER));
        }
    }

    /** The Node a DaemonSet Pod is bound to, else the one its node affinity names. */
    private static String targetNode(JsonNode pod) {
        String bound = pod.path("spec").path("nodeName").asString("");
        if (!bound.isEmpty()) {
            return bound;
        }
        for (JsonNode term : pod.path("spec")
                .path("affinity")
                .path("nodeAffinity")
                .path("requiredDuringSchedulingIgnoredDuringExecution")
                .path("nodeSelectorTerms")) {
            for (JsonNode f : term.path("matchFields")) {
                if (f.path("key").asString("").equals("metadata.name")) {
                    return f.path("values").path(0).asString("");
                }
            }
        }
        return "";
    }

    private void deletePod(Key key, JsonNode pod) {
        WorkloadObjects.deleteQuietly(registry, pods, pod, null, MANAGER);
    }

    /** The DaemonSet's Pod for {@code node} (its template, labels, tolerations, and the affinity to the Node). */
    private static ObjectNode podFor(JsonNode ds, String hash, String node) {
        JsonNode template = ds.path("spec").path("template");
        ObjectNode pod = KubeJson.mapper().createObjectNode();
        pod.put("apiVersion", "v1").put("kind", "Pod");
        ObjectNode meta = pod.putObject("metadata");
        meta.put("generateName", ds.path("metadata").path("name").asString() + "-");
        ObjectNode labels = template.path("metadata").path("labels").isObject()
                ? WorkloadObjects.copy(template.path("metadata").path("labels"))
                : meta.objectNode();
        labels.put(HASH_LABEL, hash);
        labels.put(
                "pod-template-generation",
                Long.toString(ds.path("metadata").path("generation").asLong(1)));
        meta.set("labels", labels);
        if (template.path("metadata").path("annotations").isObject()) {
            meta.set(
                    "annotations", template.path("metadata").path("annotations").deepCopy());
        }
        meta.putArray("ownerReferences").add(WorkloadObjects.controllerReference("apps/v1", "DaemonSet", ds));
        ObjectNode spec = WorkloadObjects.copy(template.path("spec"));
        ArrayNode tolerations = spec.get("tolerations") instanceof ArrayNode a ? a : spec.putArray("tolerations");
        for (String[] t : TOLERATIONS) {
            boolean present = false;
            for (JsonNode have : tolerations) {
                present |= have.path("key").asString("").equals(t[0])
                        && have.path("effect").asString("").equals(t[1]);
            }
            if (!present) {
                tolerations
                        .addObject()
                        .put("key", t[0])
                        .put("operator", "Exists")
                        .put("effect", t[1]);
            }
        }
        if (!node.isEmpty()) {
            ObjectNode affinity = spec.get("affinity") instanceof ObjectNode a ? a : spec.putObject("affinity");
            ObjectNode nodeAffinity = affinity.putObject("nodeAffinity");
            nodeAffinity
                    .putObject("requiredDuringSchedulingIgnoredDuringExecution")
                    .putArray("nodeSelectorTerms")
                    .addObject()
                    .putArray("matchFields")
                    .addObject()
                    .put("key", "metadata.name")
                    .put("operator", "In")
                    .putArray("values")
                    .add(node);
        }
        pod.set("spec", spec);
        return pod;
    }

    /** Stops the worker and waits for it. */
    @Override
    public void close() {
        worker.close();
    }
}
