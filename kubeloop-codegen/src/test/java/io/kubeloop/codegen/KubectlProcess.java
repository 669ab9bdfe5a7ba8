package io.kubeloop.codegen;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/** The kubectl on PATH, run against one kubeconfig (test helper). */
record KubectlProcess(Path binary, Path kubeconfig) {

    /** One run: exit code and stdout+stderr. */
    record Result(int exit, String out) {}

    /** The kubectl on PATH, if any. */
    static Optional<Path> onPath() {
        return Stream.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
                .filter(d -> !d.isEmpty())
                .map(d -> Path.of(d, "kubectl"))
                .filter(Files::isExecutable)
                .findFirst();
    }

    Result run(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(binary.toString(), "--kubeconfig", kubeconfig.toString()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("kubectl " + String.join(" ", args) + " did not finish in 60 s");
        }
        return new Result(p.exitValue(), new String(out, StandardCharsets.UTF_8));
    }

    String ok(String... args) throws IOException, InterruptedException {
        Result r = run(args);
        if (r.exit() != 0) {
            throw new AssertionError("kubectl " + String.join(" ", args) + " failed:\n" + r.out());
        }
        return r.out();
    }
}
