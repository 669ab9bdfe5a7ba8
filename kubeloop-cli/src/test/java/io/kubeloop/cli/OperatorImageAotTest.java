package io.kubeloop.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sample-controller's image with the JDK's ahead-of-time cache ({@code src/main/docker/Dockerfile}):
 * the cache is made by the image's own JDK from a training run of the operator ({@code demo --once}: the
 * sample-controller reconciling a Foo on the embedded API server) on one fixed class path of jars, and the
 * entry point starts from it with that class path. The recipe runs here on the test's JDK, where {@code
 * -XX:AOTMode=on} fails any start whose cache the JVM cannot use; the image itself is built and started only
 * where a Docker daemon runs and can pull the JDK 25 base.
 */
@Timeout(600)
class OperatorImageAotTest {

    private static final Path DOCKERFILE = Path.of("src/main/docker/Dockerfile");

    private static String dockerfile() throws IOException {
        return Files.readString(DOCKERFILE);
    }

    @Test
    void theImageTrainsAndStartsWithOneCacheOnOneClassPathAndOneJdk() throws IOException {
        String text = dockerfile();
        List<String> bases = all(Pattern.compile("(?m)^FROM (\\S+)"), text);
        assertThat(bases)
                .as("the cache is made by the JDK that uses it")
                .hasSize(2)
                .containsOnly(bases.get(0));
        assertThat(bases.get(0)).contains(":25");
        Matcher training = Pattern.compile(
                        "(?m)^RUN java @jvm.args -XX:AOTCacheOutput=(\\S+) .*io.kubeloop.cli.Main demo --once$")
                .matcher(text);
        assertThat(training.find()).as("a training RUN of demo --once").isTrue();
        assertThat(text)
                .contains("ENTRYPOINT [\"java\", \"-XX:AOTCache=" + training.group(1) + "\", \"@/app/jvm.args\", \""
                        + Main.class.getName() + "\"]")
                .contains("USER 65532:65532");
    }

    @Test
    void aCacheTrainedByTheSampleControllersDemoIsOneTheNextStartAccepts(@TempDir Path dir) throws Exception {
        assumeTrue(Runtime.version().feature() >= 25, "the one-step AOT cache (-XX:AOTCacheOutput) needs JDK 25");
        Path args = dir.resolve("jvm.args");
        Files.writeString(args, "-cp " + jarsOnly(classPath(), dir), StandardCharsets.UTF_8);
        Path cache = dir.resolve("operator.aot");

        Result trained = java(
                dir,
                "@" + args,
                "-XX:AOTCacheOutput=" + cache,
                "-Xlog:aot=error",
                Main.class.getName(),
                "demo",
                "--once");
        assertThat(trained.exit())
                .as("demo --once as the training run: %s", trained.output())
                .isZero();
        assertThat(cache).isNotEmptyFile();

        Result started =
                java(dir, "-XX:AOTMode=on", "-XX:AOTCache=" + cache, "@" + args, Main.class.getName(), "--version");
        assertThat(started.exit())
                .as("a start with the cache required: %s", started.output())
                .isZero();
        assertThat(started.output()).contains("kubeloop");
    }

    @Test
    void theImageBuildsAndStartsWhereDockerRuns(@TempDir Path dir) throws Exception {
        assumeTrue(dockerRuns(dir), "no Docker daemon here: the image is not built (the recipe is tested above)");
        Path context = Path.of("target");
        assumeTrue(
                Files.isRegularFile(context.resolve("kubeloop-cli.jar")) && Files.isDirectory(context.resolve("lib")),
                "kubeloop-cli/target holds no packaged jar and lib/ (mvn package) to build the image from");
        String tag =
                "kubeloop-sample-controller-aot-test:" + ProcessHandle.current().pid();
        Result built = run(dir, List.of("docker", "build", "-f", DOCKERFILE.toString(), "-t", tag, context.toString()));
        assumeTrue(
                built.exit() == 0 || !built.output().contains("pull"),
                "the base image cannot be pulled: " + built.output());
        assertThat(built.exit()).as("docker build: %s", built.output()).isZero();
        try {
            Result version = run(dir, List.of("docker", "run", "--rm", tag, "--version"));
            assertThat(version.exit()).as(version.output()).isZero();
            assertThat(version.output()).contains("kubeloop");
        } finally {
            run(dir, List.of("docker", "rmi", "-f", tag));
        }
    }

    private record Result(int exit, String output) {}

    private static Result java(Path dir, String... args) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(List.of(args));
        return run(dir, command);
    }

    private static Result run(Path dir, List<String> command) throws Exception {
        Path log = Files.createTempFile(dir, "out", ".txt");
        Process p = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        if (!p.waitFor(5, TimeUnit.MINUTES)) {
            p.destroyForcibly().waitFor();
            return new Result(-1, "timed out: " + Files.readString(log));
        }
        return new Result(p.exitValue(), Files.readString(log));
    }

    private static boolean dockerRuns(Path dir) {
        try {
            return run(dir, List.of("docker", "info")).exit() == 0;
        } catch (Exception notInstalled) {
            return false;
        }
    }

    private static String classPath() {
        return System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    }

    /** The class path with each directory as a jar of its files: the JDK refuses directories in an AOT cache's class path. */
    private static String jarsOnly(String classPath, Path dir) {
        List<String> entries = new ArrayList<>();
        int n = 0;
        for (String entry : classPath.split(File.pathSeparator)) {
            Path path = Path.of(entry);
            if (Files.isDirectory(path)) {
                Path jar = dir.resolve("classes-" + n++ + ".jar");
                jar(path, jar);
                entries.add(jar.toString());
            } else if (Files.isRegularFile(path)) {
                entries.add(entry);
            }
        }
        return String.join(File.pathSeparator, entries);
    }

    private static void jar(Path directory, Path jar) {
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar));
                Stream<Path> files = Files.walk(directory)) {
            for (Path file : files.filter(Files::isRegularFile).sorted().toList()) {
                out.putNextEntry(
                        new JarEntry(directory.relativize(file).toString().replace(File.separatorChar, '/')));
                Files.copy(file, out);
                out.closeEntry();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<String> all(Pattern pattern, String text) {
        List<String> found = new ArrayList<>();
        Matcher m = pattern.matcher(text);
        while (m.find()) {
            found.add(m.group(1));
        }
        return found;
    }
}
