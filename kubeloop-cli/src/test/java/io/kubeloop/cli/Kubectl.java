package io.kubeloop.cli;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * One installed kubectl version pointed at one server (kubeconfig, own discovery cache, a default
 * namespace), run as a real process.
 *
 * @param version e.g. {@code 1.27}
 * @param binary the executable
 * @param kubeconfig the server's kubeconfig
 * @param cacheDir kubectl's {@code --cache-dir}, one per version
 * @param namespace the namespace commands run in
 */
record Kubectl(String version, Path binary, Path kubeconfig, Path cacheDir, String namespace) {

    /** The output of a finished command (stderr merged into stdout, as a user sees it). */
    record Result(int exit, String out) {}

    /** kubectl {@code version} against {@code kubeconfig}; aborts the test with a clear message when not installed. */
    static Kubectl of(String version, Path kubeconfig, Path workDir, String namespace) {
        Path binary = KubectlBinaries.locate(version).orElse(null);
        assumeTrue(binary != null, "kubectl." + version + " is not installed beside the kubectl on the PATH: skipped");
        return new Kubectl(version, binary, kubeconfig, workDir.resolve("kubectl-cache-" + version), namespace);
    }

    private List<String> command(List<String> args) {
        List<String> cmd = new ArrayList<>(List.of(
                binary.toString(),
                "--kubeconfig",
                kubeconfig.toString(),
                "--cache-dir",
                cacheDir.toString(),
                "-n",
                namespace));
        cmd.addAll(args);
        return cmd;
    }

    /** Runs {@code kubectl args...} to completion (60 s at most). */
    Result run(String... args) {
        return run(Map.of(), args);
    }

    /** Runs {@code kubectl args...} with extra environment variables. */
    Result run(Map<String, String> env, String... args) {
        Process p = start(env, args);
        try {
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new AssertionError(
                        "kubectl " + version + " " + String.join(" ", args) + " did not finish: " + out);
            }
            return new Result(p.exitValue(), out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    /** Starts {@code kubectl args...} in the background (stderr merged into stdout). */
    Process start(String... args) {
        return start(Map.of(), args);
    }

    private Process start(Map<String, String> env, String... args) {
        ProcessBuilder pb = new ProcessBuilder(command(List.of(args))).redirectErrorStream(true);
        pb.environment().remove("KUBECONFIG");
        pb.environment().putAll(env);
        try {
            return pb.start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Reads {@code process}'s output until a line satisfies {@code wanted}; returns every line read so far. */
    static List<String> readUntil(Process process, BufferedReader reader, Predicate<String> wanted, Duration timeout) {
        List<String> seen = new ArrayList<>();
        var done = CompletableFuture.supplyAsync(() -> {
            try {
                String line;
                while ((line = reader.readLine()) != null) {
                    synchronized (seen) {
                        seen.add(line);
                    }
                    if (wanted.test(line)) {
                        return true;
                    }
                }
                return false;
            } catch (IOException e) {
                return false;
            }
        });
        boolean found;
        try {
            found = done.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            found = false;
        }
        synchronized (seen) {
            if (!found) {
                process.destroyForcibly();
                throw new AssertionError("kubectl never printed the expected line; it printed: " + seen);
            }
            return List.copyOf(seen);
        }
    }

    /** A line reader over {@code process}'s output. */
    static BufferedReader reader(Process process) {
        return new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    }

    @Override
    public String toString() {
        return "kubectl " + version;
    }
}
