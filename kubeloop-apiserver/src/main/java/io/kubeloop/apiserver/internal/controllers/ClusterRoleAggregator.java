package io.kubeloop.apiserver.internal.controllers;

import io.kubeloop.api.errors.ConflictException;
import io.kubeloop.api.errors.NotFoundException;
import io.kubeloop.api.json.KubeJson;
import io.kubeloop.api.selector.LabelSelector;
import io.kubeloop.api.selector.LabelSelectorSpec;
import io.kubeloop.apiserver.internal.registry.ObjectRegistry;
import io.kubeloop.apiserver.internal.registry.ResourceDefinition;
import io.kubeloop.apiserver.internal.registry.WriteContext;
import io.kubeloop.apiserver.internal.storage.ListQuery;
import io.kubeloop.apiserver.internal.storage.StoredObject;
import io.kubeloop.cache.ResourceEventHandler;
import io.kubeloop.cache.SharedIndexInformer;
import io.kubeloop.client.FieldValidation;
import io.kubeloop.time.Ticker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Keeps aggregated ClusterRoles' rules, as kube-controller-manager's clusterrole-aggregation controller
 * does: a ClusterRole with an {@code aggregationRule} gets, as its {@code rules}, the rules of every other
 * ClusterRole whose labels match one of its {@code clusterRoleSelectors}, in the order of those roles'
 * names, each rule once. So a ClusterRole labelled {@code rbac.authorization.k8s.io/aggregate-to-view:
 * "true"} extends {@code view} (and, through the chain, {@code edit} and {@code admin}).
 *
 * <p>Any ClusterRole change puts one key on the queue; the worker recomputes every aggregated role from
 * storage and writes those whose rules differ (a conflict retries after a short delay).
 *
 * <p><b>Thread safety.</b> Thread-safe; {@link #close()} stops the worker and waits for it.
 */
final class ClusterRoleAggregator implements AutoCloseable {

    private static final String ALL = "all";

    private final ObjectRegistry registry;
    private final QueueWorker<String> worker;
    private volatile ResourceDefinition clusterRoles;

    ClusterRoleAggregator(ObjectRegistry registry, Ticker clock, MetadataInformers informers) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.worker =
                new QueueWorker<>("clusterrole_aggregation", Objects.requireNonNull(clock, "clock"), k -> aggregate());
        informers.subscribe(this::monitor);
    }

    private void monitor(ResourceDefinition def, SharedIndexInformer<ObjectMetadata> informer) {
        if (!def.group().equals("rbac.authorization.k8s.io") || !def.plural().equals("clusterroles")) {
            return;
        }
        clusterRoles = def;
        informer.addEventHandler(new ResourceEventHandler<>() {
            @Override
            public void onAdd(ObjectMetadata role, boolean isInInitialList) {
                worker.queue().add(ALL);
            }

            @Override
            public void onUpdate(ObjectMetadata oldRole, ObjectMetadata newRole) {
                worker.queue().add(ALL);
            }

            @Override
            public void onDelete(ObjectMetadata role, boolean finalStateUnknown) {
                worker.queue().add(ALL);
            }
        });
    }

    void start() {
        worker.start();
    }

    private void aggregate() {
        ResourceDefinition def = clusterRoles;
        List<StoredObject> roles = new ArrayList<>(
                registry.store().list(ListQuery.all(def.storageId(), null)).items());
        roles.sort(Comparator.comparing(StoredObject::name));
        for (StoredObject role : roles) {
            JsonNode selectors = role.object().path("aggregationRule").path("clusterRoleSelectors");
            if (!selectors.isArray()) {
                continue;
            }
            List<LabelSelector> match = new ArrayList<>();
            for (JsonNode s : selectors) {
                match.add(KubeJson.mapper()
                        .treeToValue(s, LabelSelectorSpec.class)
                        .toSelector());
            }
            Map<String, JsonNode> rules = new LinkedHashMap<>();
            for (StoredObject other : roles) {
                if (other.name().equals(role.name())) {
                    continue;
                }
                Map<String, String> labels = labels(other.object());
                if (match.stream().anyMatch(m -> m.matches(labels))) {
                    for (JsonNode rule : other.object().path("rules")) {
                        rules.putIfAbsent(KubeJson.mapper().writeValueAsString(rule), rule);
                    }
                }
            }
            ArrayNode wanted = KubeJson.mapper().createArrayNode();
            rules.values().forEach(wanted::add);
            if (!wanted.equals(role.object().path("rules"))) {
                write(def, role, wanted);
            }
        }
    }

    private void write(ResourceDefinition def, StoredObject role, ArrayNode rules) {
        ObjectNode body = role.object().deepCopy();
        body.set("rules", rules);
        try {
            registry.update(
                    def,
                    "",
                    role.name(),
                    "",
                    body,
                    new WriteContext(
                            "clusterrole-aggregation-controller",
                            "kube-controller-manager/kubeloop",
                            false,
                            FieldValidation.IGNORE,
                            false));
        } catch (ConflictException e) {
            worker.queue().addAfter(ALL, Duration.ofMillis(100));
        } catch (NotFoundException e) {
            // deleted meanwhile: nothing to keep
        }
    }

    private static Map<String, String> labels(JsonNode object) {
        Map<String, String> out = new LinkedHashMap<>();
        object.path("metadata")
                .path("labels")
                .properties()
                .forEach(e -> out.put(e.getKey(), e.getValue().asString("")));
        return out;
    }

    @Override
    public void close() {
        worker.close();
    }
}
