package io.kubeloop.samples.samplecontroller;

import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.kubeloop.cache.InformerFactory;
import io.kubeloop.cache.InformerOptions;
import io.kubeloop.cache.InformerScope;
import io.kubeloop.client.KubeClient;
import io.kubeloop.controller.Controller;
import io.kubeloop.controller.ControllerBuilder;
import io.kubeloop.controller.events.EventBroadcaster;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Objects;

/**
 * The sample-controller, wired: shared informers for Foos and Deployments in every namespace, and a
 * controller named {@code foo-controller} with two workers running {@link FooReconciler}, and an
 * {@link EventBroadcaster} for its Events. A Foo's own changes enqueue it; a Deployment's changes
 * enqueue the Foo that controls it.
 *
 * {@snippet :
 * try (KubeClient client = KubeClient.create();
 *      SampleController sample = new SampleController(client, null)) {
 *     FooCrd.install(client, Duration.ofSeconds(30));
 *     sample.start();           // returns once both caches synced and the workers run
 *     Thread.currentThread().join();
 * }
 * }
 *
 * <p><b>Thread safety:</b> {@link #start()} and {@link #close()} are thread-safe; the informers and
 * the controller own their threads.
 */
public final class SampleController implements AutoCloseable {

    /** The controller's name (its metrics' {@code controller} label and its queue's name). */
    public static final String NAME = "foo-controller";

    private final InformerFactory informers;
    private final EventBroadcaster events;
    private final Controller controller;

    /**
     * Wires the controller; nothing runs until {@link #start()}. The Foo CRD must be installed by
     * then ({@link FooCrd#install}).
     *
     * @param client the cluster
     * @param meterRegistry where metrics go, or null for none
     */
    public SampleController(KubeClient client, MeterRegistry meterRegistry) {
        Objects.requireNonNull(client, "client");
        this.informers = InformerFactory.create(client, InformerOptions.defaults());
        this.events = new EventBroadcaster(client);
        FooReconciler reconciler = new FooReconciler(
                informers.listerFor(Foo.class, InformerScope.all()),
                informers.listerFor(Deployment.class, InformerScope.all()),
                client.resource(Foo.class),
                client.resource(Deployment.class),
                events.recorderFor(NAME));
        this.controller =
                builder().withOptions(o -> o.meterRegistry(meterRegistry)).build(informers, reconciler);
    }

    /**
     * Adds the sample-controller to {@code manager}: over the manager's informers, with its metrics
     * in the manager's registry, started when the manager leads. The caller owns {@code events} and
     * closes it after the manager.
     *
     * @param manager a manager over {@code client}, not started
     * @param client the cluster (for the reconciler's writes)
     * @param events where the controller's Events go
     * @return the controller, added to the manager
     */
    public static Controller addTo(io.kubeloop.controller.Manager manager, KubeClient client, EventBroadcaster events) {
        InformerFactory informers = manager.informers();
        FooReconciler reconciler = new FooReconciler(
                informers.listerFor(Foo.class, InformerScope.all()),
                informers.listerFor(Deployment.class, InformerScope.all()),
                client.resource(Foo.class),
                client.resource(Deployment.class),
                events.recorderFor(NAME));
        return builder().build(manager, reconciler);
    }

    private static ControllerBuilder<Foo> builder() {
        return ControllerBuilder.forResource(Foo.class)
                .owns(Deployment.class)
                .named(NAME)
                .withOptions(o -> o.maxConcurrentReconciles(2));
    }

    /**
     * Starts the informers and the controller; returns once the caches have synced and the workers
     * run.
     *
     * @throws io.kubeloop.controller.CacheSyncTimeoutException if the caches do not sync within two
     *     minutes (is the Foo CRD installed?)
     */
    public void start() {
        informers.start();
        controller.start();
    }

    /** The controller (its queue, its failure); for tests and tools. */
    public Controller controller() {
        return controller;
    }

    /** Stops the controller (waiting for reconciles in progress), then the informers, then writes the Events left. */
    @Override
    public void close() {
        try {
            controller.close();
        } finally {
            try {
                informers.close();
            } finally {
                events.close();
            }
        }
    }
}
