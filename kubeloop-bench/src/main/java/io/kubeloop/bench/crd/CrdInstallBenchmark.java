package io.kubeloop.bench.crd;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.GroupVersionResource;
import io.kubeloop.api.ResourceScope;
import io.kubeloop.api.yaml.KubeYaml;
import io.kubeloop.apiserver.EmbeddedApiServer;
import io.kubeloop.apiserver.ServerOptions;
import io.kubeloop.apiserver.SimulatedCluster;
import io.kubeloop.bench.report.Machine;
import io.kubeloop.client.ResourceClient;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Stream;
import tools.jackson.databind.JsonNode;

/**
 * Time to install CustomResourceDefinitions with CEL validation rules into the embedded API server: from
 * the first create until every CRD has {@code Established=True}, the server already running. By default
 * the Gateway API's standard-channel CRDs (ten CRDs, 295 rules over their versions), which the server
 * type-checks, estimates the cost of and prepares before it accepts them.
 *
 * <p>Two figures, each the median of {@code --runs} installs into a fresh server:
 * <ul>
 *   <li><b>first install in a JVM</b>: each run in a fresh child JVM (same flags), so the JIT and class
 *       loading are as cold as in a test JVM installing its CRDs;</li>
 *   <li><b>warm</b>: in this JVM, after {@code --warmup} installs (a JVM that installed CRDs before, as a
 *       test suite's later test classes).</li>
 * </ul>
 * The process's CPU time over the install is printed beside the wall-clock time: it moves much less
 * with the load of a shared machine. So is the server's start before it (from {@code EmbeddedApiServer.start}
 * until a client's first list is answered) and the sum of both, since a fresh JVM's one-time costs can move
 * between the two: the server readies CEL in the background while it starts.
 *
 * <p>Run from the repository root after {@code mvn -B -q -pl kubeloop-bench,kubeloop-peers -am package
 * -DskipTests}:
 * <pre>
 * java -cp kubeloop-bench/target/classes:$(cat kubeloop-bench/target/bench.classpath) \
 *     io.kubeloop.bench.crd.CrdInstallBenchmark [--runs 5] [--warmup 3]
 *     [--crds kubeloop-apiserver/src/test/resources/gateway-api/crds]
 * </pre>
 *
 * <p>Not a test.
 */
public final class CrdInstallBenchmark {

    private static final GroupVersionResource CRDS =
            new GroupVersionResource("apiextensions.k8s.io", "v1", "customresourcedefinitions");

    private CrdInstallBenchmark() {}

    /** One install: wall-clock and CPU milliseconds, and the wall-clock milliseconds of the server's start. */
    private record Install(long wallMillis, long cpuMillis, long startMillis) {}

    public static void main(String[] args) throws Exception {
        int runs = 5;
        int warmup = 3;
        Path crds = Path.of("kubeloop-apiserver/src/test/resources/gateway-api/crds");
        boolean child = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--runs" -> runs = Integer.parseInt(args[++i]);
                case "--warmup" -> warmup = Integer.parseInt(args[++i]);
                case "--crds" -> crds = Path.of(args[++i]);
                case "--child" -> child = true;
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        List<DynamicObject> definitions = read(crds);
        if (child) {
            Install once = install(definitions);
            System.out.println("install " + once.wallMillis() + " " + once.cpuMillis() + " " + once.startMillis());
            return;
        }
        String loadBefore = Machine.loadAverage();
        System.out.printf(
                Locale.ROOT,
                "%d CRDs from %s; %d CPUs; load %s%n",
                definitions.size(),
                crds,
                Runtime.getRuntime().availableProcessors(),
                loadBefore);
        List<Install> cold = new ArrayList<>();
        for (int r = 0; r < runs; r++) {
            Install i = inChildJvm(crds);
            System.out.printf(
                    Locale.ROOT,
                    "first install in a JVM, run %d: %d ms (cpu %d ms), server start %d ms%n",
                    r + 1,
                    i.wallMillis(),
                    i.cpuMillis(),
                    i.startMillis());
            cold.add(i);
        }
        for (int r = 0; r < warmup; r++) {
            install(definitions);
        }
        List<Install> warm = new ArrayList<>();
        for (int r = 0; r < runs; r++) {
            Install i = install(definitions);
            System.out.printf(
                    Locale.ROOT,
                    "warm, run %d: %d ms (cpu %d ms), server start %d ms%n",
                    r + 1,
                    i.wallMillis(),
                    i.cpuMillis(),
                    i.startMillis());
            warm.add(i);
        }
        System.out.println();
        System.out.println("| install of " + definitions.size()
                + " CRDs | median | min | max | median CPU | median server start | median start + install |");
        System.out.println("|---|---|---|---|---|---|---|");
        row("first in a JVM", cold);
        row("warm (after " + warmup + ")", warm);
        System.out.println();
        System.out.println("load average before / after: " + loadBefore + " / " + Machine.loadAverage());
    }

