package io.kubeloop.apiserver.internal.controllers;

import io.kubeloop.api.errors.ConflictException;
import io.kubeloop.api.errors.NotFoundException;
import io.kubeloop.apiserver.internal.registry.ObjectRegistry;
import io.kubeloop.apiserver.internal.registry.ResourceDefinition;
import io.kubeloop.apiserver.internal.storage.StoredObject;
import io.kubeloop.cache.ResourceEventHandler;
import io.kubeloop.cache.SharedIndexInformer;
import io.kubeloop.time.Ticker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The scheduler: binds each Pod that has no {@code spec.nodeName} and asks for the {@code default-scheduler}
 * to a Node that is {@code Ready}, not cordoned ({@code spec.unschedulable}), matches the Pod's
 * {@code nodeSelector} and whose {@code NoSchedule}/{@code NoExecute} taints the Pod tolerates — the one with
 * the fewest Pods of the same controller (so a workload spreads over the Nodes), then the fewest Pods, then by
 * name — and sets its {@code PodScheduled} condition. A Pod that fits nowhere gets
 * {@code PodScheduled=False} (reason {@code Unschedulable}, kube-scheduler's message) and is tried again when a
 * Node changes or a second later.
 *
 * <p>Driven by the Pod and Node metadata informers; one worker binds one Pod at a time.
 *
 * <p><b>Thread safety.</b> Thread-safe; {@link #close()} stops the worker and waits for it.
 */
final class PodScheduler implements AutoCloseable {

    private static final Duration RETRY = Duration.ofSeconds(1);

    /** A Pod to schedule. */
    private record PodKey(String namespace, String name) {}

    private final ObjectRegistry registry;
    private final ClusterEvents events;
    private final Ticker clock;
    private final QueueWorker<PodKey> worker;
    private volatile ResourceDefinition pods;
    private volatile ResourceDefinition nodes;

    PodScheduler(ObjectRegistry registry, Ticker clock, MetadataInformers informers, ClusterEvents events) {
        this.events = Objects.requireNonNull(events, "events");
        this.registry = Objects.requireNonNull(registry, "registry");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.worker = new QueueWorker<>("scheduler", clock, this::schedule);
        informers.subscribe(this::monitor);
    }

    private void monitor(ResourceDefinition def, SharedIndexInformer<ObjectMetadata> informer) {
        if (!def.group().isEmpty()) {
            return;
        }
        if (def.plural().equals("pods")) {
            pods = def;
            informer.addEventHandler(new ResourceEventHandler<>() {
                @Override
                public void onAdd(ObjectMetadata pod, boolean isInInitialList) {
                    enqueue(pod);
                }

                @Override
                public void onUpdate(ObjectMetadata oldPod, ObjectMetadata newPod) {}
            });
        } else if (def.plural().equals("nodes")) {
            nodes = def;
            informer.addEventHandler(new ResourceEventHandler<>() {
                @Override
                public void onAdd(ObjectMetadata node, boolean isInInitialList) {
                    retryPending();
                }

                @Override
                public void onUpdate(ObjectMetadata oldNode, ObjectMetadata newNode) {
                    retryPending();
                }
            });
        }
    }

    private void enqueue(ObjectMetadata pod) {
        if (!pod.beingDeleted()) {
            worker.queue()
                    .add(new PodKey(pod.metadata().namespace(), pod.metadata().name()));
        }
    }

    private void retryPending() {
        ResourceDefinition def = pods;
        if (def == null) {
            return;
        }
        for (StoredObject p : WorkloadObjects.list(registry, def, null)) {
            if (unbound(p.object())) {
                worker.queue().add(new PodKey(p.namespace(), p.name()));
            }
        }
    }

    private static boolean unbound(JsonNode pod) {
        return pod.path("spec").path("nodeName").asString("").isEmpty()
                && pod.path("spec")
                        .path("schedulerName")
                        .asString("default-scheduler")
                        .equals("default-scheduler")
                && WorkloadObjects.active(pod);
    }

    void start() {
        worker.start();
    }

    private void schedule(PodKey key) {
        ResourceDefinition def = pods;
        ResourceDefinition nodeDef = nodes;
        if (def == null || nodeDef == null) {
            return;
        }
        Optional<StoredObject> stored = WorkloadObjects.get(registry, def, key.namespace(), key.name());
        if (stored.isEmpty() || !unbound(stored.get().object())) {
            return;
        }
        JsonNode pod = stored.get().object();
        List<StoredObject> all = WorkloadObjects.list(registry, nodeDef, null);
        List<JsonNode> fit = new ArrayList<>();
        int unschedulable = 0;
        int notReady = 0;
        int selector = 0;
        int tainted = 0;
        for (StoredObject n : all) {
            JsonNode node = n.object();
            if (!WorkloadObjects.condition(node, "Ready")
                    .map(c -> c.path("status").asString("").equals("True"))
                    .orElse(false)) {
                notReady++;
            } else if (node.path("spec").path("unschedulable").asBoolean(false)) {
                unschedulable++;
            } else if (!matchesNodeSelector(pod, node)) {
                selector++;
            } else if (!toleratesTaints(pod, node)) {
                tainted++;
            } else {
                fit.add(node);
            }
        }
        try {
            if (fit.isEmpty()) {
                markUnschedulable(def, stored.get(), all.size(), notReady, unschedulable, selector, tainted);
                worker.queue().addAfter(key, RETRY);
                return;
            }
            // spread first the Pods of one controller (kube-scheduler's default topology spreading), then all
            String owner = WorkloadObjects.controllerRef(pod)
                    .map(r -> r.path("uid").asString(""))
                    .orElse("");
            Map<String, Integer> siblings = new HashMap<>();
            Map<String, Integer> load = new HashMap<>();
            for (StoredObject p : WorkloadObjects.list(registry, def, null)) {
                String node = p.object().path("spec").path("nodeName").asString("");
                if (!node.isEmpty() && WorkloadObjects.active(p.object())) {
                    load.merge(node, 1, Integer::sum);
                    if (!owner.isEmpty() && WorkloadObjects.controlledBy(p.object(), owner)) {
                        siblings.merge(node, 1, Integer::sum);
                    }
                }
            }
            JsonNode chosen = fit.stream()
                    .min(Comparator.<JsonNode>comparingInt(n -> siblings.getOrDefault(
                                    n.path("metadata").path("name").asString(), 0))
                            .thenComparingInt(n -> load.getOrDefault(
                                    n.path("metadata").path("name").asString(), 0))
                            .thenComparing(n -> n.path("metadata").path("name").asString()))
                    .orElseThrow();
            bind(def, stored.get(), chosen.path("metadata").path("name").asString());
        } catch (ConflictException e) {
            worker.queue().addAfter(key, Duration.ofMillis(50));
        } catch (NotFoundException e) {
            // deleted meanwhile
        }
    }

    private void bind(ResourceDefinition def, StoredObject pod, String node) {
        ObjectNode bound = pod.object().deepCopy();
        ((ObjectNode) bound.path("spec")).put("nodeName", node);
        StoredObject written = registry.update(
                        def, pod.namespace(), pod.name(), "", bound, WorkloadObjects.context("kube-scheduler"))
                .object();
        ObjectNode withStatus = written.object().deepCopy();
        ObjectNode status = withStatus.get("status") instanceof ObjectNode s ? s : withStatus.putObject("status");
        PodConditions.set(status, "PodScheduled", "True", null, null, clock.instant());
        registry.update(
                def, pod.namespace(), pod.name(), "status", withStatus, WorkloadObjects.context("kube-scheduler"));
        events.normal(
                written.object(),
                "v1",
                "Pod",
                "default-scheduler",
                "Scheduled",
                "Successfully assigned " + pod.namespace() + "/" + pod.name() + " to " + node);
    }

    private void markUnschedulable(
            ResourceDefinition def,
            StoredObject pod,
            int total,
            int notReady,
            int unschedulable,
            int selector,
            int tainted) {
        List<String> reasons = new ArrayList<>();
        if (notReady > 0) {
            reasons.add(notReady + " node(s) had untolerated taint {node.kubernetes.io/not-ready: }");
        }
        if (selector > 0) {
            reasons.add(selector + " node(s) didn't match Pod's node affinity/selector");
        }
        if (tainted > 0) {
            reasons.add(tainted + " node(s) had untolerated taint(s)");
        }
        if (unschedulable > 0) {
            reasons.add(unschedulable + " node(s) were unschedulable");
        }
        String message = total == 0
                ? "no nodes available to schedule pods"
                : "0/" + total + " nodes are available: " + String.join(", ", reasons) + ". preemption: 0/" + total
                        + " nodes are available: " + total + " Preemption is not helpful for scheduling.";
        ObjectNode withStatus = pod.object().deepCopy();
        ObjectNode status = withStatus.get("status") instanceof ObjectNode s ? s : withStatus.putObject("status");
        if (PodConditions.set(status, "PodScheduled", "False", "Unschedulable", message, clock.instant())) {
            events.warning(pod.object(), "v1", "Pod", "default-scheduler", "FailedScheduling", message);
            registry.update(
                    def, pod.namespace(), pod.name(), "status", withStatus, WorkloadObjects.context("kube-scheduler"));
        }
    }

    /**
     * True when {@code node} has every label of the Pod's {@code nodeSelector} and matches one term of its
     * required node affinity (label expressions {@code In}, {@code NotIn}, {@code Exists}, {@code DoesNotExist},
     * {@code Gt}, {@code Lt}; the field {@code metadata.name}, as DaemonSets use it).
     */
    static boolean matchesNodeSelector(JsonNode pod, JsonNode node) {
        JsonNode selector = pod.path("spec").path("nodeSelector");
        Map<String, String> labels = WorkloadObjects.labels(node);
        for (var e : selector.properties()) {
            if (!e.getValue().asString("").equals(labels.get(e.getKey()))) {
                return false;
            }
        }
        JsonNode terms = pod.path("spec")
                .path("affinity")
                .path("nodeAffinity")
                .path("requiredDuringSchedulingIgnoredDuringExecution")
                .path("nodeSelectorTerms");
        if (!terms.isArray() || terms.isEmpty()) {
            return true;
        }
        Map<String, String> fields =
                Map.of("metadata.name", node.path("metadata").path("name").asString(""));
        for (JsonNode term : terms) {
            if (allMatch(term.path("matchExpressions"), labels) && allMatch(term.path("matchFields"), fields)) {
                return true;
            }
        }
        return false;
    }

    private static boolean allMatch(JsonNode requirements, Map<String, String> values) {
        for (JsonNode r : requirements) {
            String value = values.get(r.path("key").asString(""));
            List<String> wanted = new ArrayList<>();
            r.path("values").forEach(v -> wanted.add(v.asString("")));
            boolean ok = switch (r.path("operator").asString("")) {
                case "In" -> value != null && wanted.contains(value);
                case "NotIn" -> value == null || !wanted.contains(value);
                case "Exists" -> value != null;
                case "DoesNotExist" -> value == null;
                case "Gt", "Lt" -> value != null && !wanted.isEmpty() && compare(value, wanted.getFirst(), r);
                default -> false;
            };
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    private static boolean compare(String value, String bound, JsonNode requirement) {
        try {
            long v = Long.parseLong(value);
            long b = Long.parseLong(bound);
            return requirement.path("operator").asString("").equals("Gt") ? v > b : v < b;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    static boolean toleratesTaints(JsonNode pod, JsonNode node) {
        for (JsonNode taint : node.path("spec").path("taints")) {
            String effect = taint.path("effect").asString("");
            if (!effect.equals("NoSchedule") && !effect.equals("NoExecute")) {
                continue;
            }
            boolean tolerated = false;
            for (JsonNode t : pod.path("spec").path("tolerations")) {
                if (tolerates(t, taint)) {
                    tolerated = true;
                    break;
                }
            }
            if (!tolerated) {
                return false;
            }
        }
        return true;
    }

    private static boolean tolerates(JsonNode toleration, JsonNode taint) {
        String effect = toleration.path("effect").asString("");
        if (!effect.isEmpty() && !effect.equals(taint.path("effect").asString(""))) {
            return false;
        }
        String key = toleration.path("key").asString("");
        String operator = toleration.path("operator").asString("Equal");
        if (key.isEmpty()) {
            return operator.equals("Exists");
        }
        if (!key.equals(taint.path("key").asString(""))) {
            return false;
        }
        return operator.equals("Exists")
                || toleration
                        .path("value")
                        .asString("")
                        .equals(taint.path("value").asString(""));
    }

    /** Stops the worker and waits for it. */
    @Override
    public void close() {
        worker.close();
    }
}
