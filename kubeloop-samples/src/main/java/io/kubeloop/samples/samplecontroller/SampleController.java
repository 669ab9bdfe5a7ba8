package io.kubeloop.samples.samplecontroller;

import io.kubeloop.client.KubeClient;
import io.kubeloop.controller.CacheSyncTimeoutException;
import io.kubeloop.controller.Controller;
import io.kubeloop.controller.ControllerBuilder;
import io.kubeloop.controller.Manager;
import io.kubeloop.controller.ManagerOptions;
import io.kubeloop.controller.rbac.RbacManifests;
import io.kubeloop.models.apps.v1.Deployment;
import java.util.Objects;

/**
 * The sample-controller, wired: a controller named {@code foo-controller} with {@value #WORKERS} workers running
 * {@link FooReconciler} in a {@link Manager}, which holds the caches of Foos and Deployments in
 * every namespace and writes the controller's Events. A Foo's own changes enqueue it; a
 * Deployment's changes enqueue the Foo that controls it.
 *
 * {@snippet :
 * try (KubeClient client = KubeClient.create();
 *      SampleController sample = new SampleController(client)) {
 *     FooCrd.install(client, Duration.ofSeconds(30));
 *     sample.start();           // returns once both caches synced and the workers run
 *     Thread.currentThread().join();
 * }
 * }
 *
 * <p><b>Thread safety:</b> {@link #start()} and {@link #close()} are thread-safe; the manager owns
 * the threads.
 */
public final class SampleController implements AutoCloseable {

    /**
     * Reconciles run at once. Each pass waits on the API server for its one or two writes, so more
     * workers overlap those waits: in the race benchmark (1,000 Foos on two cores, three rounds each)
     * two workers, as Go's sample runs, took about 1.2 times as long as eight and a quarter more CPU.
     */
    public static final int WORKERS = 8;

    /** The controller's name (its metrics' {@code controller} label and its queue's name). */
    public static final String NAME = "foo-controller";

    private final Manager manager;
    private final Controller controller;

    /**
     * Wires the controller in a manager of its own with the default options; nothing runs until
     * {@link #start()}. The Foo CRD must be installed by then ({@link FooCrd#install}).
     *
     * @param client the cluster
     */
    public SampleController(KubeClient client) {
        this.manager = Manager.create(Objects.requireNonNull(client, "client"), ManagerOptions.defaults());
        this.controller = addTo(manager);
    }

    /**
     * Adds the sample-controller to {@code manager}: over the manager's cache, with its metrics in
     * the manager's registry, started when the manager leads.
     *
     * @param manager a manager, not started
     * @return the controller, added to the manager
     */
    public static Controller addTo(Manager manager) {
        return ControllerBuilder.forResource(Foo.class)
                .owns(Deployment.class)
                .named(NAME)
                .withOptions(o -> o.maxConcurrentReconciles(WORKERS))
                .build(manager, new FooReconciler());
    }

    /**
     * Starts the manager; returns once the caches have synced and the workers run.
     *
     * @throws CacheSyncTimeoutException when the caches do not sync within two minutes (is the Foo CRD
     *     installed?); the manager is then closed
     */
    public void start() {
        manager.start();
    }

    /** The controller (its queue, its failure); for tests and tools. */
    public Controller controller() {
        return controller;
    }

    /**
     * The RBAC objects the sample-controller runs with: a ServiceAccount, and a ClusterRole bound to
     * it allowing what the controller reads (Foos, Deployments), writes (Deployments, Foo status) and
     * records (Events) — no more.
     *
     * @param namePrefix the prefix of the objects' names, e.g. {@code sample-controller}
     * @param namespace the namespace the controller runs in
     * @return the objects
     */
    public RbacManifests rbac(String namePrefix, String namespace) {
        return RbacManifests.of(manager.permissions(), namePrefix, namespace);
    }

    /** The manager running the controller; for tests and tools. */
    public Manager manager() {
        return manager;
    }

    /** Stops the controller (cancelling and waiting for reconciles in progress), the caches, then writes the Events left. */
    @Override
    public void close() {
        manager.close();
    }
}