    private static void row(String label, List<Install> installs) {
        List<Long> wall = installs.stream().map(Install::wallMillis).sorted().toList();
        List<Long> cpu = installs.stream().map(Install::cpuMillis).sorted().toList();
        List<Long> start = installs.stream().map(Install::startMillis).sorted().toList();
        List<Long> total = installs.stream()
                .map(i -> i.startMillis() + i.wallMillis())
                .sorted()
                .toList();
        System.out.printf(
                Locale.ROOT,
                "| %s | %d ms | %d ms | %d ms | %d ms | %d ms | %d ms |%n",
                label,
                wall.get(wall.size() / 2),
                wall.getFirst(),
                wall.getLast(),
                cpu.get(cpu.size() / 2),
                start.get(start.size() / 2),
                total.get(total.size() / 2));
    }

    /** Starts a server, then times creating every CRD and waiting until all are established. */
    private static Install install(List<DynamicObject> definitions) throws InterruptedException {
        long s0 = System.nanoTime();
        try (EmbeddedApiServer server =
                EmbeddedApiServer.start(ServerOptions.defaults().withCluster(SimulatedCluster.off()))) {
            ResourceClient<DynamicObject> crds =
                    server.client().resource(CRDS, ResourceScope.CLUSTER, DynamicObject.class);
            crds.list(); // the client's connection is open before the clock starts
            long startMillis = (System.nanoTime() - s0) / 1_000_000;
            long cpu0 = cpuMillis();
            long t0 = System.nanoTime();
            Set<String> waiting = new HashSet<>();
            for (DynamicObject crd : definitions) {
                crds.create(crd);
                waiting.add(crd.metadata().name());
            }
            while (!waiting.isEmpty()) {
                for (DynamicObject crd : crds.list().items()) {
                    if (established(crd.node().path("status").path("conditions"))) {
                        waiting.remove(crd.metadata().name());
                    }
                }
                if (!waiting.isEmpty()) {
                    Thread.sleep(2);
                }
            }
            return new Install((System.nanoTime() - t0) / 1_000_000, cpuMillis() - cpu0, startMillis);
        }
    }

    private static boolean established(JsonNode conditions) {
        for (JsonNode c : conditions) {
            if ("Established".equals(c.path("type").asString())
                    && "True".equals(c.path("status").asString())) {
                return true;
            }
        }
        return false;
    }

    private static Install inChildJvm(Path crds) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse("java"));
        command.addAll(ProcessHandle.current()
                .info()
                .arguments()
                .map(CrdInstallBenchmark::jvmFlags)
                .orElse(List.of()));
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(CrdInstallBenchmark.class.getName());
        command.add("--child");
        command.add("--crds");
        command.add(crds.toString());
        Process p = new ProcessBuilder(command)
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        Install result = null;
        try (BufferedReader out =
                new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = out.readLine()) != null) {
                if (line.startsWith("install ")) {
                    String[] f = line.split(" ");
                    result = new Install(Long.parseLong(f[1]), Long.parseLong(f[2]), Long.parseLong(f[3]));
                }
            }
        }
        if (p.waitFor() != 0 || result == null) {
            throw new IllegalStateException("the child JVM failed (exit " + p.exitValue() + ")");
        }
        return result;
    }

    /** The JVM flags among this process's arguments (those before the main class), e.g. {@code -Xmx2g}. */
    private static List<String> jvmFlags(String[] arguments) {
        List<String> flags = new ArrayList<>();
        for (int i = 0; i < arguments.length; i++) {
            String a = arguments[i];
            if (a.equals("-cp") || a.equals("-classpath") || a.equals("--class-path")) {
                i++;
            } else if (a.startsWith("-")) {
                flags.add(a);
            } else {
                break;
            }
        }
        return flags;
    }

    private static long cpuMillis() {
        return ProcessHandle.current().info().totalCpuDuration().orElseThrow().toMillis();
    }

    private static List<DynamicObject> read(Path crds) throws IOException {
        List<DynamicObject> out = new ArrayList<>();
        try (Stream<Path> files = Files.list(crds)) {
            for (Path f :
                    files.filter(p -> p.toString().endsWith(".yaml")).sorted().toList()) {
                out.addAll(KubeYaml.readAll(Files.readString(f)));
            }
        }
        return out;
    }
}
