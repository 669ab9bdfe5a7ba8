package io.kubeloop.bench.server;

import io.kubeloop.peers.ChildProcesses;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One server's child JVM: started with the given JVM flags, ready once it prints {@code READY <url>
 * [token]}; later stdout lines are echoed with the contender's label.
 *
 * <p>Use with try-with-resources: {@link #close()} closes the child's stdin (its signal to stop) and
 * kills it if it has not exited ten seconds later.
 *
 * <p><b>Thread safety.</b> For the thread that started it; {@link #cpu()} from any thread.
 */
final class ServerProcess implements AutoCloseable {

    private final ServerContender contender;
    private final Process process;
    private final URI url;
    private final String token;

    private ServerProcess(ServerContender contender, Process process, URI url, String token) {
        this.contender = contender;
        this.process = process;
        this.url = url;
        this.token = token;
    }

    /**
     * Starts {@code contender}'s server with {@code jvmFlags} and waits up to {@code timeout} for it.
     *
     * @throws IllegalStateException when it exits or stays silent
     */
    static ServerProcess start(ServerContender contender, List<String> jvmFlags, int watchBuffer, Duration timeout) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmFlags);
        command.add("-cp");
        command.add(contender.classPath());
        command.add(contender.mainClass());
        command.addAll(contender.args(watchBuffer));
        Process p;
        try {
            p = new ProcessBuilder(command)
                    .redirectError(ProcessBuilder.Redirect.INHERIT)
                    .start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + contender.label() + ": " + e.getMessage(), e);
        }
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        CompletableFuture<String> ready = new CompletableFuture<>();
        Thread.ofPlatform().daemon().name("server-" + contender.label()).start(() -> {
            try {
                String line;
                while ((line = out.readLine()) != null) {
                    if (!ready.isDone() && line.startsWith("READY ")) {
                        ready.complete(line.substring("READY ".length()).trim());
                    } else {
                        System.out.println("  [" + contender.label() + "] " + line);
                    }
                }
            } catch (IOException e) {
                // child gone
            }
            ready.complete(null);
        });
        String line;
        try {
            line = ready.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException | ExecutionException e) {
            p.destroyForcibly();
            throw new IllegalStateException(contender.label() + " server did not start within " + timeout, e);
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while starting " + contender.label(), e);
        }
        if (line == null) {
            throw new IllegalStateException(contender.label() + " server exited before it was ready");
        }
        String[] f = line.split(" ");
        return new ServerProcess(contender, p, URI.create(f[0]), f.length > 1 ? f[1] : "none");
    }

    /** The server's base URL, e.g. {@code https://127.0.0.1:40123}. */
    /** The server JVM's process id. */
    long pid() {
        return process.pid();
    }

    URI url() {
        return url;
    }

    /** The bearer token the server expects ({@code none} for fabric8, which checks none). */
    String token() {
        return token;
    }

    /** The CPU time (user + system, all threads) the child has used so far. */
    Duration cpu() {
        return process.toHandle()
                .info()
                .totalCpuDuration()
                .orElseThrow(() -> new IllegalStateException("no CPU time for " + contender.label()));
    }

    @Override
    public void close() {
        ChildProcesses.stop(process);
    }
}
