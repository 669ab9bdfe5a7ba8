package io.kubeloop.bench.server;

import io.kubeloop.bench.report.Machine;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The embedded API server's CPU per create for a client speaking HTTP/1.1 and one speaking HTTP/2:
 * one kubeloop server in a child JVM, a JDK HttpClient forced to each version creating ConfigMaps
 * with the same threads, alternating rounds after a warm-up of both, the server's CPU time from the
 * operating system, after four unmeasured rounds of each, every round started after a full collection
 * in the server. HTTP/1.1 holds a connection per thread; HTTP/2 multiplexes every thread's
 * requests on one connection.
 *
 * <pre>
 * java -cp kubeloop-bench/target/classes:$(cat kubeloop-bench/target/bench.classpath) \
 *     io.kubeloop.bench.server.ProtocolCostBenchmark [creates per round, 5000] [rounds, 8] [threads, 8] [server.jfr]
 * </pre>
 * The fourth argument, when given, is where the server JVM records a JFR profile.
 *
 * <p>Not a test; prints the medians per protocol and their ratio.
 */
public final class ProtocolCostBenchmark {

    /** Unmeasured rounds of each protocol first. */
    private static final int WARMUP_ROUNDS = 4;

    private ProtocolCostBenchmark() {}

    public static void main(String[] args) throws InterruptedException {
        int creates = args.length > 0 ? Integer.parseInt(args[0]) : 5_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 8;
        int threads = args.length > 2 ? Integer.parseInt(args[2]) : 8;
        String loadBefore = Machine.loadAverage();
        List<String> flags = new ArrayList<>(List.of("-Xmx2g", "-XX:+UseG1GC"));
        if (args.length > 3) {
            flags.add("-XX:StartFlightRecording=filename=" + args[3] + ",settings=profile");
        }
        int total = creates * 2 * (rounds + WARMUP_ROUNDS);
        try (ServerProcess server = ServerProcess.start(ServerContender.KUBELOOP, flags, 1_000, Duration.ofMinutes(2));
                Driver h1 = new Driver(server.url(), server.token(), HttpClient.Version.HTTP_1_1);
                Driver h2 = new Driver(server.url(), server.token(), HttpClient.Version.HTTP_2)) {
            h1.createNamespace("bench");
            AtomicLong next = new AtomicLong();
            for (int w = 0; w < WARMUP_ROUNDS; w++) { // the server's JIT takes this long to settle on both paths
                round(server, h1, creates, threads, next);
                round(server, h2, creates, threads, next);
            }
            List<Double> cpu1 = new ArrayList<>();
            List<Double> cpu2 = new ArrayList<>();
            List<Double> rate1 = new ArrayList<>();
            List<Double> rate2 = new ArrayList<>();
            for (int r = 0; r < rounds; r++) {
                double[] a = round(server, h1, creates, threads, next);
                double[] b = round(server, h2, creates, threads, next);
                cpu1.add(a[0]);
                rate1.add(a[1]);
                cpu2.add(b[0]);
                rate2.add(b[1]);
                System.out.printf(
                        Locale.ROOT,
                        "round %d: HTTP/1.1 %,.0f µs/create, %,.0f creates/s; HTTP/2 %,.0f µs/create, %,.0f creates/s%n",
                        r + 1,
                        a[0],
                        a[1],
                        b[0],
                        b[1]);
            }
            System.out.printf(
                    Locale.ROOT,
                    "%n%,d creates per round, %d threads, %d rounds, %,d objects at the end; load %s → %s%n",
                    creates,
                    threads,
                    rounds,
                    total,
                    loadBefore,
                    Machine.loadAverage());
            System.out.println("| client | server CPU per create (µs) | creates/s |");
            System.out.println("|---|---|---|");
            System.out.printf(Locale.ROOT, "| HTTP/1.1 | %,.0f | %,.0f |%n", median(cpu1), median(rate1));
            System.out.printf(Locale.ROOT, "| HTTP/2 | %,.0f | %,.0f |%n", median(cpu2), median(rate2));
            System.out.printf(
                    Locale.ROOT,
                    "| HTTP/2 ÷ HTTP/1.1 | %.2f× | %.2f× |%n",
                    median(cpu2) / median(cpu1),
                    median(rate2) / median(rate1));
        }
    }

    /** One round of creates; returns {server CPU µs per create, creates per second}. */
    private static double[] round(ServerProcess server, Driver driver, int creates, int threads, AtomicLong next) {
        int from = (int) next.getAndAdd(creates);
        fullCollection(server.pid()); // each round starts from a collected heap, so no round inherits another's GC
        Duration cpu0 = server.cpu();
        Duration elapsed = Creates.run(
                driver,
                ConfigMaps.path("bench"),
                from,
                from + creates,
                threads,
                i -> ConfigMaps.json(ConfigMaps.name("cm", i), i),
                new AtomicLong());
        double cpuMicros = server.cpu().minus(cpu0).toNanos() / 1e3 / creates;
        return new double[] {cpuMicros, creates / (elapsed.toNanos() / 1e9)};
    }

    /** Runs a full collection in process {@code pid} ({@code jcmd <pid> GC.run}) and waits for it. */
    private static void fullCollection(long pid) {
        Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        try {
            new ProcessBuilder(jcmd.toString(), Long.toString(pid), "GC.run")
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start()
                    .waitFor();
        } catch (IOException e) {
            throw new UncheckedIOException("jcmd " + pid + " GC.run", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }
}
