package io.kubeloop.apiserver.internal.controllers;

import io.kubeloop.api.errors.ConflictException;
import io.kubeloop.api.errors.NotFoundException;
import io.kubeloop.apiserver.internal.registry.DeleteParams;
import io.kubeloop.apiserver.internal.registry.ObjectRegistry;
import io.kubeloop.apiserver.internal.registry.ResourceDefinition;
import io.kubeloop.apiserver.internal.registry.WriteContext;
import io.kubeloop.apiserver.internal.storage.Metadata;
import io.kubeloop.apiserver.internal.storage.StoredObject;
import io.kubeloop.cache.ResourceEventHandler;
import io.kubeloop.cache.SharedIndexInformer;
import io.kubeloop.client.FieldValidation;
import io.kubeloop.time.Ticker;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * Stands in for the kubelet at the end of a graceful Pod deletion: a Pod whose DELETE left it terminating with
 * {@code deletionGracePeriodSeconds > 0} (it is bound to a node) is deleted with grace period 0 and a uid
 * precondition once its {@code deletionTimestamp} has passed — what a kubelet does at the latest, when the
 * containers ignore SIGTERM until killed. An earlier DELETE with a shorter grace period (e.g. {@code 0} from
 * {@code kubectl delete --force --grace-period=0}) still ends it earlier. Pods with finalizers left then wait for
 * them, as on a real cluster.
 *
 * <p>Driven by the Pod metadata informer: each terminating Pod is put on a {@link QueueWorker}'s delaying queue for its
 * deletionTimestamp; one worker deletes what is due.
 *
 * <p><b>Thread safety.</b> Thread-safe; {@link #close()} stops the worker and waits for it.
 */
public final class PodTerminator implements AutoCloseable {

    /** A terminating Pod. */
    private record PodKey(String namespace, String name, String uid) {}

    private final ObjectRegistry registry;
    private final Ticker clock;
    private final QueueWorker<PodKey> worker;
    private volatile ResourceDefinition pods;

    PodTerminator(ObjectRegistry registry, Ticker clock, MetadataInformers informers) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.worker = new QueueWorker<>("pod_terminator", clock, this::terminate);
        informers.subscribe(this::monitor);
    }

    private void monitor(ResourceDefinition def, SharedIndexInformer<ObjectMetadata> informer) {
        if (!def.group().isEmpty() || !def.plural().equals("pods")) {
            return;
        }
        pods = def;
        informer.addEventHandler(new ResourceEventHandler<>() {
            @Override
            public void onAdd(ObjectMetadata pod, boolean isInInitialList) {
                schedule(pod);
            }

            @Override
            public void onUpdate(ObjectMetadata oldPod, ObjectMetadata newPod) {
                schedule(newPod);
            }
        });
    }

    private void schedule(ObjectMetadata pod) {
        Instant at = pod.metadata().deletionTimestamp();
        Long grace = pod.metadata().deletionGracePeriodSeconds();
        if (at != null && grace != null && grace > 0) {
            worker.queue()
                    .addAfter(
                            new PodKey(
                                    pod.metadata().namespace(), pod.metadata().name(), pod.uid()),
                            positive(Duration.between(clock.instant(), at)));
        }
    }

    private static Duration positive(Duration d) {
        return d.isNegative() ? Duration.ZERO : d;
    }

    void start() {
        worker.start();
    }

    private void terminate(PodKey key) {
        ResourceDefinition def = pods;
        Optional<StoredObject> pod = registry.store()
                .get(def.storageId(), Metadata.key(key.namespace(), key.name()))
                .filter(p -> Metadata.text(p.object(), "uid").equals(key.uid()));
        if (pod.isEmpty()) {
            return;
        }
        JsonNode meta = pod.get().object().path("metadata");
        if (!meta.has("deletionTimestamp")
                || meta.path("deletionGracePeriodSeconds").asLong(0) <= 0) {
            return;
        }
        Instant at = Instant.parse(meta.path("deletionTimestamp").asString());
        Duration left = Duration.between(clock.instant(), at);
        if (left.isPositive()) {
            worker.queue().addAfter(key, left);
            return;
        }
        try {
            registry.delete(
                    def,
                    key.namespace(),
                    key.name(),
                    new DeleteParams(null, null, key.uid(), null, 0L),
                    new WriteContext(null, "kubelet/kubeloop", false, FieldValidation.IGNORE, false));
        } catch (NotFoundException | ConflictException e) {
            // gone meanwhile, or the name belongs to a new pod
        }
    }

    /** Stops the worker (pending deadlines are dropped) and waits for it. */
    @Override
    public void close() {
        worker.close();
    }
}
