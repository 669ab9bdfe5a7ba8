package io.kubeloop.apiserver;

import java.time.Duration;
import java.util.Objects;

/**
 * The cluster an {@link EmbeddedApiServer} simulates behind its API, so that workloads progress as on a real
 * one: simulated Nodes; a scheduler binding Pods to them; kubelets taking bound Pods from {@code Pending} to
 * {@code Running} and Ready with container statuses and Pod IPs (and Pods that run to completion to
 * {@code Succeeded}); the ReplicaSet and Deployment controllers (rolling updates, revisions, rollbacks).
 *
 * <p>A Pod's annotations inject failures: {@value #EXIT_CODE_ANNOTATION} (its containers exit with that code:
 * a Pod that restarts {@code Always} goes into {@code CrashLoopBackOff}, one that restarts {@code Never} ends
 * {@code Failed}), {@value #NOT_READY_ANNOTATION} {@code "true"} (it runs but its readiness probe never
 * passes) and {@value #RUN_TIME_ANNOTATION} (how long a Pod that does not restart {@code Always} runs, e.g.
 * {@code "5s"}; {@link #podRunTime()} otherwise). Put them on a workload's Pod template.
 *
 * <p>Runs only while the server's built-in controllers do ({@link BuiltinControllerMode#RUN}).
 *
 * <p>Immutable and thread-safe.
 *
 * @param workloads what of the cluster runs: {@link Workloads#PODS} (everything above), {@link
 *     Workloads#STATUS_ONLY} or {@link Workloads#OFF}
 * @param nodes how many Nodes ({@code kubeloop-node-1} …), at least 1
 * @param podStartDelay how long a bound Pod stays {@code Pending} before it runs (and a terminating one
 *     takes to stop)
 * @param podRunTime how long a Pod that does not restart {@code Always} runs before it completes
 */
public record SimulatedCluster(Workloads workloads, int nodes, Duration podStartDelay, Duration podRunTime) {

    /** How much of a cluster the server simulates. */
    public enum Workloads {
        /** Nodes, the scheduler, kubelets and the workload controllers: Pods run (the default). */
        PODS,
        /**
         * No Nodes, scheduler, kubelets or workload controllers; a Deployment's status alone reports its
         * replicas available a moment after each change, as if rolled out — for load tests of operators where
         * running thousands of Pods would dominate.
         */
        STATUS_ONLY,
        /** Nothing: Pods stay Pending and Deployments unavailable, as on a bare API server (envtest). */
        OFF
    }

    /** Makes a Pod's containers exit with the code given as its value. */
    public static final String EXIT_CODE_ANNOTATION = "sim.kubeloop.io/exit-code";

    /** With value {@code "true"}, a Pod's containers run but never become ready. */
    public static final String NOT_READY_ANNOTATION = "sim.kubeloop.io/not-ready";

    /** How long a Pod that does not restart {@code Always} runs, as a duration ({@code 500ms}, {@code 5s}, {@code 1m}). */
    public static final String RUN_TIME_ANNOTATION = "sim.kubeloop.io/run-time";

    /** Checks the values. */
    public SimulatedCluster {
        Objects.requireNonNull(workloads, "workloads");
        if (nodes < 1) {
            throw new IllegalArgumentException("nodes must be at least 1, got " + nodes);
        }
        Objects.requireNonNull(podStartDelay, "podStartDelay");
        Objects.requireNonNull(podRunTime, "podRunTime");
        if (podStartDelay.isNegative() || podRunTime.isNegative()) {
            throw new IllegalArgumentException("podStartDelay and podRunTime must not be negative");
        }
    }

    /** Workloads on, one Node, Pods running 100 ms after they are bound, completing after 1 s. */
    public static SimulatedCluster defaults() {
        return new SimulatedCluster(Workloads.PODS, 1, Duration.ofMillis(100), Duration.ofSeconds(1));
    }

    /** No workload controllers, scheduler, kubelets or Nodes: Pods stay Pending, as on envtest. */
    public static SimulatedCluster off() {
        return defaults().withWorkloads(Workloads.OFF);
    }

    /** With another simulation of workloads. */
    public SimulatedCluster withWorkloads(Workloads w) {
        return new SimulatedCluster(w, nodes, podStartDelay, podRunTime);
    }

    /** With {@code n} Nodes. */
    public SimulatedCluster withNodes(int n) {
        return new SimulatedCluster(workloads, n, podStartDelay, podRunTime);
    }

    /** With another delay between a Pod's binding and its running. */
    public SimulatedCluster withPodStartDelay(Duration d) {
        return new SimulatedCluster(workloads, nodes, d, podRunTime);
    }

    /** With another run time for Pods that do not restart {@code Always}. */
    public SimulatedCluster withPodRunTime(Duration d) {
        return new SimulatedCluster(workloads, nodes, podStartDelay, d);
    }
}
