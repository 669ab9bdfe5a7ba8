package io.kubeloop.bench.race;

import java.util.Map;

/**
 * What one round of one contender measured.
 *
 * @param contender who ran
 * @param foos how many Foos
 * @param readyNanos the operator's main entered → operator running (caches synced)
 * @param idleHeapBytes heap used after full collections once the operator ran, before any Foo
 * @param workJitNanos CPU time of the operator JVM's JIT compiler threads during both phases
 * @param create creating the Foos
 * @param scale rescaling them
 * @param heapBytes heap used after full collections once the Foos converged (after both phases)
 * @param threads the operator process's live threads then
 * @param jitMillis the operator JVM's JIT compilation time until then (compiler threads' time, as the
 *     JVM accounts it)
 * @param gcMillis the operator JVM's collection time until then (before the heap measurement's own)
 * @param cpuTotalNanos the operator process's CPU time from its start to the end of the phases
 * @param startupRequests the requests the operator sent until it ran ({@code "verb resource"} → count)
 * @param workRequests the requests it sent from then until it was quiet after the phases
 * @param operatorStats what the operator's own statistics said at the end (kubeloop's: reconciles,
 *     queue), or empty
 * @param endState the check of the objects on the server at the end
 */
record RaceResult(
        RaceContender contender,
        int foos,
        long readyNanos,
        long idleHeapBytes,
        long workJitNanos,
        PhaseResult create,
        PhaseResult scale,
        long heapBytes,
        int threads,
        long jitMillis,
        long gcMillis,
        long cpuTotalNanos,
        Map<String, Long> startupRequests,
        Map<String, Long> workRequests,
        String operatorStats,
        EndState endState) {

    /** Whether both phases converged and the end state is right. */
    boolean converged() {
        return create.converged() && scale.converged() && endState.ok();
    }

    /** CPU seconds of the operator during both phases. */
    double workCpuSeconds() {
        return (create.cpuNanos() + scale.cpuNanos()) / 1e9;
    }

    /**
     * The JIT compiler threads' CPU during both phases, in seconds: the part of {@link #workCpuSeconds()}
     * that is the JVM warming up.
     */
    double workJitSeconds() {
        return workJitNanos / 1e9;
    }

    /** CPU seconds of the operator during both phases, its JIT compiler threads' time taken out. */
    double workCpuWithoutJitSeconds() {
        return Math.max(0, workCpuSeconds() - workJitSeconds());
    }

    /** Retained heap after the phases minus the idle heap, in MiB. */
    double heapGrowthMiB() {
        return (heapBytes - idleHeapBytes) / (1024.0 * 1024.0);
    }

    /** Requests during the phases other than Events', per Foo. */
    double requestsPerFooWithoutEvents() {
        long sum = 0;
        for (Map.Entry<String, Long> e : workRequests.entrySet()) {
            if (!e.getKey().endsWith(" events")) {
                sum += e.getValue();
            }
        }
        return (double) sum / foos;
    }

    /** CPU seconds of the harness JVM (API server and harness) during both phases. */
    double serverCpuSeconds() {
        return (create.serverCpuNanos() + scale.serverCpuNanos()) / 1e9;
    }

    /** Requests of the given verbs during the phases, per Foo. */
    double perFoo(String... verbs) {
        long sum = 0;
        for (Map.Entry<String, Long> e : workRequests.entrySet()) {
            String verb = e.getKey().substring(0, e.getKey().indexOf(' '));
            for (String v : verbs) {
                if (v.equals(verb)) {
                    sum += e.getValue();
                }
            }
        }
        return (double) sum / foos;
    }

    /** Every request during the phases, per Foo. */
    double requestsPerFoo() {
        return workRequests.values().stream().mapToLong(Long::longValue).sum() / (double) foos;
    }

    /** Writes (create, update, patch, delete) during the phases, per Foo. */
    double writesPerFoo() {
        return perFoo("create", "update", "patch", "delete", "deletecollection");
    }

    /** Retained heap in MiB. */
    double heapMiB() {
        return heapBytes / (1024.0 * 1024.0);
    }

    /** Idle heap in MiB. */
    double idleHeapMiB() {
        return idleHeapBytes / (1024.0 * 1024.0);
    }
}
