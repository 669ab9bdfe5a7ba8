package io.kubeloop.bench.server;

import io.kubeloop.bench.report.Machine;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The end-to-end API-server benchmark (issue 3): kubeloop's embedded API server next to fabric8 7.8.0's
 * {@code KubernetesMockServer} in CRUD mode, in one run, with one client and one data set. Each server
 * runs in its own child JVM with identical flags, one after the other; the driver (the JDK
 * {@code HttpClient}, HTTP/1.1 over TLS, see {@link Driver}) runs in this JVM. Per server:
 * <ol>
 *   <li>creates/s: {@code --creates} small ConfigMaps by {@code --concurrency} client threads;</li>
 *   <li>more creates up to {@code --objects}, then {@code --list-repeat} unpaginated LISTs of them: time to
 *       first byte, time to the body parsed, bytes;</li>
 *   <li>watch fan-out: {@code --watchers} watches of an empty namespace, then {@code --events} creates
 *       there by {@code --concurrency} threads; time from the first write to the last delivery, every
 *       watcher checked for every event in order (count and last resourceVersion). kubeloop over each
 *       transport of {@code --transports} (chunked HTTP and WebSocket), fabric8 over WebSocket, the only
 *       one its mock serves.</li>
 * </ol>
 * The server's CPU time per phase (from {@code /proc}) is reported next to wall-clock figures, being much
 * less sensitive to the load of a shared machine.
 *
 * <p>Run from the repository root after {@code mvn -B -q -pl kubeloop-bench,kubeloop-peers -am
 * process-classes}:
 * <pre>
 * java -Xmx4g -cp kubeloop-bench/target/classes:$(cat kubeloop-bench/target/bench.classpath) \
 *     io.kubeloop.bench.server.ServerBenchmark [--full] [options]
 * </pre>
 * Options (defaults are a quick run): {@code --creates 2000}, {@code --objects 5000}, {@code --watchers 100},
 * {@code --events 1000}, {@code --full} (the sizes, except 1,000 events instead of 10,000: 20,000 /
 * 50,000 / 1,000 / 1,000; writes BENCHMARKS.md; add {@code --events 10000} after it for the fan-out), {@code --concurrency 8}, {@code --list-repeat 3}, {@code --contenders kubeloop,fabric8},
 * {@code --transports http,ws}, {@code --child-flags "-Xmx3g -XX:+UseG1GC"}, {@code --markdown FILE|none},
 * {@code --out kubeloop-bench/target/server-bench}.
 *
 * <p>Not a test; the machine's load is printed with the results because it moves them.
 */
public final class ServerBenchmark {

    private ServerBenchmark() {}

    public static void main(String[] args) throws Exception {
        System.setProperty("jdk.internal.httpclient.disableHostnameVerification", "true");
        Options o = Options.parse(args);
        Files.createDirectories(o.out);
        Instant started = Instant.now();
        String loadBefore = Machine.loadAverage();
        List<ContenderResult> results = new ArrayList<>();
        for (ServerContender c : o.contenders) {
            System.out.println(c.label() + ":");
            results.add(run(c, o));
        }
        String header = header(o, started, loadBefore, Machine.loadAverage());
        String md = ServerReport.markdown(results, header);
        System.out.println();
        System.out.println(md);
        Files.writeString(o.out.resolve("results.md"), md);
        if (o.markdown != null) {
            ServerReport.writeInto(o.markdown, md);
            System.out.println("results written into " + o.markdown);
        }
    }

    /** Runs every phase against {@code c}'s server (package-private for the smoke test). */
    static ContenderResult run(ServerContender c, Options o) throws InterruptedException {
        List<String> flags = new ArrayList<>(o.childFlags);
        if (Runtime.version().feature() >= 24) {
            flags.add("--sun-misc-unsafe-memory-access=allow"); // netty inside fabric8's mock; the same for both
        }
        try (ServerProcess server = ServerProcess.start(c, flags, o.events + 1_000, Duration.ofMinutes(2));
                Driver driver = new Driver(server.url(), server.token())) {
            driver.createNamespace("warmup");
            driver.createNamespace("bench");
            AtomicLong rv = new AtomicLong();
            // The same short warm-up for everyone: JIT the create and list paths.
            Creates.run(
                    driver,
                    ConfigMaps.path("warmup"),
                    0,
                    o.warmup,
                    o.concurrency,
                    i -> ConfigMaps.json(ConfigMaps.name("warm", i), i),
                    rv);
            for (int i = 0; i < 3; i++) {
                driver.list(ConfigMaps.path("warmup"));
            }
            CreateResult creates = creates(driver, server, 0, o.creates, o);
            System.out.printf(
                    Locale.ROOT,
                    "  %,d creates: %,.0f/s, %,.0f µs server CPU each%n",
                    creates.count(),
                    creates.perSecond(),
                    creates.cpuMicrosEach());
            CreateResult load = creates(driver, server, o.creates, Math.max(o.creates, o.objects), o);
            System.out.printf(Locale.ROOT, "  %,d more creates: %,.0f/s%n", load.count(), load.perSecond());
            List<ListResult> lists = new ArrayList<>();
            for (int i = 0; i < o.listRepeat; i++) {
                Duration cpu0 = server.cpu();
                ListResult l = driver.list(ConfigMaps.path("bench"));
                l = l.withServerCpu(server.cpu().minus(cpu0));
                if (l.items() != load.to()) {
                    throw new IllegalStateException(
                            c.label() + " listed " + l.items() + " items, expected " + load.to());
                }
                lists.add(l);
                System.out.printf(
                        Locale.ROOT,
                        "  LIST %,d: first byte %,d ms, parsed %,d ms, %,.1f MB, server CPU %,d ms%n",
                        l.items(),
                        l.firstByte().toMillis(),
                        l.parsed().toMillis(),
                        l.bytes() / 1e6,
                        l.serverCpu().toMillis());
            }
            List<FanOutResult> fanOuts = new ArrayList<>();
            for (Transport t : o.transports) {
                if (!c.transports().contains(t)) {
                    continue;
                }
                FanOutResult f = FanOut.run(
                        driver,
                        server,
                        t,
                        "fanout-" + t.name().toLowerCase(Locale.ROOT),
                        o.watchers,
                        o.events,
                        o.concurrency);
                fanOuts.add(f);
                System.out.printf(
                        Locale.ROOT,
                        "  fan-out %s: %,.2f s to the last delivery, %,.0f deliveries/s, "
                                + "%.2f µs server CPU each, writes %.2f s, %d of %d watchers verified%s%n",
                        t.label(),
                        f.firstWriteToLastDelivery().toNanos() / 1e9,
                        f.deliveriesPerSecond(),
                        f.cpuNanosPerDelivery() / 1e3,
                        f.writes().toNanos() / 1e9,
                        f.verified(),
                        f.watchers(),
                        f.problem() == null ? "" : " (" + f.problem() + ")");
            }
            return new ContenderResult(c, creates, load, lists, fanOuts);
        }
    }

