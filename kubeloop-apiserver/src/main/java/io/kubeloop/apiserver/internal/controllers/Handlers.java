package io.kubeloop.apiserver.internal.controllers;

import io.kubeloop.api.OwnerReference;
import io.kubeloop.cache.ResourceEventHandler;
import java.util.Optional;
import java.util.function.Function;

/**
 * The event handlers the workload controllers share: each event of an informer becomes, through a key
 * function, a key on a controller's queue.
 *
 * <p>Stateless and thread-safe.
 */
final class Handlers {

    private Handlers() {}

    /** A handler that queues {@code keyOf(object)}, when present, on every add, update and delete. */
    static <K> ResourceEventHandler<ObjectMetadata> queueing(
            QueueWorker<K> worker, Function<ObjectMetadata, Optional<K>> keyOf) {
        return new ResourceEventHandler<>() {
            @Override
            public void onAdd(ObjectMetadata o, boolean isInInitialList) {
                keyOf.apply(o).ifPresent(worker.queue()::add);
            }

            @Override
            public void onUpdate(ObjectMetadata oldO, ObjectMetadata newO) {
                keyOf.apply(newO).ifPresent(worker.queue()::add);
            }

            @Override
            public void onDelete(ObjectMetadata o, boolean finalStateUnknown) {
                keyOf.apply(o).ifPresent(worker.queue()::add);
            }
        };
    }

    /** The name of the object's controller of {@code apiVersion}/{@code kind}, if that is what controls it. */
    static Optional<String> controller(ObjectMetadata object, String apiVersion, String kind) {
        return object.metadata().ownerReferencesOrEmpty().stream()
                .filter(r -> Boolean.TRUE.equals(r.controller())
                        && r.kind().equals(kind)
                        && r.apiVersion().equals(apiVersion))
                .findFirst()
                .map(OwnerReference::name);
    }
}
