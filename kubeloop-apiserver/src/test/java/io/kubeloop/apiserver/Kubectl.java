package io.kubeloop.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;

/**
 * A real kubectl binary run against a kubeconfig (test helper): the versioned ones of the Cloud SDK
 * ({@code /usr/lib/google-cloud-sdk/bin/kubectl.1.27} ... {@code kubectl.1.33}) and the one on PATH.
 *
 * @param binary the executable
 * @param version {@code 1.29} for a versioned binary, {@code PATH} for the one on PATH
 * @param kubeconfig the kubeconfig to use
 * @param cacheDir kubectl's discovery and HTTP cache
 */
record Kubectl(Path binary, String version, Path kubeconfig, Path cacheDir) {

    private static final Path SDK_BIN = Path.of("/usr/lib/google-cloud-sdk/bin");

    /** One run's outcome: exit code and stdout+stderr. */
    record Result(int code, String out) {}

    /** The versioned kubectls installed, oldest first, then the one on PATH; empty when there is none. */
    static List<Path> installed() {
        List<Path> out = new ArrayList<>();
        for (int minor = 27; minor <= 33; minor++) {
            Path p = SDK_BIN.resolve("kubectl.1." + minor);
            if (Files.isExecutable(p)) {
                out.add(p);
            }
        }
        onPath().ifPresent(out::add);
        return out;
    }

    /**
     * The installed kubectls among {@code versions} ({@code 1.27}, {@code PATH}…), for a parameterized test;
     * a path that is not executable when none is, so that {@link #at} skips the test with a message.
     */
    static Stream<Path> choose(String... versions) {
        List<Path> chosen = installed().stream()
                .filter(p -> List.of(versions).contains(versionOf(p)))
                .toList();
        return chosen.isEmpty() ? Stream.of(Path.of("kubectl-not-installed")) : chosen.stream();
    }

    /**
     * A runner of {@code binary} (from {@link #choose}) with its own cache under {@code dir}; skips the test
     * when the binary is not installed.
     */
    static Kubectl at(Path binary, Path kubeconfig, Path dir) {
        Assumptions.assumeTrue(Files.isExecutable(binary), "no kubectl installed: skipped");
        String version = versionOf(binary);
        return new Kubectl(binary, version, kubeconfig, dir.resolve("cache-" + version));
    }

    /** The kubectl on PATH. */
    static Optional<Path> onPath() {
        return Stream.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
                .filter(d -> !d.isEmpty())
                .map(d -> Path.of(d, "kubectl"))
                .filter(Files::isExecutable)
                .findFirst();
    }

    /** {@code 1.29} for {@code kubectl.1.29}, {@code PATH} otherwise. */
    static String versionOf(Path binary) {
        String n = binary.getFileName().toString();
        return n.startsWith("kubectl.") ? n.substring("kubectl.".length()) : "PATH";
    }

    /** Runs {@code kubectl --kubeconfig K --cache-dir C args...} and waits up to a minute. */
    Result run(String... args) {
        return run(Map.of(), args);
    }

    /** Runs with extra environment variables (e.g. {@code KUBE_EDITOR}). */
    Result run(Map<String, String> env, String... args) {
        List<String> cmd = new ArrayList<>(
                List.of(binary.toString(), "--kubeconfig", kubeconfig.toString(), "--cache-dir", cacheDir.toString()));
        cmd.addAll(List.of(args));
        try {
            Path out = Files.createTempFile("kubectl", ".out");
            try {
                ProcessBuilder pb =
                        new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile());
                pb.environment().putAll(env);
                Process p = pb.start();
                if (!p.waitFor(60, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                    throw new AssertionError(
                            "kubectl " + String.join(" ", args) + " did not finish in 60 s:\n" + Files.readString(out));
                }
                return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8));
            } finally {
                Files.deleteIfExists(out);
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot run " + cmd + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted running " + cmd, e);
        }
    }

    /** Runs and asserts exit code 0; returns the output. */
    String ok(String... args) {
        Result r = run(args);
        assertThat(r.code())
                .as("kubectl %s (%s):\n%s", String.join(" ", args), version, r.out())
                .isZero();
        return r.out();
    }
}
