package io.kubeloop.bench.race;

import io.kubeloop.bench.report.Machine;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The race: Go's sample-controller written idiomatically in kubeloop, the Java Operator SDK and
 * kubernetes-client/java, each run as an operator in a child JVM with the same flags against an
 * embedded API server of its own, while the harness creates Foos as fast as it can and then rescales
 * them (see {@link RaceRound}). Per contender: time until every Foo has its Deployment and an
 * up-to-date status, the operator's CPU time, heap and API requests per Foo, and a check of the end
 * state.
 *
 * <p>Run from the repository root after {@code mvn -B -q -pl kubeloop-bench,kubeloop-peers -am
 * process-classes}:
 * <pre>
 * java -Xmx4g -cp kubeloop-bench/target/classes:$(cat kubeloop-bench/target/bench.classpath) \
 *     io.kubeloop.bench.race.RaceBenchmark [options]
 * </pre>
 * Options: {@code --foos 1000} (comma-separated sizes, e.g. {@code 1000,10000}), {@code --contenders
 * kubeloop,josdk,k8s-java,floor}, {@code --repeat 3} (rounds per contender, the contenders' order rotated
 * each round), {@code --warmup 1} (unmeasured rounds of the first contender, so that the harness JVM's
 * server code is compiled before anything is timed; every operator JVM starts with no compiled code, as a
 * deployed operator does, from its AOT cache unless {@code --aot off}), {@code --child-flags "-Xmx1g
 * -XX:+UseG1GC"}, {@code --concurrency 32} (the harness's requests in flight), {@code --timeout 300}
 * (seconds a phase may take), {@code --jfr kubeloop} (a JFR profile of each round of those contenders, in
 * the output directory), {@code --histogram kubeloop,josdk} (a class histogram of those operators after
 * their heap was measured, in the output directory), {@code --aot on} (each contender's JVM started with
 * the JDK's ahead-of-time cache, trained by one unmeasured round of that contender: see {@link AotCaches};
 * the default on JDK 24 and later, {@code off} otherwise), {@code --markdown BENCHMARKS.md} ({@code none}
 * to skip), {@code --out kubeloop-bench/target/race-bench}.
 *
 * <p>Not a test; the machine's load is printed with the results because it moves them.
 */
public final class RaceBenchmark {

    private RaceBenchmark() {}

    public static void main(String[] args) throws IOException {
        Options o = Options.parse(args);
        Files.createDirectories(o.out);
        Instant started = Instant.now();
        String loadBefore = Machine.loadAverage();
        List<String> flags = RaceRound.operatorFlags(o.childFlags);
        RaceRound round =
                new RaceRound(flags, Set.copyOf(o.jfr), Set.copyOf(o.histograms), o.concurrency, o.timeout, o.out);
        List<RaceResult> results = new ArrayList<>();
        List<String> failures = new ArrayList<>();
        AotCaches aot = new AotCaches(o.out);
        for (int n : o.foos) {
            if (o.aot) {
                for (RaceContender c : o.contenders) {
                    try {
                        aot.train(round, c, n);
                    } catch (RuntimeException e) {
                        String failure = c.label() + ": no AOT cache (" + e.getMessage() + ")";
                        System.out.println("FAILED " + failure);
                        failures.add(failure);
                    }
                }
            }
            for (int w = 0; w < o.warmups; w++) {
                RaceContender c = o.contenders.get(0);
                RaceResult warm = runOne(round, c, n, aot, failures, true);
                if (warm != null) {
                    System.out.printf(
                            Locale.ROOT,
                            "(warm-up %s, not counted: create %.2f s, scale %.2f s)%n",
                            c.label(),
                            warm.create().seconds(),
                            warm.scale().seconds());
                }
            }
            for (int r = 0; r < o.repeat; r++) {
                for (int k = 0; k < o.contenders.size(); k++) {
                    RaceContender c = o.contenders.get((k + r) % o.contenders.size());
                    RaceResult result = runOne(round, c, n, aot, failures, false);
                    if (result != null) {
                        results.add(result);
                        print(result);
                    }
                }
            }
        }
        String header = header(o, flags, started, loadBefore, Machine.loadAverage());
        String md = RaceReport.markdown(results, o.foos, o.contenders, failures, header);
        System.out.println();
        System.out.println(md);
        Files.writeString(o.out.resolve("results.md"), md);
        if (o.markdown != null) {
            RaceReport.writeInto(o.markdown, md);
            System.out.println("results written into " + o.markdown);
        }
    }

    /** One round; a round that fails outright (the operator died, never got ready…) is recorded, not thrown. */
    private static RaceResult runOne(
            RaceRound round, RaceContender c, int n, AotCaches aot, List<String> failures, boolean warmup) {
        System.gc(); // the previous round's server is garbage: collect it before this round is timed
        try {
            return round.run(c, n, aot.launchFor(c));
        } catch (RuntimeException e) {
            String failure =
                    String.format(Locale.ROOT, "%s, %,d Foos%s: %s", c.label(), n, warmup ? " (warm-up)" : "", e);
            System.out.println("FAILED " + failure);
            failures.add(failure);
            return null;
        }
    }

    private static void print(RaceResult r) {
        System.out.printf(
                Locale.ROOT,
                "%-9s %,6d Foos  ready %5.2f s  create %s  scale %s  cpu %6.2f s (server %6.2f s; operator's JIT %.1f s, GC %.1f s"
                        + " since start)  heap %4.0f → %4.0f MiB  threads %3d  requests/Foo %.2f (writes %.2f)  end state %s%n",
                r.contender().label(),
                r.foos(),
                r.readyNanos() / 1e9,
                phase(r.create()),
                phase(r.scale()),
                r.workCpuSeconds(),
                r.serverCpuSeconds(),
                r.jitMillis() / 1e3,
                r.gcMillis() / 1e3,
                r.idleHeapMiB(),
                r.heapMiB(),
                r.threads(),
                r.requestsPerFoo(),
                r.writesPerFoo(),
                r.endState().ok()
                        ? "ok"
                        : r.endState().wrong() + " of " + r.endState().checked() + " wrong "
                                + r.endState().examples());
        System.out.println("          per Foo: " + RaceReport.requestLine(r));
        if (!r.operatorStats().isEmpty()) {
            System.out.println("          operator: " + r.operatorStats());
        }
    }

    private static String phase(PhaseResult p) {
        if (!p.ran()) {
            return "not run";
        }
        return p.converged()
                ? String.format(Locale.ROOT, "%6.2f s (sent in %.2f s)", p.nanos() / 1e9, p.sendNanos() / 1e9)
                : String.format(Locale.ROOT, "NOT CONVERGED (%,d after %.0f s)", p.convergedFoos(), p.nanos() / 1e9);
    }

    private static String header(Options o, List<String> flags, Instant started, String loadBefore, String loadAfter) {
        return String.format(
                Locale.ROOT,
                """
                Run started %s: %d cores, load average (1/5/15 min) %s at the start and %s at the end; \
                operator JVMs: `%s` on Java %s; a fresh embedded API server (in the harness JVM) and a fresh \
                operator process per round; the harness creates the Foos, then rescales them, with %d requests \
                in flight; %d unmeasured warm-up round(s) of the first contender, then %d round(s) each, order \
                rotated, medians (range) shown; a phase may take %d s; %s.
                """,
                started.toString().substring(0, 16).replace('T', ' ') + " UTC",
                Runtime.getRuntime().availableProcessors(),
                loadBefore,
                loadAfter,
                String.join(" ", flags),
                Runtime.version().feature(),
                o.concurrency,
                o.warmups,
                o.repeat,
                o.timeout.toSeconds(),
                o.aot
                        ? "every operator JVM starts with the JDK's AOT cache (`-XX:AOTCache`), made for that contender"
                                + " from one unmeasured training round of "
                                + String.format(Locale.ROOT, "%,d", AotCaches.TRAINING_FOOS)
                                + " Foos (or fewer when the race runs fewer) with the same flags"
                        : "no AOT cache");
    }

    /** The command line. */
    private record Options(
            List<Integer> foos,
            List<RaceContender> contenders,
            int repeat,
            int warmups,
            List<String> childFlags,
            int concurrency,
            Duration timeout,
            List<RaceContender> jfr,
            List<RaceContender> histograms,
            boolean aot,
            Path markdown,
            Path out) {

        static Options parse(String[] args) {
            List<Integer> foos = List.of(1_000);
            List<RaceContender> contenders =
                    Arrays.stream(Framework.values()).map(RaceContender::of).toList();
            int repeat = 3;
            int warmups = 1;
            List<String> childFlags = List.of("-Xmx1g", "-XX:+UseG1GC");
            int concurrency = 32;
            Duration timeout = Duration.ofSeconds(300);
            List<RaceContender> jfr = List.of();
            List<RaceContender> histograms = List.of();
            boolean aot = AotCaches.supported();
            Path markdown = Files.exists(Path.of("BENCHMARKS.md")) ? Path.of("BENCHMARKS.md") : null;
            Path out = Path.of("kubeloop-bench", "target", "race-bench");
            for (int i = 0; i < args.length; i++) {
                String a = args[i];
                if (i + 1 >= args.length) {
                    throw new IllegalArgumentException("option " + a + " needs a value");
                }
                String v = args[++i];
                switch (a) {
                    case "--foos" ->
                        foos = Arrays.stream(v.split(","))
                                .map(s -> Integer.parseInt(s.trim().replace("_", "")))
                                .sorted()
                                .toList();
                    case "--contenders" ->
                        contenders = Arrays.stream(v.split(","))
                                .map(s -> RaceContender.of(s.trim()))
                                .toList();
                    case "--repeat" -> repeat = Integer.parseInt(v);
                    case "--warmup" -> warmups = Integer.parseInt(v);
                    case "--child-flags" -> childFlags = List.of(v.trim().split("\\s+"));
                    case "--concurrency" -> concurrency = Integer.parseInt(v);
                    case "--timeout" -> timeout = Duration.ofSeconds(Long.parseLong(v));
                    case "--jfr" ->
                        jfr = Arrays.stream(v.split(","))
                                .map(s -> RaceContender.of(s.trim()))
                                .toList();
                    case "--histogram" ->
                        histograms = Arrays.stream(v.split(","))
                                .map(s -> RaceContender.of(s.trim()))
                                .toList();
                    case "--aot" -> {
                        aot = switch (v) {
                            case "on" -> true;
                            case "off" -> false;
                            default -> throw new IllegalArgumentException("--aot takes on or off, got " + v);
                        };
                        if (aot && !AotCaches.supported()) {
                            throw new IllegalArgumentException("--aot on needs JDK 24 or later");
                        }
                    }
                    case "--markdown" -> markdown = v.equals("none") ? null : Path.of(v);
                    case "--out" -> out = Path.of(v);
                    default -> throw new IllegalArgumentException("unknown option " + a);
                }
            }
            return new Options(
                    foos,
                    contenders,
                    repeat,
                    warmups,
                    childFlags,
                    concurrency,
                    timeout,
                    jfr,
                    histograms,
                    aot,
                    markdown,
                    out);
        }
    }
}
