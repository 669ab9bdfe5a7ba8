package io.kubeloop.bench.race;

import io.kubeloop.apiserver.EmbeddedApiServer;
import io.kubeloop.apiserver.ServerOptions;
import io.kubeloop.apiserver.SimulatedCluster;
import io.kubeloop.client.KubeClient;
import io.kubeloop.peers.InformerBenchReporter;
import io.kubeloop.samples.samplecontroller.FooCrd;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.UnaryOperator;

/**
 * One round of one contender, on a server and an operator process of its own: starts an embedded API
 * server, installs the Foo CRD and the race's namespace, starts the harness's
 * {@link ConvergenceTracker} and the contender's {@link OperatorProcess}; once the operator runs, takes
 * its idle heap and request counts, then times the two phases — the harness creates the Foos, then
 * (if they converged) rescales them — and ends with the operator's request counts, heap, CPU time and
 * the {@link EndState} check.
 *
 * <p>The server's watch buffer and history hold twenty events per Foo (at least its defaults), so no
 * operator's watch is ended for falling behind a burst: the race measures the operators, not how the
 * server treats a slow watcher.
 *
 * @param flags the operator JVM's flags
 * @param jfr the contenders whose operator JVM records a JFR profile ({@code settings=profile}) into
 *     {@code dir}, as {@code <contender>-<foos>-<epoch ms>.jfr}
 * @param histograms the contenders whose operator's class histogram ({@code jcmd GC.class_histogram}) is
 *     written into {@code dir} after its heap was measured, as {@code histogram-<contender>-<foos>-<epoch ms>.txt}
 * @param concurrency the harness's requests in flight
 * @param timeout how long each phase may take before the contender counts as not converged
 * @param dir where the kubeconfigs go
 */
