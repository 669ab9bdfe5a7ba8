package io.kubeloop.apiserver.internal.controllers;

import io.kubeloop.api.errors.AlreadyExistsException;
import io.kubeloop.api.json.KubeJson;
import io.kubeloop.apiserver.internal.registry.ObjectRegistry;
import io.kubeloop.apiserver.internal.registry.ResourceDefinition;
import io.kubeloop.apiserver.internal.storage.StoredObject;
import io.kubeloop.cache.SharedIndexInformer;
import io.kubeloop.time.Ticker;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The StatefulSet controller, as kube-controller-manager's: Pods {@code <set>-0} … {@code <set>-(n-1)} with a
 * stable hostname (and {@code subdomain} from {@code serviceName}), each with its PersistentVolumeClaims from
 * {@code volumeClaimTemplates} ({@code <template>-<set>-<ordinal>}, kept when Pods go). With
 * {@code OrderedReady} (the default) one Pod at a time: ordinal {@code i} is created once every lower one runs
 * and is ready, and the highest goes first on scale-down; {@code Parallel} creates and deletes at once. A
 * {@code RollingUpdate} replaces Pods of an older revision from the highest ordinal down to the
 * {@code partition}, one at a time and only while all are ready; {@code OnDelete} waits for the user. Pods carry
 * {@code controller-revision-hash}, {@code statefulset.kubernetes.io/pod-name} and
 * {@code apps.kubernetes.io/pod-index}; templates are kept as {@link ControllerRevisions}. Status:
 * {@code replicas}, {@code readyReplicas}, {@code availableReplicas}, {@code currentReplicas},
 * {@code updatedReplicas}, {@code currentRevision}, {@code updateRevision}, {@code observedGeneration},
 * {@code collisionCount}.
 *
 * <p>Driven by the StatefulSet and Pod metadata informers; one worker syncs one StatefulSet at a time.
 *
 * <p><b>Thread safety.</b> Thread-safe; {@link #close()} stops the worker and waits for it.
 */
final class StatefulSetController implements AutoCloseable {

    private static final String MANAGER = "kube-controller-manager";

    /** A StatefulSet to sync. */
    record Key(String namespace, String name) {}

    private final ObjectRegistry registry;
    private final ClusterEvents events;
    private final Ticker clock;
    private final QueueWorker<Key> worker;
    private volatile ResourceDefinition statefulSets;
    private volatile ResourceDefinition pods;
    private volatile ResourceDefinition claims;
    private volatile ControllerRevisions revisions;

    StatefulSetController(ObjectRegistry registry, Ticker clock, MetadataInformers informers, ClusterEvents events) {
        this.events = Objects.requireNonNull(events, "events");
        this.registry = Objects.requireNonNull(registry, "registry");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.worker = new QueueWorker<>("statefulset", clock, this::sync);
        informers.subscribe(this::monitor);
    }

    private void monitor(ResourceDefinition def, SharedIndexInformer<ObjectMetadata> informer) {
        if (def.group().equals("apps") && def.plural().equals("statefulsets")) {
            statefulSets = def;
            informer.addEventHandler(Handlers.queueing(
                    worker,
                    s -> Optional.of(
                            new Key(s.metadata().namespace(), s.metadata().name()))));
        } else if (def.group().equals("apps") && def.plural().equals("controllerrevisions")) {
            revisions = new ControllerRevisions(registry, def);
        } else if (def.group().isEmpty() && def.plural().equals("persistentvolumeclaims")) {
            claims = def;
        } else if (def.group().isEmpty() && def.plural().equals("pods")) {
            pods = def;
            informer.addEventHandler(Handlers.queueing(
                    worker,
                    p -> Handlers.controller(p, "apps/v1", "StatefulSet")
                            .map(n -> new Key(p.metadata().namespace(), n))));
        }
    }

    void start() {
        worker.start();
    }

    private void sync(Key key) {
        if (statefulSets == null || pods == null || claims == null || revisions == null) {
            return;
        }
        worker.retrying(key, () -> {
            Optional<StoredObject> stored = WorkloadObjects.get(registry, statefulSets, key.namespace(), key.name());
            if (stored.isPresent() && !WorkloadObjects.deleting(stored.get().object())) {
                reconcile(key, stored.get().object());
            }
        });
    }

    private static boolean runningAndReady(JsonNode pod) {
        return pod.path("status").path("phase").asString("").equals("Running") && WorkloadObjects.ready(pod);
    }

    private static String revisionOf(JsonNode pod) {
        return WorkloadObjects.labels(pod).getOrDefault("controller-revision-hash", "");
    }

    private void reconcile(Key key, JsonNode sts) {
        Instant now = clock.instant();
        String uid = sts.path("metadata").path("uid").asString();
        String name = key.name();
        int replicas = WorkloadObjects.intField(sts.path("spec"), "replicas", 1);
        int minReady = WorkloadObjects.intField(sts.path("spec"), "minReadySeconds", 0);
        boolean parallel = sts.path("spec")
                .path("podManagementPolicy")
                .asString("OrderedReady")
                .equals("Parallel");
        ControllerRevisions.Current update = revisions.ensure(sts, "apps/v1", "StatefulSet");
        String currentRevision = sts.path("status").path("currentRevision").asString(update.name());

        Map<Integer, JsonNode> byOrdinal = new TreeMap<>();
        for (StoredObject p : WorkloadObjects.list(registry, pods, key.namespace())) {
            if (!WorkloadObjects.controlledBy(p.object(), uid)) {
                continue;
            }
            String podName = p.name();
            if (podName.startsWith(name + "-")) {
                try {
                    byOrdinal.put(Integer.parseInt(podName.substring(name.length() + 1)), p.object());
                } catch (NumberFormatException e) {
                    // not one of the set's ordinals
                }
            }
        }
        // replace finished Pods
        for (var e : Map.copyOf(byOrdinal).entrySet()) {
            String phase = e.getValue().path("status").path("phase").asString("");
            if ((phase.equals("Failed") || phase.equals("Succeeded")) && !WorkloadObjects.deleting(e.getValue())) {
                deletePod(key, e.getValue());
            }
        }
        boolean acted = false;
        // create missing ordinals
        for (int i = 0; i < replicas && !acted; i++) {
            JsonNode pod = byOrdinal.get(i);
            if (pod == null) {
                createPod(key, sts, i, update.name());
                acted = !parallel;
            } else if (!parallel && (WorkloadObjects.deleting(pod) || !runningAndReady(pod))) {
                acted = true; // OrderedReady: wait for this one
            }
        }
        // scale down, highest ordinal first
        for (int i :
                byOrdinal.keySet().stream().sorted(Comparator.reverseOrder()).toList()) {
            if (i < replicas || acted) {
                continue;
            }
            JsonNode pod = byOrdinal.get(i);
            if (!WorkloadObjects.deleting(pod)) {
                deletePod(key, pod);
            }
            acted = !parallel;
        }
        // rolling update, highest ordinal down to the partition
        JsonNode strategy = sts.path("spec").path("updateStrategy");
        if (!acted && strategy.path("type").asString("RollingUpdate").equals("RollingUpdate")) {
            int partition = WorkloadObjects.intField(strategy.path("rollingUpdate"), "partition", 0);
            boolean allReady = byOrdinal.entrySet().stream()
                    .filter(e -> e.getKey() < replicas)
                    .allMatch(e -> runningAndReady(e.getValue()) && !WorkloadObjects.deleting(e.getValue()));
            if (allReady) {
                for (int i = replicas - 1; i >= partition; i--) {
                    JsonNode pod = byOrdinal.get(i);
                    if (pod != null && !revisionOf(pod).equals(update.name())) {
                        deletePod(key, pod);
                        break;
                    }
                }
            }
        }
        int ready = 0;
        int available = 0;
        int current = 0;
        int updated = 0;
        int count = 0;
        Set<String> inUse = new HashSet<>();
        for (JsonNode pod : byOrdinal.values()) {
            if (WorkloadObjects.deleting(pod)) {
                continue;
            }
            count++;
            inUse.add(revisionOf(pod));
            if (WorkloadObjects.ready(pod)) {
                ready++;
            }
            if (WorkloadObjects.available(pod, minReady, now)) {
                available++;
            } else if (WorkloadObjects.ready(pod)) {
                worker.queue()
                        .addAfter(
                                key,
                                WorkloadObjects.untilAvailable(pod, minReady, now)
                                        .plusMillis(10));
            }
            if (revisionOf(pod).equals(currentRevision)) {
                current++;
            }
            if (revisionOf(pod).equals(update.name())) {
                updated++;
            }
        }
        if (updated == replicas && ready == replicas && count == replicas) {
            currentRevision = update.name();
            current = updated;
        }
        inUse.add(currentRevision);
        inUse.add(update.name());
        revisions.prune(sts, WorkloadObjects.intField(sts.path("spec"), "revisionHistoryLimit", 10), inUse);

        ObjectNode status = sts.path("status").isObject()
                ? WorkloadObjects.copy(sts.path("status"))
                : KubeJson.mapper().createObjectNode();
        status.put("observedGeneration", sts.path("metadata").path("generation").asLong(1));
        status.put("replicas", count);
        ReplicaSetController.putOrRemove(status, "readyReplicas", ready);
        ReplicaSetController.putOrRemove(status, "currentReplicas", current);
        ReplicaSetController.putOrRemove(status, "updatedReplicas", updated);
        status.put("currentRevision", currentRevision);
        status.put("updateRevision", update.name());
        status.put("collisionCount", WorkloadObjects.intField(sts.path("status"), "collisionCount", 0));
        status.put("availableReplicas", available);
        if (!status.equals(sts.path("status"))) {
            ObjectNode next = WorkloadObjects.copy(sts);
            next.set("status", status);
            registry.update(
                    statefulSets, key.namespace(), key.name(), "status", next, WorkloadObjects.context(MANAGER));
        }
    }

    private void createPod(Key key, JsonNode sts, int ordinal, String revision) {
        String name = key.name() + "-" + ordinal;
        JsonNode template = sts.path("spec").path("template");
        ObjectNode spec = WorkloadObjects.copy(template.path("spec"));
        ArrayNode volumes = spec.get("volumes") instanceof ArrayNode a ? a : spec.putArray("volumes");
        for (JsonNode claimTemplate : sts.path("spec").path("volumeClaimTemplates")) {
            String volume = claimTemplate.path("metadata").path("name").asString();
            String claimName = volume + "-" + name;
            ensureClaim(key, sts, claimTemplate, claimName);
            for (int i = volumes.size() - 1; i >= 0; i--) {
                if (volumes.get(i).path("name").asString("").equals(volume)) {
                    volumes.remove(i);
                }
            }
            volumes.addObject()
                    .put("name", volume)
                    .putObject("persistentVolumeClaim")
                    .put("claimName", claimName);
        }
        if (volumes.isEmpty()) {
            spec.remove("volumes");
        }
        spec.put("hostname", name);
        if (!sts.path("spec").path("serviceName").asString("").isEmpty()) {
            spec.put("subdomain", sts.path("spec").path("serviceName").asString());
        }
        ObjectNode pod = KubeJson.mapper().createObjectNode();
        pod.put("apiVersion", "v1").put("kind", "Pod");
        ObjectNode meta = pod.putObject("metadata");
        meta.put("name", name);
        ObjectNode labels = template.path("metadata").path("labels").isObject()
                ? WorkloadObjects.copy(template.path("metadata").path("labels"))
                : meta.objectNode();
        labels.put("controller-revision-hash", revision);
        labels.put("statefulset.kubernetes.io/pod-name", name);
        labels.put("apps.kubernetes.io/pod-index", Integer.toString(ordinal));
        meta.set("labels", labels);
        if (template.path("metadata").path("annotations").isObject()) {
            meta.set(
                    "annotations", template.path("metadata").path("annotations").deepCopy());
        }
        meta.putArray("ownerReferences").add(WorkloadObjects.controllerReference("apps/v1", "StatefulSet", sts));
        pod.set("spec", spec);
        try {
            registry.create(pods, key.namespace(), pod, WorkloadObjects.context(MANAGER));
            events.normal(
                    sts,
                    "apps/v1",
                    "StatefulSet",
                    "statefulset-controller",
                    "SuccessfulCreate",
                    "create Pod " + name + " in StatefulSet " + key.name() + " successful");
        } catch (AlreadyExistsException e) {
            // a Pod of that name is still going away: the next sync creates it
            worker.queue().addAfter(key, Duration.ofMillis(100));
        }
    }

    private void ensureClaim(Key key, JsonNode sts, JsonNode claimTemplate, String claimName) {
        if (WorkloadObjects.get(registry, claims, key.namespace(), claimName).isPresent()) {
            return;
        }
        ObjectNode claim = KubeJson.mapper().createObjectNode();
        claim.put("apiVersion", "v1").put("kind", "PersistentVolumeClaim");
        ObjectNode meta = claim.putObject("metadata");
        meta.put("name", claimName);
        ObjectNode labels = claimTemplate.path("metadata").path("labels").isObject()
                ? WorkloadObjects.copy(claimTemplate.path("metadata").path("labels"))
                : meta.objectNode();
        sts.path("spec")
                .path("selector")
                .path("matchLabels")
                .properties()
                .forEach(e -> labels.set(e.getKey(), e.getValue()));
        meta.set("labels", labels);
        if (claimTemplate.path("metadata").path("annotations").isObject()) {
            meta.set(
                    "annotations",
                    claimTemplate.path("metadata").path("annotations").deepCopy());
        }
        claim.set("spec", claimTemplate.path("spec").deepCopy());
        try {
            registry.create(claims, key.namespace(), claim, WorkloadObjects.context(MANAGER));
            events.normal(
                    sts,
                    "apps/v1",
                    "StatefulSet",
                    "statefulset-controller",
                    "SuccessfulCreate",
                    "create Claim " + claimName + " in StatefulSet " + key.name() + " success");
        } catch (AlreadyExistsException e) {
            // made meanwhile
        }
    }

    private void deletePod(Key key, JsonNode pod) {
        WorkloadObjects.deleteQuietly(registry, pods, pod, null, MANAGER);
    }

    /** Stops the worker and waits for it. */
    @Override
    public void close() {
        worker.close();
    }
}
