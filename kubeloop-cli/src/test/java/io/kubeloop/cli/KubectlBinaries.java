package io.kubeloop.cli;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assumptions;

/** Finds real kubectl binaries: {@code kubectl} on the PATH and versioned {@code kubectl.1.NN} beside it. */
final class KubectlBinaries {

    private KubectlBinaries() {
    }

    /**
     * The wanted versions that are installed ({@code "current"} = the kubectl on the PATH). Aborts
     * the calling test with a clear message when none is.
     */
    static List<String> find(List<String> wanted) {
        Path onPath = null;
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            Path candidate = Path.of(dir, "kubectl");
            if (Files.isExecutable(candidate)) {
                onPath = candidate;
                break;
            }
        }
        List<String> found = new ArrayList<>();
        if (onPath != null) {
            Path real;
            try {
                real = onPath.toRealPath();
            } catch (java.io.IOException e) {
                real = onPath;
            }
            for (String version : wanted) {
                Path binary = version.equals("current") ? real : real.resolveSibling("kubectl." + version);
                if (Files.isExecutable(binary)) {
                    found.add(binary.toString());
                }
            }
        }
        Assumptions.assumeFalse(found.isEmpty(), "kubectl is not installed: skipping the kubectl comparison");
        return found;
    }
}
