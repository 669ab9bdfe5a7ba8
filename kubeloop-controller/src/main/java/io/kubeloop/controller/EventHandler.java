package io.kubeloop.controller;

import io.kubeloop.api.GroupKind;
import io.kubeloop.api.ObjectAccess;
import io.kubeloop.api.ResourceScope;
import io.kubeloop.workqueue.RateLimitingQueue;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.function.Function;

/**
 * Turns an informer's {@link Event}s into {@link Request}s on a controller's queue
 * (controller-runtime's {@code handler.EventHandler}). The built-in ones cover nearly every
 * controller: {@link #forObject()} for the kind the controller reconciles, {@link #forOwner} for
 * the kinds it creates, {@link #fromMapFunction} for anything else.
 *
 * <p>Objects may be of any type {@link ObjectAccess} reads: {@link io.kubeloop.api.DynamicObject},
 * records implementing {@link io.kubeloop.api.KubernetesObject}, fabric8 model classes.
 *
 * <p><b>Thread safety:</b> called sequentially per watch, on that watch's handler thread (one per
 * informer registration); different watches call at the same time. The built-in handlers are
 * stateless.
 *
 * @param <T> the object type
 */
@FunctionalInterface
public interface EventHandler<T> {

    /**
     * Adds the requests {@code event} concerns to {@code queue}.
     *
     * @param event what happened
     * @param queue the controller's queue
     */
    void handle(Event<T> event, RateLimitingQueue<Request> queue);

    /**
     * Enqueues the object's own key (controller-runtime's {@code EnqueueRequestForObject}); for an
     * update, the new object's.
     *
     * @param <T> the object type
     * @return the handler
     */
    static <T> EventHandler<T> forObject() {
        return (event, queue) -> queue.add(new Request(ObjectAccess.key(
                switch (event) {
                    case Event.Create<T> c -> c.object();
                    case Event.Update<T> u -> u.newObject();
                    case Event.Delete<T> d -> d.object();
                    case Event.Generic<T> g -> g.object();
                })));
    }

    /**
     * Enqueues the owner of the object: the owner reference of kind {@code ownerKind} marked
     * {@code controller: true} (controller-runtime's {@code EnqueueRequestForOwner} with
     * {@code OnlyControllerOwner}). An update enqueues the owners of the old and of the new object,
     * once each.
     *
     * @param ownerKind the owner's group and kind, as the reconciled type's
     * @param ownerScope the owner kind's scope: {@link ResourceScope#NAMESPACED} (the request then has
     *     the object's namespace) or {@link ResourceScope#CLUSTER} (no namespace)
     * @param <T> the object type
     * @return the handler
     */
    static <T> EventHandler<T> forOwner(GroupKind ownerKind, ResourceScope ownerScope) {
        return new OwnerEventHandler<>(ownerKind, ownerScope, OwnerEventHandler.Owners.CONTROLLER);
    }

    /**
     * Like {@link #forOwner(GroupKind, ResourceScope)}, but enqueues every owner of kind
     * {@code ownerKind}, controller or not (controller-runtime's {@code MatchEveryOwner}).
     *
     * @param ownerKind the owner's group and kind
     * @param ownerScope the owner kind's scope
     * @param <T> the object type
     * @return the handler
     */
    static <T> EventHandler<T> forEveryOwner(GroupKind ownerKind, ResourceScope ownerScope) {
        return new OwnerEventHandler<>(ownerKind, ownerScope, OwnerEventHandler.Owners.EVERY);
    }

    /**
     * Enqueues whatever {@code map} returns for the object (controller-runtime's
     * {@code EnqueueRequestsFromMapFunc}); an update maps the old and the new object and adds each
     * request once.
     *
     * @param map from an object to the requests it concerns; must not return null
     * @param <T> the object type
     * @return the handler
     */
    static <T> EventHandler<T> fromMapFunction(Function<? super T, ? extends Collection<Request>> map) {
        Objects.requireNonNull(map, "map");
        return (event, queue) -> {
            switch (event) {
                case Event.Create<T> c -> map.apply(c.object()).forEach(queue::add);
                case Event.Update<T> u -> {
                    var requests = new LinkedHashSet<Request>(map.apply(u.oldObject()));
                    requests.addAll(map.apply(u.newObject()));
                    requests.forEach(queue::add);
                }
                case Event.Delete<T> d -> map.apply(d.object()).forEach(queue::add);
                case Event.Generic<T> g -> map.apply(g.object()).forEach(queue::add);
            }
        };
    }
}
