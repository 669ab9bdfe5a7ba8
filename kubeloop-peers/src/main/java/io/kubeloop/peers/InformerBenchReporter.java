package io.kubeloop.peers;

import com.sun.management.OperatingSystemMXBean;
import com.sun.management.ThreadMXBean;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/**
 * The child side of kubeloop-bench's informer benchmark protocol, shared by every contender: the peers
 * here and kubeloop-bench's own children (which see only this class of the module, not its libraries).
 *
 * <p>A child is started as {@code <main> <kubeconfig> <pods> <events>} and writes, on stdout, one
 * line per fact, in this order:
 * <pre>
 * BASELINE &lt;bytes&gt;          heap used after GC, client built, informer not started
 * SYNCED &lt;nanos&gt; &lt;size&gt; &lt;cpu&gt; &lt;alloc&gt;
 *                            start → hasSynced(), the cache size then, the process's CPU nanoseconds
 *                            and bytes allocated (all threads) from start to sync
 * ADDS &lt;nanos&gt;              start → the handler has seen {@code pods} adds
 * HEAP &lt;bytes&gt;              heap used after GC minus BASELINE
 * EVENTS &lt;count&gt; &lt;nanos&gt;    updates seen, first → last update
 * </pre>
 * then exits when its stdin closes. {@code ERROR <message>} ends a child early.
 *
 * <p>Heap method: {@link #retainedHeap()} runs {@code System.gc()} five times with short pauses and
 * reads {@code MemoryMXBean} heap usage; every child uses the same JVM flags.
 *
 * <p><b>Thread safety.</b> The counters are thread-safe; the reporting methods are called from the
 * child's main thread.
 */
public final class InformerBenchReporter {

    private final PrintStream out = System.out;
    private final AtomicLong adds = new AtomicLong();
    private final AtomicLong updates = new AtomicLong();
    private volatile long firstUpdate;
    private volatile long lastUpdate;
    private long baseline;
    private long start;
    private long startCpu;
    private long startAllocated;

    /** Handler side: one add seen. */
    public void added() {
        adds.incrementAndGet();
    }

    /** Handler side: one update seen. */
    public void updated() {
        long now = System.nanoTime();
        if (updates.getAndIncrement() == 0) {
            firstUpdate = now;
        }
        lastUpdate = now;
    }

    /** Measures and reports the baseline heap; call right before starting the informer. */
    public void baseline() {
        baseline = usedHeapAfterGc();
        out.println("BASELINE " + baseline);
        out.flush();
    }

    /** Marks the informer's start. */
    public void started() {
        startCpu = processCpuNanos();
        startAllocated = allocatedBytes();
        start = System.nanoTime();
    }

    /** Waits until {@code synced} is true (polled every millisecond), then reports SYNCED. */
    public void awaitSynced(BooleanSupplier synced, LongSupplier cacheSize) {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
        while (!synced.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                fail("not synced after 5 minutes");
            }
            sleep(Duration.ofMillis(1));
        }
        long t = System.nanoTime() - start;
        long cpu = startCpu < 0 ? -1 : processCpuNanos() - startCpu;
        long allocated = startAllocated < 0 ? -1 : allocatedBytes() - startAllocated;
        out.println("SYNCED " + t + " " + cacheSize.getAsLong() + " " + cpu + " " + allocated);
        out.flush();
    }

    /** Waits until the handler saw {@code pods} adds, then reports ADDS. */
    public void awaitAdds(long pods) {
        awaitCount(adds, pods, "adds");
        out.println("ADDS " + (System.nanoTime() - start));
        out.flush();
    }

    /** Reports HEAP (retained heap over the baseline). */
    public void retainedHeap() {
        out.println("HEAP " + (usedHeapAfterGc() - baseline));
        out.flush();
    }

    /** Waits until the handler saw {@code events} updates, reports EVENTS, then waits for stdin to close. */
    public void awaitUpdatesAndFinish(long events) {
        awaitCount(updates, events, "updates");
        out.println("EVENTS " + updates.get() + " " + (lastUpdate - firstUpdate));
        out.flush();
        waitForStdinClose();
    }

    private void awaitCount(AtomicLong counter, long target, String what) {
        long last = -1;
        long lastChange = System.nanoTime();
        while (counter.get() < target) {
            long n = counter.get();
            long now = System.nanoTime();
            if (n != last) {
                last = n;
                lastChange = now;
            } else if (now - lastChange > TimeUnit.SECONDS.toNanos(300)) {
                fail("stuck at " + n + " of " + target + " " + what);
            }
            sleep(Duration.ofMillis(2));
        }
    }

    /** Reports ERROR and exits. */
    public void fail(String message) {
        out.println("ERROR " + message.replace('\n', ' '));
        out.flush();
        System.exit(1);
    }

    /** CPU time of this process so far (every thread: application, JIT, GC), in nanoseconds; -1 when unknown. */
    public static long processCpuNanos() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof OperatingSystemMXBean os) {
            return os.getProcessCpuTime();
        }
        return -1;
    }

    /** Bytes allocated in the heap by all threads since the JVM started (approximate); -1 when unknown. */
    public static long allocatedBytes() {
        if (ManagementFactory.getThreadMXBean() instanceof ThreadMXBean threads
                && threads.isThreadAllocatedMemorySupported()
                && threads.isThreadAllocatedMemoryEnabled()) {
            return threads.getTotalThreadAllocatedBytes();
        }
        return -1;
    }

    /** Heap used after five full collections. */
    public static long usedHeapAfterGc() {
        for (int i = 0; i < 5; i++) {
            System.gc();
            sleep(Duration.ofMillis(100));
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    private static void waitForStdinClose() {
        try {
            while (System.in.read() >= 0) {
                // ignore input
            }
        } catch (IOException e) {
            // parent gone
        }
    }

    private static void sleep(Duration d) {
        try {
            Thread.sleep(d);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