record RaceRound(
        List<String> flags,
        Set<RaceContender> jfr,
        Set<RaceContender> histograms,
        int concurrency,
        Duration timeout,
        Path dir) {

    private static final Duration START = Duration.ofMinutes(3);
    private static final Duration ANSWER = Duration.ofMinutes(1);
    /** How long the operator must make no request before its counts are read. */
    private static final Duration QUIET = Duration.ofSeconds(2);
    /** The longest wait for that quiet after convergence. */
    private static final Duration SETTLE = Duration.ofSeconds(60);

    /**
     * {@code base} plus what every operator JVM needs on this JDK: on 24 and later, leave
     * {@code sun.misc.Unsafe}'s memory access allowed without a warning (netty, inside fabric8's
     * vert.x client, uses it) — the same flags for all.
     */
    static List<String> operatorFlags(List<String> base) {
        List<String> flags = new ArrayList<>(base);
        if (Runtime.version().feature() >= 24) {
            flags.add("--sun-misc-unsafe-memory-access=allow");
        }
        return List.copyOf(flags);
    }

    /** This round's settings without profiles or histograms: for rounds that only train an operator JVM. */
    RaceRound unrecorded() {
        return new RaceRound(flags, Set.of(), Set.of(), concurrency, timeout, dir);
    }

    /** How an operator JVM is launched beyond the round's flags: more flags, and its class path mapped. */
    record Launch(List<String> flags, UnaryOperator<String> classPath) {

        /** The round's flags and the contender's class path as they are. */
        static Launch plain() {
            return new Launch(List.of(), UnaryOperator.identity());
        }
    }

    /** Runs {@code contender} against {@code foos} Foos, its JVM launched as {@code launch} says (with an AOT cache, say). */
    RaceResult run(RaceContender contender, int foos, Launch launch) {
        int window = Math.max(10_000, 20 * foos);
        // Deployments report their replicas available without Pods: the race measures operators, not kubelets
        ServerOptions options = ServerOptions.defaults()
                .withWatchBufferSize(Math.max(1_000, 20 * foos))
                .withHistorySize(window)
                .withCluster(SimulatedCluster.defaults().withWorkloads(SimulatedCluster.Workloads.STATUS_ONLY));
        try (EmbeddedApiServer server = EmbeddedApiServer.start(options)) {
            KubeClient harness = server.client();
            FooCrd.install(harness, Duration.ofMinutes(1));
            FooWorkload.createNamespace(harness);
            Path kubeconfig = server.writeKubeconfig(
                    dir.resolve("kubeconfig-" + contender.label()).toAbsolutePath());
            FooWorkload workload = new FooWorkload(harness, foos, concurrency);
            try (ConvergenceTracker tracker = new ConvergenceTracker(harness);
                    OperatorProcess operator = OperatorProcess.start(
                            contender, flags(contender, foos, launch.flags()), launch.classPath(), kubeconfig)) {
                long ready = Long.parseLong(operator.expect("READY", START)[0]);
                operator.send("HEAP");
                long idleHeap = Long.parseLong(operator.expect("HEAP", ANSWER)[0]);
                operator.send("COUNTS");
                Map<String, Long> startup = counts(operator.expect("COUNTS", ANSWER));

                Map<String, Integer> created = workload.afterCreate();
                Duration jitBefore = operator.jitCpu();
                PhaseResult create = phase(tracker, operator, created, workload::create);
                Map<String, Integer> expected = created;
                PhaseResult scale = PhaseResult.notRun();
                if (create.converged()) {
                    expected = workload.afterScale();
                    scale = phase(tracker, operator, expected, workload::scale);
                }
                long jitWork = operator.jitCpu().minus(jitBefore).toNanos();
                long cpuTotal = operator.cpu().toNanos();
                Map<String, Long> work = minus(settledCounts(operator), startup);
                operator.send("STATS");
                String stats = String.join(" ", operator.expect("STATS", ANSWER));
                operator.send("HEAP");
                String[] heap = operator.expect("HEAP", ANSWER);
                if (histograms.contains(contender)) {
                    histogram(
                            operator.pid(),
                            dir.resolve("histogram-" + contender.label() + "-" + foos + "-" + System.currentTimeMillis()
                                    + ".txt"));
                }
                EndState end = EndState.check(harness, expected);
                return new RaceResult(
                        contender,
                        foos,
                        ready,
                        idleHeap,
                        jitWork,
                        create,
                        scale,
                        Long.parseLong(heap[0]),
                        Integer.parseInt(heap[1]),
                        Long.parseLong(heap[2]),
                        Long.parseLong(heap[3]),
                        cpuTotal,
                        startup,
                        work,
                        stats,
                        end);
            }
        }
    }

    private List<String> flags(RaceContender contender, int foos, List<String> extraFlags) {
        List<String> withJfr = new ArrayList<>(flags);
        withJfr.addAll(extraFlags);
        if (!jfr.contains(contender)) {
            return withJfr;
        }
        withJfr.add("-XX:StartFlightRecording=filename="
                + dir.resolve(contender.label() + "-" + foos + "-" + System.currentTimeMillis() + ".jfr")
                        .toAbsolutePath()
                + ",settings=profile");
        return withJfr;
    }

    private PhaseResult phase(
            ConvergenceTracker tracker, OperatorProcess operator, Map<String, Integer> expected, Runnable requests) {
        tracker.expect(expected);
        long cpu0 = operator.cpu().toNanos();
        long serverCpu0 = InformerBenchReporter.processCpuNanos();
        long t0 = System.nanoTime();
        requests.run();
        long sent = System.nanoTime() - t0;
        ConvergenceTracker.Outcome outcome = tracker.await(Duration.ofNanos(Math.max(0, timeout.toNanos() - sent)));
        long cpu = operator.cpu().toNanos() - cpu0;
        long serverCpu = InformerBenchReporter.processCpuNanos() - serverCpu0;
        long nanos = outcome.converged() ? outcome.atNanos() - t0 : System.nanoTime() - t0;
        return new PhaseResult(true, outcome.converged(), nanos, outcome.count(), sent, cpu, serverCpu);
    }

    /** Writes the class histogram of process {@code pid} (which runs a full collection first) to {@code file}. */
    private static void histogram(long pid, Path file) {
        Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        try {
            Process p = new ProcessBuilder(jcmd.toString(), Long.toString(pid), "GC.class_histogram")
                    .redirectErrorStream(true)
                    .redirectOutput(file.toFile())
                    .start();
            p.waitFor();
        } catch (IOException e) {
            System.out.println("no histogram of " + pid + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * The operator's request counts once it has made none for {@link #QUIET} (at most {@link #SETTLE}
     * after convergence): what it still sends after the end state is reached (Events queued during the
     * burst, say) is its work as much as what it sent before.
     */
    private static Map<String, Long> settledCounts(OperatorProcess operator) {
        long deadline = System.nanoTime() + SETTLE.toNanos();
        Map<String, Long> last = null;
        long quietSince = System.nanoTime();
        while (true) {
            operator.send("COUNTS");
            Map<String, Long> now = counts(operator.expect("COUNTS", ANSWER));
            if (!now.equals(last)) {
                last = now;
                quietSince = System.nanoTime();
            } else if (System.nanoTime() - quietSince >= QUIET.toNanos() || System.nanoTime() > deadline) {
                return now;
            }
            try {
                Thread.sleep(250);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return now;
            }
        }
    }

    /** {@code verb:resource=n} fields → {@code "verb resource"} → n. */
    private static Map<String, Long> counts(String[] fields) {
        Map<String, Long> m = new TreeMap<>();
        for (String f : fields) {
            int eq = f.lastIndexOf('=');
            m.put(f.substring(0, eq).replace(':', ' '), Long.parseLong(f.substring(eq + 1)));
        }
        return m;
    }

    private static Map<String, Long> minus(Map<String, Long> end, Map<String, Long> start) {
        Map<String, Long> m = new HashMap<>();
        end.forEach((k, v) -> {
            long d = v - start.getOrDefault(k, 0L);
            if (d != 0) {
                m.put(k, d);
            }
        });
        return new TreeMap<>(m);
    }
}