    private static CreateResult creates(Driver driver, ServerProcess server, int from, int to, Options o) {
        Duration cpu0 = server.cpu();
        Duration elapsed = Creates.run(
                driver,
                ConfigMaps.path("bench"),
                from,
                to,
                o.concurrency,
                i -> ConfigMaps.json(ConfigMaps.name("cm", i), i),
                new AtomicLong());
        return new CreateResult(from, to, o.concurrency, elapsed, server.cpu().minus(cpu0));
    }

    private static String header(Options o, Instant started, String loadBefore, String loadAfter) {
        return String.format(
                Locale.ROOT,
                """
                Run started %s: %d cores, load average (1/5/15 min) %s at the start and %s at the end; \
                server child JVMs: `%s` on Java %s; driver: JDK HttpClient, HTTP/1.1 over TLS, in the harness \
                JVM; %,d warm-up creates per server; ConfigMaps of ~250 bytes as sent.
                """,
                started.toString().substring(0, 16).replace('T', ' ') + " UTC",
                Runtime.getRuntime().availableProcessors(),
                loadBefore,
                loadAfter,
                String.join(" ", o.childFlags),
                Runtime.version().feature(),
                o.warmup);
    }

    /** The command line. */
    record Options(
            int creates,
            int objects,
            int watchers,
            int events,
            int concurrency,
            int listRepeat,
            int warmup,
            List<ServerContender> contenders,
            List<Transport> transports,
            List<String> childFlags,
            Path markdown,
            Path out) {

        static Options parse(String[] args) {
            int creates = 2_000;
            int objects = 5_000;
            int watchers = 100;
            int events = 1_000;
            int concurrency = 8;
            int listRepeat = 3;
            int warmup = 1_000;
            List<ServerContender> contenders = List.of(ServerContender.KUBELOOP, ServerContender.FABRIC8);
            List<Transport> transports = List.of(Transport.WEBSOCKET, Transport.HTTP);
            List<String> childFlags = List.of("-Xmx3g", "-XX:+UseG1GC");
            Path markdown = null;
            boolean markdownSet = false;
            boolean full = false;
            Path out = Path.of("kubeloop-bench", "target", "server-bench");
            for (int i = 0; i < args.length; i++) {
                String a = args[i];
                if (a.equals("--full")) {
                    full = true;
                    creates = 20_000;
                    objects = 50_000;
                    watchers = 1_000;
                    events = 1_000; // the 10,000 (add --events 10000) takes fabric8 ~30 min here
                    continue;
                }
                if (i + 1 >= args.length) {
                    throw new IllegalArgumentException("option " + a + " needs a value");
                }
                String v = args[++i];
                switch (a) {
                    case "--creates" -> creates = count(a, v);
                    case "--objects" -> objects = count(a, v);
                    case "--watchers" -> watchers = count(a, v);
                    case "--events" -> events = count(a, v);
                    case "--concurrency" -> concurrency = count(a, v);
                    case "--list-repeat" -> listRepeat = count(a, v);
                    case "--warmup" -> warmup = count(a, v);
                    case "--contenders" ->
                        contenders = Arrays.stream(v.split(","))
                                .map(s -> ServerContender.of(s.trim()))
                                .toList();
                    case "--transports" ->
                        transports = Arrays.stream(v.split(","))
                                .map(s -> Transport.of(s.trim()))
                                .toList();
                    case "--child-flags" -> childFlags = List.of(v.trim().split("\\s+"));
                    case "--markdown" -> {
                        markdown = v.equals("none") ? null : Path.of(v);
                        markdownSet = true;
                    }
                    case "--out" -> out = Path.of(v);
                    default -> throw new IllegalArgumentException("unknown option " + a);
                }
            }
            if (!markdownSet && full && Files.exists(Path.of("BENCHMARKS.md"))) {
                markdown = Path.of("BENCHMARKS.md");
            }
            return new Options(
                    creates,
                    objects,
                    watchers,
                    events,
                    concurrency,
                    listRepeat,
                    warmup,
                    contenders,
                    transports,
                    childFlags,
                    markdown,
                    out);
        }

        private static int count(String option, String v) {
            int n;
            try {
                n = Integer.parseInt(v.replace("_", "").replace(",", ""));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(option + " needs a number, got '" + v + "'");
            }
            if (n < 0) {
                throw new IllegalArgumentException(option + " must not be negative, got " + n);
            }
            return n;
        }
    }
}
