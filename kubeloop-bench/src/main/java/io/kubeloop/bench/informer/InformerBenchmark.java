package io.kubeloop.bench.informer;

import io.kubeloop.api.json.KubeJson;
import io.kubeloop.apiserver.BuiltinControllerMode;
import io.kubeloop.apiserver.EmbeddedApiServer;
import io.kubeloop.apiserver.ListAtZero;
import io.kubeloop.apiserver.ServerOptions;
import io.kubeloop.bench.report.Machine;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The end-to-end informer benchmark (issue 5, "Performance"): in one run, one embedded API server
 * (HTTPS) loaded with realistic Pods, and every contender — kubeloop, fabric8 kubernetes-client,
 * kubernetes-client/java, and the Jackson floors — run one after another, each in its own child JVM
 * with identical flags, against the same server and data. Per contender: start → synced, retained
 * heap after sync, and handler throughput for a stream of MODIFIED events.
 *
 * <p>Run from the repository root after {@code mvn -B -q -pl kubeloop-bench,kubeloop-peers -am
 * process-classes}:
 * <pre>
 * java -Xmx4g -cp kubeloop-bench/target/classes:$(cat kubeloop-bench/target/bench.classpath) \
 *     io.kubeloop.bench.informer.InformerBenchmark [options]
 * </pre>
 * Options: {@code --pods 10000,50000}, {@code --events 100000}, {@code --contenders
 * kubeloop,kubeloop-models,kubeloop-list,kubeloop-list-unthrottled,kubeloop-list-sequential,fabric8,k8s-java,floor,floor-list}, {@code --repeat 1}, {@code --warmup 1} (unmeasured runs of the first contender
 * per size, so that no measured contender meets a server whose code the JIT has not compiled yet), {@code --child-flags
 * "-Xmx2g -XX:+UseG1GC"}, {@code --paged-lists} (the server pages lists at resourceVersion "0" as a
 * kube-apiserver without a watch cache does, so the LIST contenders page through 500 at a time instead of getting one
 * page), {@code --histogram} (a class histogram of
 * every informer child (not the floors) after sync), {@code --jfr kubeloop} (a JFR recording of that contender),
 * {@code --markdown BENCHMARKS.md} (where to write the results; {@code none} to skip), {@code
 * --out target/informer-bench}.
 *
 * <p>Watch events: after a child reports its heap, this JVM freezes it ({@code SIGSTOP}), modifies
 * {@code events} pods (one annotation each, round robin) directly in the server's store — the same
 * commit path as a REST update, minus HTTP — and resumes it ({@code SIGCONT}). The events wait in
 * the server's per-watch buffer (sized to hold them all; the history window too, so a watch that
 * ends meanwhile resumes without a relist) and reach the child as one prepared stream: the
 * handler's rate is the contender's (plus the server's sending), never the writer's, which on this
 * machine commits only about 10,000 modifications per second.
 *
 * <p>Not a test; the machine's load is printed with the results because it moves them.
 */
public final class InformerBenchmark {

    private InformerBenchmark() {}

    public static void main(String[] args) throws Exception {
        Options o = Options.parse(args);
        Files.createDirectories(o.out);
        Instant started = Instant.now();
        String loadBefore = Machine.loadAverage();
        List<RunResult> results = new ArrayList<>();
        StringBuilder notes = new StringBuilder();
        int window = (int) o.events + 10_000;
        ServerOptions serverOptions = ServerOptions.defaults()
                .withWatchBufferSize(window)
                .withHistorySize(window)
                // the Pods name ReplicaSets that are not stored: no garbage collection
                .withBuiltinControllers(BuiltinControllerMode.OFF)
                // --paged-lists: "0" lists honour limit (no watch cache)
                .withListAtZero(o.pagedLists ? ListAtZero.PAGED : ListAtZero.WHOLE_FROM_CACHE);
        try (EmbeddedApiServer server = EmbeddedApiServer.start(serverOptions)) {
            Path kubeconfig = server.writeKubeconfig(o.out.resolve("kubeconfig").toAbsolutePath());
            PodWriter writer = new PodWriter(server);
            writer.createNamespaces();
            int loaded = 0;
            for (int n : o.pods) {
                long t0 = System.nanoTime();
                writer.create(loaded, n);
                loaded = n;
                double load = (System.nanoTime() - t0) / 1e9;
                // Every pod gets the annotation once before any contender runs, so all see the same data.
                double alone = writer.modify(n, n);
                long bytes = 0;
                for (int i = 0; i < n; i++) {
                    // as the writer writes it; the server adds the resourceVersion (some 30 bytes)
                    bytes += KubeJson.mapper().writeValueAsBytes(writer.modified(i, writer.nextSeq())).length;
                }
                String note = String.format(
                        Locale.ROOT,
                        "%,d Pods: average %,d bytes of JSON each (%,.0f MB in all), "
                                + "loaded in %.1f s; the writer alone commits %,.0f modifications/s.",
                        n,
                        bytes / n,
                        bytes / 1e6,
                        load,
                        alone);
                System.out.println(note);
                notes.append("- ").append(note).append('\n');
                for (int w = 0; w < o.warmups; w++) {
                    // Unmeasured: the server's LIST, watch-list and watch fan-out paths are compiled by the JIT
                    // here, not while the first measured contender is timed.
                    RunResult warm = run(o.contenders.get(0), o, kubeconfig, n, writer);
                    System.out.printf(
                            Locale.ROOT,
                            "(warm-up %s, not counted: sync %.2f s, %,.0f events/s)%n",
                            warm.contender().label(),
                            warm.syncSeconds(),
                            warm.eventsPerSecond());
                }
                for (int r = 0; r < o.repeat; r++) {
                    for (Contender c : o.contenders) {
                        RunResult result = run(c, o, kubeconfig, n, writer);
                        results.add(result);
                        System.out.printf(
                                Locale.ROOT,
                                "%-10s %,7d pods  sync %6.2f s (cpu %6.2f s, alloc %,6.0f MiB)  "
                                        + "adds %6.2f s  heap %,6.0f MiB  %,8.0f events/s  (writer %,.0f/s)%n",
                                c.label(),
                                n,
                                result.syncSeconds(),
                                result.syncCpuSeconds(),
                                result.syncAllocatedMiB(),
                                result.addsNanos() / 1e9,
                                result.heapMiB(),
                                result.eventsPerSecond(),
                                result.writerRate());
                    }
                }
            }
        }
        String header = header(o, started, loadBefore, Machine.loadAverage(), notes.toString());
        String md = ResultsReport.markdown(results, o.pods, o.contenders, header);
        System.out.println();
        System.out.println(md);
        Files.writeString(o.out.resolve("results.md"), md);
        if (o.markdown != null) {
            ResultsReport.writeInto(o.markdown, md);
            System.out.println("results written into " + o.markdown);
        }
    }

    private static RunResult run(Contender c, Options o, Path kubeconfig, int pods, PodWriter writer) {
        List<String> flags = new ArrayList<>(o.childFlags);
        if (Runtime.version().feature() >= 24) {
            flags.add("--sun-misc-unsafe-memory-access=allow"); // netty inside fabric8; the same for everyone
        }
        if (o.jfr.contains(c)) {
            flags.add("-XX:StartFlightRecording=filename="
                    + o.out.resolve(c.label() + "-" + pods + ".jfr").toAbsolutePath() + ",settings=profile");
        }
        Duration timeout = Duration.ofMinutes(10);
        settleServerHeap();
        try (ChildJvm child = ChildJvm.start(c, classPath(c), flags, kubeconfig, pods, o.events)) {
            child.expect("BASELINE", timeout);
            String[] synced = child.expect("SYNCED", timeout);
            String[] adds = child.expect("ADDS", timeout);
            String[] heap = child.expect("HEAP", timeout);
            if (o.histogram && c != Contender.FLOOR && c != Contender.FLOOR_LIST) {
                histogram(child.pid(), o.out.resolve("histogram-" + c.label() + "-" + pods + ".txt"));
            }
            child.freeze(true);
            double writerRate;
            try {
                writerRate = writer.modify(pods, o.events);
            } finally {
                child.freeze(false);
            }
            String[] events = child.expect("EVENTS", timeout);
            return new RunResult(
                    c,
                    pods,
                    Long.parseLong(synced[0]),
                    Long.parseLong(adds[0]),
                    Long.parseLong(synced[1]),
                    Long.parseLong(heap[0]),
                    Long.parseLong(events[0]),
                    Long.parseLong(events[1]),
                    writerRate,
                    synced.length > 2 ? Long.parseLong(synced[2]) : -1,
                    synced.length > 3 ? Long.parseLong(synced[3]) : -1);
        }
    }

    /**
     * A full collection in this (the server's) JVM before each contender starts. The writer leaves up
     * to {@code events} fresh object versions in the server's history window; until they are tenured,
     * every young collection copies them again (pauses of 0.1–0.5 s were logged during syncs), and
     * whichever contender runs next would pay for the writer's garbage. After a full collection they
     * sit in the old generation and the server's pauses during a sync are its own.
     */
    private static void settleServerHeap() {
        System.gc();
    }

    private static String classPath(Contender c) {
        return classPath(c.peer());
    }

    /**
     * The class path of a child: this JVM's, or for a peer (fabric8 7.x on Jackson 2) kubeloop-peers'
     * classes and dependencies.
     */
    static String classPath(boolean peer) {
        if (!peer) {
            return System.getProperty("java.class.path");
        }
        Path file = Path.of(System.getProperty("kubeloop.peers.classpath", "kubeloop-peers/target/peer.classpath"));
        try {
            Path classes = file.toAbsolutePath().getParent().resolve("classes");
            return classes + File.pathSeparator + Files.readString(file).trim();
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "fabric8 runs from kubeloop-peers' class path, but " + file
                            + " is missing: build kubeloop-peers first (mvn -pl kubeloop-bench,kubeloop-peers -am process-classes)",
                    e);
        }
    }

    static void histogram(long pid, Path file) {
        Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        try {
            Process p = new ProcessBuilder(jcmd.toString(), Long.toString(pid), "GC.class_histogram")
                    .redirectErrorStream(true)
                    .redirectOutput(file.toFile())
                    .start();
            p.waitFor();
            List<String> lines = Files.readAllLines(file);
            System.out.println("class histogram of pid " + pid + " (" + file + "), top 20:");
            lines.stream().limit(23).forEach(l -> System.out.println("  " + l));
        } catch (IOException e) {
            System.out.println("no histogram: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static String header(Options o, Instant started, String loadBefore, String loadAfter, String notes) {
        return String.format(
                Locale.ROOT,
                """
                Run started %s: %d cores, load average (1/5/15 min) %s at the start and %s at the end; \
                child JVMs: `%s` on Java %s; %,d MODIFIED events per run; %d unmeasured warm-up run(s) \
                of the first contender per size, then %d repeat(s), medians (range) shown; %s.

                %s""",
                started.toString().substring(0, 16).replace('T', ' ') + " UTC",
                Runtime.getRuntime().availableProcessors(),
                loadBefore,
                loadAfter,
                String.join(" ", o.childFlags),
                Runtime.version().feature(),
                o.events,
                o.warmups,
                o.repeat,
                o.pagedLists
                        ? "the server pages LISTs at resourceVersion \"0\" (`--paged-lists`: limit honoured, pages of 500)"
                        : "the server answers LISTs at resourceVersion \"0\" whole (as a watch cache does)",
                notes);
    }

    /** The command line. */
    private record Options(
            List<Integer> pods,
            long events,
            List<Contender> contenders,
            int repeat,
            int warmups,
            List<String> childFlags,
            boolean histogram,
            boolean pagedLists,
            List<Contender> jfr,
            Path markdown,
            Path out) {

        static Options parse(String[] args) {
            List<Integer> pods = List.of(10_000, 50_000);
            long events = 100_000;
            List<Contender> contenders = List.of(
                    Contender.KUBELOOP,
                    Contender.KUBELOOP_MODELS,
                    Contender.KUBELOOP_LIST,
                    Contender.FABRIC8,
                    Contender.K8S_JAVA,
                    Contender.FLOOR,
                    Contender.FLOOR_LIST);
            int repeat = 1;
            int warmups = 1;
            List<String> childFlags = List.of("-Xmx2g", "-XX:+UseG1GC");
            boolean histogram = false;
            boolean pagedLists = false;
            List<Contender> jfr = List.of();
            Path markdown = Files.exists(Path.of("BENCHMARKS.md")) ? Path.of("BENCHMARKS.md") : null;
            Path out = Path.of("kubeloop-bench", "target", "informer-bench");
            for (int i = 0; i < args.length; i++) {
                String a = args[i];
                if (a.equals("--histogram")) {
                    histogram = true;
                    continue;
                }
                if (a.equals("--paged-lists")) {
                    pagedLists = true;
                    continue;
                }
                if (i + 1 >= args.length) {
                    throw new IllegalArgumentException("option " + a + " needs a value");
                }
                String v = args[++i];
                switch (a) {
                    case "--pods" ->
                        pods = Arrays.stream(v.split(","))
                                .map(s -> Integer.parseInt(s.trim().replace("_", "")))
                                .sorted()
                                .toList();
                    case "--events" -> events = Long.parseLong(v.replace("_", ""));
                    case "--contenders" ->
                        contenders = Arrays.stream(v.split(","))
                                .map(s -> Contender.of(s.trim()))
                                .toList();
                    case "--repeat" -> repeat = Integer.parseInt(v);
                    case "--warmup" -> warmups = Integer.parseInt(v);
                    case "--child-flags" -> childFlags = List.of(v.trim().split("\\s+"));
                    case "--jfr" ->
                        jfr = Arrays.stream(v.split(","))
                                .map(s -> Contender.of(s.trim()))
                                .toList();
                    case "--markdown" -> markdown = v.equals("none") ? null : Path.of(v);
                    case "--out" -> out = Path.of(v);
                    default -> throw new IllegalArgumentException("unknown option " + a);
                }
            }
            return new Options(
                    pods, events, contenders, repeat, warmups, childFlags, histogram, pagedLists, jfr, markdown, out);
        }
    }
}
