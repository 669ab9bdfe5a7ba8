package io.kubeloop.cli;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;

/** Finds real kubectl binaries: {@code kubectl} on the PATH and versioned {@code kubectl.1.NN} beside it. */
final class KubectlBinaries {

    private KubectlBinaries() {}

    /**
     * The wanted versions that are installed ({@code "current"} = the kubectl on the PATH). Aborts
     * the calling test with a clear message when none is.
     */
    static List<String> find(List<String> wanted) {
        List<String> found = wanted.stream()
                .map(KubectlBinaries::locate)
                .flatMap(Optional::stream)
                .map(Path::toString)
                .toList();
        Assumptions.assumeFalse(found.isEmpty(), "kubectl is not installed: skipping the kubectl comparison");
        return found;
    }

    /**
     * The binary for {@code version} ({@code "1.27"} = {@code kubectl.1.27} beside the kubectl on the PATH,
     * {@code "current"} = that kubectl itself), if installed.
     */
    static Optional<Path> locate(String version) {
        Path onPath = null;
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            Path candidate = Path.of(dir, "kubectl");
            if (Files.isExecutable(candidate)) {
                onPath = candidate;
                break;
            }
        }
        if (onPath == null) {
            return Optional.empty();
        }
        Path real;
        try {
            real = onPath.toRealPath();
        } catch (IOException e) {
            real = onPath;
        }
        Path binary = version.equals("current") ? real : real.resolveSibling("kubectl." + version);
        return Files.isExecutable(binary) ? Optional.of(binary) : Optional.empty();
    }
}
