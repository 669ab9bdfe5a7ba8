package io.kubeloop.bench.race;

import io.kubeloop.bench.child.ProtocolLines;
import io.kubeloop.peers.ChildProcesses;
import io.kubeloop.peers.race.RaceReporter;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;

/**
 * One contender's operator JVM and the harness side of the {@link RaceReporter} protocol: protocol
 * lines of the child's stdout are queued for {@link #expect}, other output is echoed with a prefix;
 * commands go to its stdin; its CPU time comes from the operating system ({@link ProcessHandle}).
 *
 * <p>Use with try-with-resources: {@link #close()} closes the child's stdin (its signal to stop) and
 * kills it if it has not exited within ten seconds.
 *
 * <p><b>Thread safety.</b> For the thread that started the child.
 */
final class OperatorProcess implements AutoCloseable {

    private static final Pattern PROTOCOL = Pattern.compile("^(READY|HEAP|COUNTS|STATS|ERROR)( .*)?$");

    private final RaceContender contender;
    private final Process process;
    private final OutputStream stdin;
    private final ProtocolLines lines;

    private OperatorProcess(RaceContender contender, Process process) {
        this.contender = contender;
        this.process = process;
        this.stdin = process.getOutputStream();
        this.lines = ProtocolLines.read(process, contender.label(), PROTOCOL);
    }

    /**
     * Starts {@code contender} with {@code jvmFlags} for the cluster of {@code kubeconfig}, on its class
     * path as {@code classPath} maps it (the identity, or one with jars for directories).
     */
    static OperatorProcess start(
            RaceContender contender, List<String> jvmFlags, UnaryOperator<String> classPath, Path kubeconfig) {
        List<String> command = java(contender, jvmFlags, classPath);
        command.add(contender.framework().mainClass());
        command.add(kubeconfig.toString());
        command.addAll(contender.variant());
        try {
            Process p = new ProcessBuilder(command)
                    .redirectError(ProcessBuilder.Redirect.INHERIT)
                    .start();
            return new OperatorProcess(contender, p);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + contender.label() + ": " + e.getMessage(), e);
        }
    }

    /**
     * Creates the JDK's ahead-of-time cache {@code cache} for {@code contender} from the configuration
     * {@code configuration} that a training run ({@code -XX:AOTMode=record}) wrote: {@code java
     * -XX:AOTMode=create} with the same flags and class path, waited for.
     *
     * @throws IllegalStateException when the JVM fails or takes more than five minutes
     */
    static void createAotCache(
            RaceContender contender,
            List<String> jvmFlags,
            UnaryOperator<String> classPath,
            Path configuration,
            Path cache) {
        List<String> command = java(contender, jvmFlags, classPath);
        command.addAll(List.of("-XX:AOTMode=create", "-XX:AOTConfiguration=" + configuration, "-XX:AOTCache=" + cache));
        try {
            Process p = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start();
            if (!p.waitFor(5, java.util.concurrent.TimeUnit.MINUTES)) {
                p.destroyForcibly();
                throw new IllegalStateException("creating the AOT cache of " + contender.label() + " timed out");
            }
            if (p.exitValue() != 0 || !Files.exists(cache)) {
                throw new IllegalStateException(
                        "creating the AOT cache of " + contender.label() + " failed (exit " + p.exitValue() + ")");
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the AOT cache of " + contender.label(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** {@code java}, {@code jvmFlags} and the class path of {@code contender} as {@code classPath} maps it. */
    private static List<String> java(RaceContender contender, List<String> jvmFlags, UnaryOperator<String> classPath) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmFlags);
        command.add("-cp");
        command.add(classPath.apply(classPath(contender.framework())));
        return command;
    }

    private static String classPath(Framework c) {
        if (!c.peer()) {
            return System.getProperty("java.class.path");
        }
        Path file = Path.of(System.getProperty("kubeloop.peers.classpath", "kubeloop-peers/target/peer.classpath"));
        try {
            Path classes = file.toAbsolutePath().getParent().resolve("classes");
            return classes + File.pathSeparator + Files.readString(file).trim();
        } catch (IOException e) {
            throw new UncheckedIOException(
                    c.label() + " runs from kubeloop-peers' class path, but " + file
                            + " is missing: build kubeloop-peers first (mvn -pl kubeloop-bench,kubeloop-peers -am process-classes)",
                    e);
        }
    }

    /** Sends one command line to the child. */
    void send(String command) {
        try {
            stdin.write((command + "\n").getBytes(StandardCharsets.UTF_8));
            stdin.flush();
        } catch (IOException e) {
            throw new IllegalStateException(contender.label() + " is gone: " + e.getMessage(), e);
        }
    }

    /**
     * The fields after {@code tag} of the child's next protocol line.
     *
     * @throws IllegalStateException when the child reports an error, exits, sends another line, or
     *         stays silent for {@code timeout}
     */
    String[] expect(String tag, Duration timeout) {
        return lines.expect(tag, timeout);
    }

    /** The child's CPU time so far (all its threads, user and system), from the operating system. */
    Duration cpu() {
        return process.toHandle()
                .info()
                .totalCpuDuration()
                .orElseThrow(() -> new IllegalStateException("the OS reports no CPU time for " + process.pid()));
    }

    /**
     * The CPU time of the child's JIT compiler threads ({@code C1/C2 CompilerThread*}) so far, from
     * {@code /proc/<pid>/task/<tid>/stat} (user and system ticks of 10 ms); zero where there is no
     * {@code /proc}.
     */
    Duration jitCpu() {
        Path tasks = Path.of("/proc", Long.toString(process.pid()), "task");
        long ticks = 0;
        try (var dirs = Files.list(tasks)) {
            for (Path task : dirs.toList()) {
                try {
                    String comm = Files.readString(task.resolve("comm")).trim();
                    if (comm.startsWith("C1 Compiler") || comm.startsWith("C2 Compiler")) {
                        String stat = Files.readString(task.resolve("stat"));
                        // the fields after the command's closing parenthesis; utime and stime are the 12th and 13th
                        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                        ticks += Long.parseLong(f[11]) + Long.parseLong(f[12]);
                    }
                } catch (IOException | RuntimeException gone) {
                    // a compiler thread that ended meanwhile
                }
            }
        } catch (IOException noProc) {
            return Duration.ZERO;
        }
        return Duration.ofMillis(ticks * 10);
    }

    /** The child's process id. */
    long pid() {
        return process.pid();
    }

    @Override
    public void close() {
        ChildProcesses.stop(process);
    }
}
