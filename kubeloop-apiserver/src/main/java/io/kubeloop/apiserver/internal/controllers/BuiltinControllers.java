package io.kubeloop.apiserver.internal.controllers;

import io.kubeloop.apiserver.SimulatedCluster;
import io.kubeloop.apiserver.internal.registry.ObjectRegistry;
import io.kubeloop.time.Ticker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The controllers the embedded server runs in-process, started after its storage and stopped before it:
 * the {@link GarbageCollector}, the {@link PodTerminator} and the {@link ClusterRoleAggregator}; and, when
 * the {@link SimulatedCluster} runs workloads, its {@link SimulatedNodes}, the {@link PodScheduler}, the
 * {@link SimulatedKubelet}, the {@link ReplicaSetController}, the {@link DeploymentController}, the {@link JobController}, the {@link CronJobController}, the {@link DaemonSetController}, the {@link StatefulSetController}, the {@link VolumeProvisioner} (with a default StorageClass), the {@link EndpointsController} and the {@link DisruptionController}; with {@code STATUS_ONLY}, the {@link DeploymentStatusSimulator} alone. All share one
 * set of {@link MetadataInformers}.
 *
 * <p><b>Threads.</b> Per watched resource an informer's reflector, queue consumer and one handler thread per
 * controller; the collector's graph thread and three workers; one worker per other controller and its
 * queue's delay loop. All are virtual threads; {@link #close()} ends every one of them before it returns.
 *
 * <p><b>Thread safety.</b> Thread-safe; {@link #close()} is idempotent.
 */
public final class BuiltinControllers implements AutoCloseable {

    private final MetadataInformers informers;
    private final GarbageCollector gc;
    private final PodTerminator pods;
    private final ClusterRoleAggregator clusterRoles;
    /** The workload controllers, in start order; empty when the simulated cluster runs none. */
    private final List<Runnable> workloadStarts = new ArrayList<>();

    private final List<Runnable> workloadStops = new ArrayList<>();

    private BuiltinControllers(ObjectRegistry registry, Ticker clock, SimulatedCluster cluster) {
        this.informers = new MetadataInformers(registry.store(), registry.resources(), clock);
        this.gc = new GarbageCollector(new LiveObjects(registry), informers);
        this.pods = new PodTerminator(registry, clock, informers);
        this.clusterRoles = new ClusterRoleAggregator(registry, clock, informers);
        if (cluster.workloads() == SimulatedCluster.Workloads.STATUS_ONLY) {
            DeploymentStatusSimulator simulator = new DeploymentStatusSimulator(registry, clock, informers);
            workloadStarts.add(simulator::start);
            workloadStops.add(simulator::close);
        }
        if (cluster.workloads() == SimulatedCluster.Workloads.PODS) {
            ClusterEvents events = new ClusterEvents(registry, clock);
            PodScheduler scheduler = new PodScheduler(registry, clock, informers, events);
            SimulatedKubelet kubelet = new SimulatedKubelet(registry, clock, cluster, informers, events);
            ReplicaSetController replicaSets = new ReplicaSetController(registry, clock, informers, events);
            DeploymentController deployments = new DeploymentController(registry, clock, informers, events);
            JobController jobs = new JobController(registry, clock, informers, events);
            DaemonSetController daemonSets = new DaemonSetController(registry, clock, informers, events);
            VolumeProvisioner volumes = new VolumeProvisioner(registry, clock, informers);
            StatefulSetController statefulSets = new StatefulSetController(registry, clock, informers, events);
            EndpointsController endpoints = new EndpointsController(registry, clock, informers);
            CronJobController cronJobs = new CronJobController(registry, clock, informers, events);
            DisruptionController disruption = new DisruptionController(registry, clock, informers);
            workloadStarts.addAll(List.of(
                    disruption::start,
                    cronJobs::start,
                    endpoints::start,
                    statefulSets::start,
                    volumes::start,
                    scheduler::start,
                    kubelet::start,
                    replicaSets::start,
                    deployments::start,
                    jobs::start,
                    daemonSets::start));
            workloadStops.addAll(List.of(
                    disruption::close,
                    cronJobs::close,
                    endpoints::close,
                    statefulSets::close,
                    volumes::close,
                    daemonSets::close,
                    jobs::close,
                    deployments::close,
                    replicaSets::close,
                    kubelet::close,
                    scheduler::close));
        }
    }

    /**
     * Starts the controllers over {@code registry}'s storage and served resources; registers the simulated
     * Nodes first when {@code cluster} runs workloads.
     */
    public static BuiltinControllers start(ObjectRegistry registry, Ticker clock, SimulatedCluster cluster) {
        if (cluster.workloads() == SimulatedCluster.Workloads.PODS) {
            new SimulatedNodes(registry, clock).register(cluster.nodes());
            VolumeProvisioner.registerDefaultClass(registry);
        }
        BuiltinControllers c = new BuiltinControllers(registry, clock, cluster);
        c.gc.start();
        c.pods.start();
        c.clusterRoles.start();
        c.workloadStarts.forEach(Runnable::run);
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
        clusterRoles.close();
        workloadStops.forEach(Runnable::run);
    }
}
