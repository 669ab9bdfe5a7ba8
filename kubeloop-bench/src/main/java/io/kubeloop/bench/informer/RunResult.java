package io.kubeloop.bench.informer;

/**
 * What one child run measured.
 *
 * @param contender who ran
 * @param pods the data set size
 * @param syncNanos informer start → hasSynced()
 * @param addsNanos informer start → the handler saw every pod's add
 * @param cacheSize the cache size at sync (must equal {@code pods})
 * @param heapBytes retained heap after sync (used after GC minus the baseline)
 * @param events updates the handler saw
 * @param eventsNanos first → last update seen by the handler
 * @param writerRate modifications per second the writer committed while the child was frozen
 * @param syncCpuNanos the child's CPU time (every thread) from start to sync, or -1 when not reported
 * @param syncAllocatedBytes bytes the child allocated (every thread) from start to sync, or -1 when not reported
 */
public record RunResult(
        Contender contender,
        int pods,
        long syncNanos,
        long addsNanos,
        long cacheSize,
        long heapBytes,
        long events,
        long eventsNanos,
        double writerRate,
        long syncCpuNanos,
        long syncAllocatedBytes) {

    /** Sync time in seconds. */
    public double syncSeconds() {
        return syncNanos / 1e9;
    }

    /** CPU seconds to sync; NaN when not reported. */
    public double syncCpuSeconds() {
        return syncCpuNanos < 0 ? Double.NaN : syncCpuNanos / 1e9;
    }

    /** MiB allocated to sync; NaN when not reported. */
    public double syncAllocatedMiB() {
        return syncAllocatedBytes < 0 ? Double.NaN : syncAllocatedBytes / (1024.0 * 1024.0);
    }

    /** Retained heap in MiB. */
    public double heapMiB() {
        return heapBytes / (1024.0 * 1024.0);
    }

    /** Updates per second seen by the handler. */
    public double eventsPerSecond() {
        return eventsNanos <= 0 ? 0 : events * 1e9 / eventsNanos;
    }
}
