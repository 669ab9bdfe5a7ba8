package io.kubeloop.bench.informer;

import io.kubeloop.peers.ChildProcesses;
import io.kubeloop.peers.InformerBenchReporter;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

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

    private final Contender contender;
    private final Process process;
    private final LinkedBlockingQueue<String> lines = new LinkedBlockingQueue<>();

    private ChildJvm(Contender contender, Process process) {
        this.contender = contender;
        this.process = process;
        Thread.ofPlatform().daemon().name("child-" + contender.label()).start(this::pump);
    }

    /** Starts {@code contender} with {@code jvmFlags} and the given class path. */
    static ChildJvm start(
            Contender contender, String classPath, List<String> jvmFlags, Path kubeconfig, int pods, long events) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmFlags);
        command.add("-cp");
        command.add(classPath);
        command.add(contender.mainClass());
        command.add(kubeconfig.toString());
        command.add(Integer.toString(pods));
        command.add(Long.toString(events));
        command.addAll(contender.extraArgs());
        try {
            Process p = new ProcessBuilder(command)
                    .redirectError(ProcessBuilder.Redirect.INHERIT)
                    .start();
            return new ChildJvm(contender, p);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + contender.label() + ": " + e.getMessage(), e);
        }
    }

    private void pump() {
        try (BufferedReader in =
                new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                if (line.matches("^(BASELINE|SYNCED|ADDS|HEAP|EVENTS|ERROR) .*")) {
                    lines.add(line);
                } else {
                    System.out.println("  [" + contender.label() + "] " + line);
                }
            }
        } catch (IOException e) {
            // child gone
        }
        lines.add("EXIT");
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
        String line;
        try {
            line = lines.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted waiting for " + tag, e);
        }
        if (line == null) {
            throw new IllegalStateException(contender.label() + ": no " + tag + " within " + timeout);
        }
        if (!line.startsWith(tag + " ")) {
            throw new IllegalStateException(contender.label() + ": expected " + tag + ", got '" + line + "'");
        }
        return line.substring(tag.length() + 1).trim().split(" ");
    }

    @Override
    public void close() {
        ChildProcesses.stop(process);
    }
}
