package io.kubeloop.apiserver.internal.controllers;

import io.kubeloop.api.errors.ConflictException;
import io.kubeloop.api.errors.NotFoundException;
import io.kubeloop.apiserver.internal.registry.ObjectRegistry;
import io.kubeloop.apiserver.internal.registry.ResourceDefinition;
import io.kubeloop.apiserver.internal.registry.WriteContext;
import io.kubeloop.apiserver.internal.storage.Metadata;
import io.kubeloop.apiserver.internal.storage.StoredObject;
import io.kubeloop.cache.ResourceEventHandler;
import io.kubeloop.cache.SharedIndexInformer;
import io.kubeloop.client.FieldValidation;
import io.kubeloop.time.Ticker;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.Objects;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * The light workload simulation ({@code SimulatedCluster.Workloads.STATUS_ONLY}), for load tests of operators
 * where running thousands of Pods would dominate: stands in for the deployment controller, the scheduler and
 * the kubelets so that a Deployment becomes available — without creating ReplicaSets or Pods. A short while ({@link #ROLLOUT}) after a Deployment is created or its
 * spec changes, its status reports every replica of the spec as updated, ready and available, its
 * {@code observedGeneration} catches up, and it gets the conditions {@code Available} and
 * {@code Progressing} (reason {@code NewReplicaSetAvailable}).
 *
 * <p>Driven by the Deployment metadata informer: each added or updated Deployment is put on the
 * delaying queue of a {@link QueueWorker}, whose one thread reads it from storage and writes the status subresource when it
 * differs from the simulated one (so its own write ends the loop).
 *
 * <p><b>Thread safety.</b> Thread-safe; {@link #close()} stops the worker and waits for it.
 */
final class DeploymentStatusSimulator implements AutoCloseable {

    /** How long a rollout takes. */
    static final Duration ROLLOUT = Duration.ofMillis(300);

    /** A Deployment to look at. */
    private record Key(String namespace, String name) {}

    private final ObjectRegistry registry;
    private final Ticker clock;
    private final QueueWorker<Key> worker;
    private volatile ResourceDefinition deployments;

    DeploymentStatusSimulator(ObjectRegistry registry, Ticker clock, MetadataInformers informers) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.worker = new QueueWorker<>("deployment_status_simulator", clock, this::simulate);
        informers.subscribe(this::monitor);
    }

    private void monitor(ResourceDefinition def, SharedIndexInformer<ObjectMetadata> informer) {
        if (!def.group().equals("apps") || !def.plural().equals("deployments")) {
            return;
        }
        deployments = def;
        informer.addEventHandler(new ResourceEventHandler<>() {
            @Override
            public void onAdd(ObjectMetadata d, boolean isInInitialList) {
                worker.queue()
                        .addAfter(new Key(d.metadata().namespace(), d.metadata().name()), ROLLOUT);
            }

            @Override
            public void onUpdate(ObjectMetadata oldD, ObjectMetadata newD) {
                worker.queue()
                        .addAfter(
                                new Key(
                                        newD.metadata().namespace(),
                                        newD.metadata().name()),
                                ROLLOUT);
            }
        });
    }

    void start() {
        worker.start();
    }

    private void simulate(Key key) {
        try {
            rollOut(key);
        } catch (NotFoundException | ConflictException e) {
            // deleted meanwhile, or changed: the change brings it back
        }
    }

    private void rollOut(Key key) {
        ResourceDefinition def = deployments;
        Optional<StoredObject> stored =
                registry.store().get(def.storageId(), Metadata.key(key.namespace(), key.name()));
        if (stored.isEmpty()) {
            return;
        }
        JsonNode d = stored.get().object();
        if (d.path("metadata").has("deletionTimestamp")) {
            return;
        }
        long generation = d.path("metadata").path("generation").asLong(1);
        int replicas = d.path("spec").path("replicas").asInt(1);
        JsonNode status = d.path("status");
        if (status.path("observedGeneration").asLong(-1) == generation
                && status.path("availableReplicas").asInt(-1) == replicas
                && status.path("replicas").asInt(-1) == replicas) {
            return; // already as simulated (this is our own write coming back)
        }
        String now = clock.instant().truncatedTo(ChronoUnit.SECONDS).toString();
        String patch = """
                {"status":{"observedGeneration":%d,"replicas":%d,"updatedReplicas":%d,"readyReplicas":%d,
                 "availableReplicas":%d,"unavailableReplicas":null,
                 "conditions":[
                  {"type":"Available","status":"True","reason":"MinimumReplicasAvailable",
                   "message":"Deployment has minimum availability.","lastUpdateTime":"%s","lastTransitionTime":"%s"},
                  {"type":"Progressing","status":"True","reason":"NewReplicaSetAvailable",
                   "message":"kubeloop's status-only simulation rolled out %d replica(s).","lastUpdateTime":"%s",
                   "lastTransitionTime":"%s"}]}}
                """.formatted(generation, replicas, replicas, replicas, replicas, now, now, replicas, now, now);
        registry.patch(
                def,
                key.namespace(),
                key.name(),
                "status",
                "application/merge-patch+json",
                patch.getBytes(StandardCharsets.UTF_8),
                new WriteContext(null, "deployment-controller/kubeloop", false, FieldValidation.IGNORE, false));
    }

    /** Stops the worker (pending rollouts are dropped) and waits for it. */
    @Override
    public void close() {
        worker.close();
    }
}
