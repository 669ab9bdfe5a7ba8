package io.kubeloop.apiserver.internal.controllers;

import io.kubeloop.apiserver.internal.registry.ObjectRegistry;
import io.kubeloop.time.Ticker;
import java.time.Duration;

/**
 * The controllers the embedded server runs in-process, started after its storage and stopped before it:
 * the {@link GarbageCollector}, the {@link PodTerminator}, the {@link DeploymentSimulator} and the
 * {@link ClusterRoleAggregator}, sharing one set
 * of {@link MetadataInformers}.
 *
 * <p><b>Threads.</b> Per watched resource an informer's reflector, queue consumer and one handler thread per
 * controller; the collector's graph thread and three workers; the terminator's and the simulator's worker and
 * their queues' delay loops. All are virtual threads; {@link #close()} ends every one of them before it returns.
 *
 * <p><b>Thread safety.</b> Thread-safe; {@link #close()} is idempotent.
 */
public final class BuiltinControllers implements AutoCloseable {

    private final MetadataInformers informers;
    private final GarbageCollector gc;
    private final PodTerminator pods;
    private final DeploymentSimulator deployments;
    private final ClusterRoleAggregator clusterRoles;

    private BuiltinControllers(ObjectRegistry registry, Ticker clock) {
        this.informers = new MetadataInformers(registry.store(), registry.resources(), clock);
        this.gc = new GarbageCollector(new LiveObjects(registry), informers);
        this.pods = new PodTerminator(registry, clock, informers);
        this.deployments = new DeploymentSimulator(registry, clock, informers);
        this.clusterRoles = new ClusterRoleAggregator(registry, informers);
    }

    /** Starts the controllers over {@code registry}'s storage and served resources. */
    public static BuiltinControllers start(ObjectRegistry registry, Ticker clock) {
        BuiltinControllers c = new BuiltinControllers(registry, clock);
        c.gc.start();
        c.pods.start();
        c.deployments.start();
        c.clusterRoles.start();
        c.informers.start();
        return c;
    }

    /** The garbage collector. */
    public GarbageCollector garbageCollector() {
        return gc;
    }

    /** Waits until every informer has listed its resource once; false on timeout. */
    public boolean waitForCacheSync(Duration timeout) {
        return informers.waitForCacheSync(timeout);
    }

    /** Stops the informers, then the controllers, waiting for all their threads. */
    @Override
    public void close() {
        informers.close();
        gc.close();
        pods.close();
        deployments.close();
        clusterRoles.close();
    }
}
