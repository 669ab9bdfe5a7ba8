package io.kubeloop.controller.events;

/**
 * Records Events about objects for users to see ({@code kubectl describe}, {@code kubectl get
 * events}), as client-go's {@code record.EventRecorder}. Recording never blocks and never fails: the
 * Event is queued for the {@link EventBroadcaster} that made this recorder, which correlates and
 * writes it in the background; when its queue is full the Event is dropped.
 *
 * <p><b>Thread safety:</b> thread-safe.
 */
public interface EventRecorder {

    /**
     * Records an Event about {@code object}.
     *
     * @param object the object it is about: a {@link io.kubeloop.api.KubernetesObject} (including
     *     {@link io.kubeloop.api.DynamicObject}) or a fabric8 model object, with a name
     * @param type normal or warning
     * @param reason why, in UpperCamelCase (e.g. {@code Synced}, {@code ErrResourceExists})
     * @param message what, for humans
     * @throws IllegalArgumentException if {@code object} has no kind or name
     */
    void event(Object object, EventType type, String reason, String message);

    /**
     * {@link #event} with a {@link String#format} message.
     *
     * @param object the object it is about
     * @param type normal or warning
     * @param reason why
     * @param format the message format
     * @param args its arguments
     */
    default void eventf(Object object, EventType type, String reason, String format, Object... args) {
        event(object, type, reason, String.format(format, args));
    }
}
