package io.kubeloop.apiserver.internal.controllers;

import io.kubeloop.api.json.KubeJson;
import io.kubeloop.apiserver.internal.builtin.DisruptionBudgets;
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
import tools.jackson.databind.node.ObjectNode;

/**
 * The disruption controller, as kube-controller-manager's: keeps each PodDisruptionBudget's status — the
 * {@linkplain DisruptionBudgets numbers} {@code expectedPods}, {@code currentHealthy}, {@code desiredHealthy},
 * {@code disruptionsAllowed}, {@code observedGeneration}, {@code disruptedPods: {}} and the condition
 * {@code DisruptionAllowed} ({@code SufficientPods} or {@code InsufficientPods}) — as the Pods it selects come,
 * go and become ready, so {@code kubectl get pdb} shows its allowed disruptions.
 *
 * <p>Driven by the budget and Pod metadata informers (a Pod's change queues every budget of its namespace);
 * one worker syncs one budget at a time.
 *
 * <p><b>Thread safety.</b> Thread-safe; {@link #close()} stops the worker and waits for it.
 */
final class DisruptionController implements AutoCloseable {

    /** A budget to sync. */
    record Key(String namespace, String name) {}

    private final ObjectRegistry registry;
    private final Ticker clock;
    private final QueueWorker<Key> worker;
    private volatile ResourceDefinition budgets;
    private volatile ResourceDefinition pods;

    DisruptionController(ObjectRegistry registry, Ticker clock, MetadataInformers informers) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.worker = new QueueWorker<>("disruption", clock, this::sync);
        informers.subscribe(this::monitor);
    }

    private void monitor(ResourceDefinition def, SharedIndexInformer<ObjectMetadata> informer) {
        if (def.group().equals("policy") && def.plural().equals("poddisruptionbudgets")) {
            budgets = def;
            informer.addEventHandler(Handlers.queueing(
                    worker,
                    b -> Optional.of(
                            new Key(b.metadata().namespace(), b.metadata().name()))));
        } else if (def.group().isEmpty() && def.plural().equals("pods")) {
            pods = def;
            informer.addEventHandler(new ResourceEventHandler<>() {
                @Override
                public void onAdd(ObjectMetadata pod, boolean isInInitialList) {
                    budgetsOf(pod);
                }

                @Override
                public void onUpdate(ObjectMetadata oldPod, ObjectMetadata newPod) {
                    budgetsOf(newPod);
                }

                @Override
                public void onDelete(ObjectMetadata pod, boolean finalStateUnknown) {
                    budgetsOf(pod);
                }
            });
        }
    }

    private void budgetsOf(ObjectMetadata pod) {
        ResourceDefinition def = budgets;
        if (def != null) {
            for (StoredObject b :
                    WorkloadObjects.list(registry, def, pod.metadata().namespace())) {
                worker.queue().add(new Key(b.namespace(), b.name()));
            }
        }
    }

    void start() {
        worker.start();
    }

    private void sync(Key key) {
        if (budgets == null || pods == null) {
            return;
        }
        worker.retrying(key, () -> {
            Optional<StoredObject> stored = WorkloadObjects.get(registry, budgets, key.namespace(), key.name());
            if (stored.isEmpty() || WorkloadObjects.deleting(stored.get().object())) {
                return;
            }
            JsonNode budget = stored.get().object();
            List<JsonNode> all = new ArrayList<>();
            WorkloadObjects.list(registry, pods, key.namespace()).forEach(p -> all.add(p.object()));
            DisruptionBudgets.Budget numbers = DisruptionBudgets.evaluate(budget, all);
            ObjectNode status = budget.path("status").isObject()
                    ? WorkloadObjects.copy(budget.path("status"))
                    : KubeJson.mapper().createObjectNode();
            status.put(
                    "observedGeneration",
                    budget.path("metadata").path("generation").asLong(1));
            status.putObject("disruptedPods");
            status.put("disruptionsAllowed", numbers.allowed());
            status.put("currentHealthy", numbers.healthy());
            status.put("desiredHealthy", numbers.desired());
            status.put("expectedPods", numbers.expected());
            boolean allowed = numbers.allowed() > 0;
            PodConditions.set(
                    status,
                    "DisruptionAllowed",
                    allowed ? "True" : "False",
                    allowed ? "SufficientPods" : "InsufficientPods",
                    "",
                    clock.instant());
            for (JsonNode c : status.path("conditions")) {
                ObjectNode condition = (ObjectNode) c;
                condition.remove("lastProbeTime");
                condition.put(
                        "observedGeneration",
                        budget.path("metadata").path("generation").asLong(1));
            }
            if (!status.equals(budget.path("status"))) {
                ObjectNode next = WorkloadObjects.copy(budget);
                next.set("status", status);
                registry.update(
                        budgets,
                        key.namespace(),
                        key.name(),
                        "status",
                        next,
                        WorkloadObjects.context("kube-controller-manager"));
            }
        });
    }

    /** Stops the worker and waits for it. */
    @Override
    public void close() {
        worker.close();
    }
}
