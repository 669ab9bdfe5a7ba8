package io.kubeloop.controller;

import io.kubeloop.cache.InformerFactory;
import io.kubeloop.controller.client.Cache;
import io.kubeloop.controller.client.Client;
import io.kubeloop.controller.client.Reader;
import io.kubeloop.controller.events.EventRecorder;
import io.kubeloop.controller.events.EventsV1Recorder;

/**
 * The ways a manager's code reaches the cluster (controller-runtime's {@code cluster.Cluster}): the shared
 * informers, the cache-backed client, a reader that asks the server, and Event recorders. A {@link Manager} is
 * one; code that only reads and writes the cluster (a reconciler's factory, a component of the application) can
 * take a {@code Cluster} instead of the whole manager.
 *
 * <p><b>Thread safety:</b> implementations are thread-safe.
 */
public interface Cluster {

    /** The shared informers (and listers) of this cluster's controllers. */
    InformerFactory informers();

    /**
     * The client reconcilers read and write through: reads from {@link #cache()}, writes to the API server. It
     * refuses every call (a {@link java.util.concurrent.CancellationException}) once the manager stopped or lost
     * its leader lease, so a process that is no longer leader writes nothing more through it.
     */
    Client client();

    /** The cache: the informers as a reader, field indexes, and the scope set in {@link ManagerOptions#cache()}. */
    Cache cache();

    /**
     * A reader that asks the API server every time, for the rare read that must not be stale
     * (controller-runtime's {@code GetAPIReader}).
     */
    Reader apiReader();

    /**
     * A recorder of Events reporting as {@code name} (controller-runtime's {@code GetEventRecorderFor}); they are
     * written in the background and flushed when the manager closes.
     *
     * @param name the reporting component, e.g. the controller's name
     * @return the recorder
     */
    EventRecorder eventRecorderFor(String name);

    /**
     * A recorder of {@code events.k8s.io/v1} Events reporting as {@code name} (controller-runtime's current
     * {@code GetEventRecorder}): Events with an action and a related object, repeated ones written as a series,
     * in the background and flushed when the manager closes.
     *
     * @param name the reporting controller, e.g. the controller's name
     * @return the recorder
     */
    EventsV1Recorder eventsV1RecorderFor(String name);
}
