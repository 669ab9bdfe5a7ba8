package io.kubeloop.peers.race;

import io.kubeloop.peers.InformerBenchReporter;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * The operator side of kubeloop-bench's race protocol, shared by every contender (the JOSDK one here,
 * kubeloop's and kubernetes-client/java's in kubeloop-bench, which see only this package of the
 * module, not its libraries).
 *
 * <p>An operator child is started as {@code <main> <kubeconfig>}. Once its operator runs (caches
 * synced, workers started) it writes {@code READY <nanos>} (main entered → running) on stdout, then
 * answers the commands the harness writes on its stdin, one per line:
 * <pre>
 * HEAP    → HEAP &lt;bytes&gt; &lt;threads&gt; &lt;jit ms&gt; &lt;gc ms&gt;
 *                                    heap used after five full collections
 *                                    ({@link InformerBenchReporter#usedHeapAfterGc()}), live threads, and
 *                                    the JVM's accumulated JIT compilation time and collection time
 *                                    (before those five collections)
 * COUNTS  → COUNTS &lt;verb:resource=n&gt;…   the requests sent so far ({@link RequestTally})
 * STATS   → STATS &lt;text&gt;                what the operator's own statistics say ({@link #stats}), or
 *                                    nothing
 * </pre>
 * When its stdin closes the child stops its operator and exits. {@code ERROR <message>} reports a
 * failure and ends the child.
 *
 * <p><b>Thread safety.</b> For the child's main thread.
 */
public final class RaceReporter {

    private final PrintStream out = System.out;
    private final long start = System.nanoTime();
    private final RequestTally tally;
    private volatile Supplier<String> stats = () -> "";

    /** A reporter for an operator whose client feeds {@code tally}; construct it first thing in main. */
    public RaceReporter(RequestTally tally) {
        this.tally = tally;
    }

    /** Sets what {@code STATS} answers, e.g. the framework's reconcile and queue metrics. */
    public void stats(Supplier<String> statistics) {
        this.stats = statistics;
    }

    /** Reports READY: the operator runs. */
    public void ready() {
        emit("READY " + (System.nanoTime() - start));
    }

    /**
     * Answers the harness's commands until stdin closes, then runs {@code stop} and exits the JVM.
     *
     * @param stop stops the operator and closes its client
     */
    public void serveUntilStdinCloses(Runnable stop) {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                switch (line.trim()) {
                    case "HEAP" -> {
                        long jit = ManagementFactory.getCompilationMXBean().getTotalCompilationTime();
                        long gc = ManagementFactory.getGarbageCollectorMXBeans().stream()
                                .mapToLong(b -> Math.max(0, b.getCollectionTime()))
                                .sum();
                        emit("HEAP " + InformerBenchReporter.usedHeapAfterGc() + " "
                                + ManagementFactory.getThreadMXBean().getThreadCount() + " " + jit + " " + gc);
                    }
                    case "COUNTS" -> emit("COUNTS " + counts(tally.snapshot()));
                    case "STATS" -> emit("STATS " + stats.get().replace('\n', ' '));
                    case "" -> {}
                    default -> emit("ERROR unknown command " + line);
                }
            }
        } catch (IOException e) {
            // the harness is gone: stop as if it had closed our stdin
        }
        try {
            stop.run();
        } finally {
            System.exit(0);
        }
    }

    /** Reports ERROR and exits. */
    public void fail(Throwable failure) {
        emit("ERROR " + String.valueOf(failure).replace('\n', ' '));
        System.exit(1);
    }

    private static String counts(Map<String, Long> snapshot) {
        return snapshot.entrySet().stream()
                .map(e -> e.getKey().replace(' ', ':') + "=" + e.getValue())
                .collect(Collectors.joining(" "));
    }

    private void emit(String line) {
        out.println(line);
        out.flush();
    }
}
