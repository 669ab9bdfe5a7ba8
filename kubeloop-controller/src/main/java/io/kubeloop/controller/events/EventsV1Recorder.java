package io.kubeloop.controller.events;

/**
 * Records {@code events.k8s.io/v1} Events about objects, as client-go's {@code tools/events}
 * {@code EventRecorder} (the one controller-runtime's manager hands out now): an Event names the
 * object it is about ({@code regarding}), optionally a second one ({@code related}), what the
 * controller did ({@code action}), why ({@code reason}) and a human-readable {@code note}. Recording
 * never blocks and never fails: the Event is queued for the {@link EventsV1Broadcaster} that made the
 * recorder, which writes it in the background, repeated ones as a series.
 *
 * <p><b>Thread safety:</b> thread-safe.
 */
public interface EventsV1Recorder {

    /**
     * Records an Event.
     *
     * @param regarding the object it is about: a {@link io.kubeloop.api.KubernetesObject} or a fabric8
     *     model object, with a kind and a name
     * @param related a second object involved, or null
     * @param type normal or warning
     * @param reason why, in UpperCamelCase (e.g. {@code Synced})
     * @param action what was done or failed, in UpperCamelCase (e.g. {@code CreateDeployment})
     * @param note for humans, at most 1 kB
     * @throws IllegalArgumentException if an object has no kind or name
     */
    void event(Object regarding, Object related, EventType type, String reason, String action, String note);

    /**
     * {@link #event} with a {@link String#format} note.
     *
     * @param regarding the object it is about
     * @param related a second object, or null
     * @param type normal or warning
     * @param reason why
     * @param action what was done
     * @param format the note's format
     * @param args its arguments
     */
    default void eventf(
            Object regarding,
            Object related,
            EventType type,
            String reason,
            String action,
            String format,
            Object... args) {
        event(regarding, related, type, reason, action, String.format(format, args));
    }
}
