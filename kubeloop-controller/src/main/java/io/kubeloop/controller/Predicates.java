package io.kubeloop.controller;

import io.kubeloop.api.ObjectAccess;
import io.kubeloop.api.ObjectMeta;
import io.kubeloop.api.selector.LabelSelector;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Event filters of a watch (controller-runtime's {@code predicate} package): an event reaches the
 * watch's {@link EventHandler} only if the predicate accepts it. Combine them with
 * {@link Predicate#and}, {@link Predicate#or} and {@link Predicate#negate}.
 *
 * <p>The "changed" predicates filter updates only and let creates, deletes and generic events
 * through, as controller-runtime's do; {@link #labelSelector} filters every event.
 *
 * <p>All predicates returned here are stateless and thread-safe.
 */
public final class Predicates {

    private Predicates() {}

    /**
     * Passes updates whose resourceVersion changed: drops the resyncs and relists that re-deliver
     * an unchanged object. Reads the update's {@link Event.Update#unchanged()} flag, which the
     * informer computed: the objects are not read again.
     *
     * @param <T> the object type
     * @return the predicate
     */
    public static <T> Predicate<Event<T>> resourceVersionChanged() {
        return event -> !(event instanceof Event.Update<T> u) || !u.unchanged();
    }

    /**
     * Passes updates whose {@code metadata.generation} changed: the spec changed. Drops updates of
     * status or metadata only (the API server does not bump generation for them), and resyncs. Some
     * kinds also bump generation on annotation writes.
     *
     * @param <T> the object type
     * @return the predicate
     */
    public static <T> Predicate<Event<T>> generationChanged() {
        return onUpdate(ObjectMeta::generation);
    }

    /**
     * Passes updates whose labels changed (absent labels equal empty ones). Reads the labels with
     * {@link ObjectAccess#labels}: of a compact {@link io.kubeloop.api.DynamicObject} only
     * {@code metadata.labels}, not its whole metadata.
     *
     * @param <T> the object type
     * @return the predicate
     */
    public static <T> Predicate<Event<T>> labelChanged() {
        return event -> !(event instanceof Event.Update<T> u)
                || !ObjectAccess.labels(u.oldObject()).equals(ObjectAccess.labels(u.newObject()));
    }

    /**
     * Passes updates whose annotations changed (absent annotations equal empty ones).
     *
     * @param <T> the object type
     * @return the predicate
     */
    public static <T> Predicate<Event<T>> annotationChanged() {
        return onUpdate(ObjectMeta::annotationsOrEmpty);
    }

    /**
     * Passes every event whose object's labels match {@code selector}; for an update, the new
     * object's.
     *
     * @param selector the selector
     * @param <T> the object type
     * @return the predicate
     */
    public static <T> Predicate<Event<T>> labelSelector(LabelSelector selector) {
        Objects.requireNonNull(selector, "selector");
        return event -> selector.matches(ObjectAccess.labels(
                switch (event) {
                    case Event.Create<T> c -> c.object();
                    case Event.Update<T> u -> u.newObject();
                    case Event.Delete<T> d -> d.object();
                    case Event.Generic<T> g -> g.object();
                }));
    }

    /** Passes an update when {@code field} of its old and new metadata differ; passes other events. */
    private static <T> Predicate<Event<T>> onUpdate(Function<ObjectMeta, ?> field) {
        return event -> !(event instanceof Event.Update<T> u)
                || !Objects.equals(
                        field.apply(ObjectAccess.metadata(u.oldObject())),
                        field.apply(ObjectAccess.metadata(u.newObject())));
    }
}
