package io.kubeloop.bench.workqueue;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Runs {@link WorkQueueBenchmark} as interleaved rounds, for a machine whose load drifts: in every
 * round each benchmark runs once per queue implementation, kubeloop and kubernetes-client/java
 * back to back in fresh forks, and the ratio is taken within the round, so a load change between
 * rounds moves both sides. Prints each round, then per benchmark the median throughput of each
 * side and the median and range of the per-round ratios.
 *
 * <p>Usage: {@code WorkQueueRounds [rounds] [benchmark,...]}, default 5 rounds of
 * {@code addGetDone_4,addGetDone_16}; each fork runs 2 warm-up and 3 measured iterations of 1 s.
 * Extra JVM flags for the forks may be given with the system property
 * {@code kubeloop.bench.jvmArgs} (space separated).
 */
public final class WorkQueueRounds {

    private static final String[] IMPLS = {"kubeloop", "k8s-java"};

    private WorkQueueRounds() {}

    /**
     * Runs the rounds and prints the summary to standard output.
     *
     * @param args optional round count and comma-separated benchmark method names
     * @throws RunnerException if JMH fails
     */
    public static void main(String[] args) throws RunnerException {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        String[] benchmarks = (args.length > 1 ? args[1] : "addGetDone_4,addGetDone_16").split(",");
        String jvmArgs = System.getProperty("kubeloop.bench.jvmArgs", "").trim();
        PrintStream out = System.out;
        Map<String, List<double[]>> scores = new LinkedHashMap<>(); // benchmark -> per round {kubeloop, k8s}
        for (int r = 0; r < rounds; r++) {
            StringBuilder line = new StringBuilder("round " + (r + 1) + ", load " + loadAverage() + ":");
            for (String benchmark : benchmarks) {
                double[] pair = new double[IMPLS.length];
                for (int i = 0; i < IMPLS.length; i++) {
                    pair[i] = run(benchmark, IMPLS[i], jvmArgs);
                }
                scores.computeIfAbsent(benchmark, b -> new ArrayList<>()).add(pair);
                line.append(String.format(
                        Locale.ROOT, "  %s %.2f / %.2f = %.2fx", benchmark, pair[0], pair[1], pair[0] / pair[1]));
            }
            out.println(line);
        }
        out.println("load at the end: " + loadAverage());
        out.println("| benchmark | kubeloop ops/us (median) | k8s-java ops/us (median) | median ratio (range) |");
        out.println("|---|---|---|---|");
        for (Map.Entry<String, List<double[]>> e : scores.entrySet()) {
            List<double[]> runs = e.getValue();
            double[] k = runs.stream().mapToDouble(p -> p[0]).toArray();
            double[] j = runs.stream().mapToDouble(p -> p[1]).toArray();
            double[] ratio =
                    runs.stream().mapToDouble(p -> p[0] / p[1]).sorted().toArray();
            out.printf(
                    Locale.ROOT,
                    "| %s | %.2f | %.2f | %.2fx (%.2f-%.2f) |%n",
                    e.getKey(),
                    median(k),
                    median(j),
                    median(ratio),
                    ratio[0],
                    ratio[ratio.length - 1]);
        }
    }

    private static double run(String benchmark, String impl, String jvmArgs) throws RunnerException {
        OptionsBuilder b = new OptionsBuilder();
        b.include(WorkQueueBenchmark.class.getName() + "\\." + benchmark + "$")
                .param("impl", impl)
                .forks(1)
                .warmupIterations(2)
                .warmupTime(TimeValue.seconds(1))
                .measurementIterations(3)
                .measurementTime(TimeValue.seconds(1))
                .verbosity(org.openjdk.jmh.runner.options.VerboseMode.SILENT);
        if (!jvmArgs.isEmpty()) {
            b.jvmArgsAppend(jvmArgs.split(" +"));
        }
        Options options = b.build();
        RunResult result = new Runner(options).runSingle();
        return result.getPrimaryResult().getScore();
    }

    private static double median(double[] values) {
        double[] s = values.clone();
        java.util.Arrays.sort(s);
        int n = s.length;
        return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
    }

    private static String loadAverage() {
        try {
            return java.nio.file.Files.readString(java.nio.file.Path.of("/proc/loadavg"))
                    .split(" ")[0];
        } catch (java.io.IOException | RuntimeException e) {
            return "?";
        }
    }
}
