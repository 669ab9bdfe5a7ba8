package io.kubeloop.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A {@code kubeloop} command as a real child process — {@code java -cp <test class path>
 * io.kubeloop.cli.Main <command> ...}, what bin/kubeloop runs minus the build — with its stdout and
 * stderr collected. {@link #close()} sends SIGTERM ({@link Process#destroy()}) and waits.
 */
final class KubeloopProcess implements AutoCloseable {

    private final Process process;
    private final CompletableFuture<String> stdout;
    private final CompletableFuture<String> stderr;
    private final StringBuilder out = new StringBuilder();
    private final StringBuilder err = new StringBuilder();

    private KubeloopProcess(Process process) {
        this.process = process;
        this.stdout = read(process.getInputStream(), out);
        this.stderr = read(process.getErrorStream(), err);
    }

    /** Starts {@code kubeloop server args...}. */
    static KubeloopProcess start(String... args) {
        List<String> command = new ArrayList<>(List.of("server"));
        command.addAll(List.of(args));
        return command(command.toArray(String[]::new));
    }

    /** Starts {@code kubeloop args...}: the first argument names the command. */
    static KubeloopProcess command(String... args) {
        return command(Map.of(), args);
    }

    /**
     * Starts {@code kubeloop args...} with {@code env} changed: a null value removes a variable (e.g.
     * {@code KUBECONFIG}, to run as a pod would).
     */
    static KubeloopProcess command(Map<String, String> env, String... args) {
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC",
                "-cp",
                classPath,
                Main.class.getName()));
        command.addAll(List.of(args));
        try {
            ProcessBuilder pb = new ProcessBuilder(command);
            env.forEach((k, v) -> {
                if (v == null) {
                    pb.environment().remove(k);
                } else {
                    pb.environment().put(k, v);
                }
            });
            return new KubeloopProcess(pb.start());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static CompletableFuture<String> read(InputStream in, StringBuilder into) {
        CompletableFuture<String> all = new CompletableFuture<>();
        Thread.ofVirtual().start(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    synchronized (into) {
                        into.append(line).append('\n');
                        into.notifyAll();
                    }
                }
            } catch (IOException e) {
                // the process died; what we have is all there is
            }
            synchronized (into) {
                all.complete(into.toString());
                into.notifyAll();
            }
        });
        return all;
    }

    /** Waits for the ready line and returns the URL it names; fails with the process's output otherwise. */
    URI awaitReady(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (out) {
            while (true) {
                int at = out.indexOf(ServeCommand.READY_PREFIX);
                int end = at < 0 ? -1 : out.indexOf(";", at);
                if (end > 0) {
                    return URI.create(out.substring(at + ServeCommand.READY_PREFIX.length(), end));
                }
                long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                if (stdout.isDone() || left <= 0) {
                    throw new AssertionError("no ready line" + (stdout.isDone() ? " (exited)" : " in " + timeout)
                            + "; stdout: " + out + "; stderr: " + stderr.getNow("(still running)"));
                }
                try {
                    out.wait(left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new AssertionError("interrupted", e);
                }
            }
        }
    }

    /** Waits until stdout contains {@code text}; fails with the process's output otherwise. */
    void awaitOutput(String text, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (out) {
            while (out.indexOf(text) < 0) {
                long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                if (stdout.isDone() || left <= 0) {
                    throw new AssertionError("no \"" + text + "\"" + (stdout.isDone() ? " (exited)" : " in " + timeout)
                            + "; stdout: " + out + "; stderr: " + stderr.getNow("(still running)"));
                }
                try {
                    out.wait(left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new AssertionError("interrupted", e);
                }
            }
        }
    }

    /** What it printed on stdout so far. */
    String stdoutSoFar() {
        synchronized (out) {
            return out.toString();
        }
    }

    /** Waits for the process to exit by itself. */
    int awaitExit(Duration timeout) {
        try {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new AssertionError("kubeloop did not exit within " + timeout);
            }
            return process.exitValue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    /**
     * SIGTERM, then waits; returns the exit code. Sent through the process handle: {@link Process#destroy()}
     * sends the same signal but also closes our ends of the child's stdout and stderr, losing its last lines.
     */
    int terminate(Duration timeout) {
        process.toHandle().destroy();
        return awaitExit(timeout);
    }

    /** Everything it printed on stdout (waits for the stream to end). */
    String stdout() {
        return join(stdout);
    }

    /** SIGKILL, as a node failure or the OOM killer ends a pod: no shutdown hook runs. Waits for the exit. */
    int kill(Duration timeout) {
        process.destroyForcibly();
        return awaitExit(timeout);
    }

    /** What it printed on stderr so far. */
    String stderrSoFar() {
        synchronized (err) {
            return err.toString();
        }
    }

    /** Everything it printed on stderr (waits for the stream to end). */
    String stderr() {
        return join(stderr);
    }

    private static String join(CompletableFuture<String> f) {
        try {
            return f.get(10, TimeUnit.SECONDS);
        } catch (TimeoutException | ExecutionException e) {
            throw new AssertionError("output did not end", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroy();
            try {
                if (!process.waitFor(20, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                }
            } catch (InterruptedException e) {
                process.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
    }
}
