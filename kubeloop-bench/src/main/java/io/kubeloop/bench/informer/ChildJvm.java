package io.kubeloop.bench.informer;

import io.kubeloop.bench.child.ProtocolLines;
import io.kubeloop.peers.ChildProcesses;
import io.kubeloop.peers.InformerBenchReporter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * One contender's child JVM and the parent side of the {@link InformerBenchReporter} line protocol: the
 * child's stdout is read on a thread; protocol lines are queued for {@link #expect}, other output
 * is echoed with a prefix.
 *
 * <p>Use with try-with-resources: {@link #close()} closes the child's stdin (its signal to exit)
 * and kills it if it does not exit within ten seconds.
 *
 * <p><b>Thread safety.</b> For the thread that started the child.
 */
final class ChildJvm implements AutoCloseable {

    private static final Pattern PROTOCOL = Pattern.compile("^(BASELINE|SYNCED|ADDS|HEAP|EVENTS|ERROR) .*");

    private final Process process;
    private final ProtocolLines lines;

    private ChildJvm(String label, Process process) {
        this.process = process;
        this.lines = ProtocolLines.read(process, label, PROTOCOL);
    }

    /** Starts {@code contender} with {@code jvmFlags} and the given class path. */
    static ChildJvm start(
            Contender contender, String classPath, List<String> jvmFlags, Path kubeconfig, int pods, long events) {
        return start(
                contender.label(),
                contender.mainClass(),
                contender.extraArgs(),
                classPath,
                jvmFlags,
                kubeconfig,
                pods,
                events);
    }

    /**
     * Starts {@code mainClass} as {@code <mainClass> <kubeconfig> <objects> <events> <extraArgs…>} with
     * {@code jvmFlags} and the given class path; {@code label} prefixes its echoed output.
     */
    static ChildJvm start(
            String label,
            String mainClass,
            List<String> extraArgs,
            String classPath,
            List<String> jvmFlags,
            Path kubeconfig,
            int objects,
            long events) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmFlags);
        command.add("-cp");
        command.add(classPath);
        command.add(mainClass);
        command.add(kubeconfig.toString());
        command.add(Integer.toString(objects));
        command.add(Long.toString(events));
        command.addAll(extraArgs);
        try {
            Process p = new ProcessBuilder(command)
                    .redirectError(ProcessBuilder.Redirect.INHERIT)
                    .start();
            return new ChildJvm(label, p);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + label + ": " + e.getMessage(), e);
        }
    }

    /** The child's process id (for jcmd). */
    long pid() {
        return process.pid();
    }

    /**
     * Freezes ({@code SIGSTOP}) or resumes ({@code SIGCONT}) the child, so that the events written
     * meanwhile queue up at the server and reach the child as one prepared stream.
     */
    void freeze(boolean frozen) {
        try {
            Process kill = new ProcessBuilder("kill", frozen ? "-STOP" : "-CONT", Long.toString(process.pid()))
                    .inheritIO()
                    .start();
            if (kill.waitFor() != 0) {
                throw new IllegalStateException(
                        "kill " + (frozen ? "-STOP" : "-CONT") + " " + process.pid() + " failed");
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
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

    @Override
    public void close() {
        ChildProcesses.stop(process);
    }
}
