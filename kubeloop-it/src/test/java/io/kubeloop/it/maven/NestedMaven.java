package io.kubeloop.it.maven;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.kubeloop.api.json.KubeJson;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import tools.jackson.databind.JsonNode;

/**
 * A Maven build of a user's project, run by a test as a user runs it, with no network: this build's own Maven
 * ({@code kubeloop.maven.home}), a local repository made of the jars and POMs this build packaged into each
 * module's {@code target/} (laid out as {@code mvn install} would), and every remote mirrored to this build's local
 * repository ({@code kubeloop.maven.repo.local}), which holds every third-party artifact kubeloop-it's build
 * resolved, the plugins a user's build runs included.
 *
 * <p>{@link #prepare} skips the calling test (an assumption) when it does not run under Maven or when a module is not
 * packaged: the test needs the reactor built up to kubeloop-it, as {@code mvn verify} does.
 */
final class NestedMaven {

    /**
     * The reactor modules a user's operator project resolves: the BOM, the controller stack, the embedded API server
     * and its JUnit extension, the generators and their Maven plugin.
     */
    static final List<String> MODULES = List.of(
            "kubeloop-bom",
            "kubeloop-time",
            "kubeloop-api",
            "kubeloop-fabric8",
            "kubeloop-models",
            "kubeloop-workqueue",
            "kubeloop-client",
            "kubeloop-cache",
            "kubeloop-controller",
            "kubeloop-codegen",
            "kubeloop-maven-plugin",
            "kubeloop-cel",
            "kubeloop-apiserver",
            "kubeloop-testing");

    /** The repository's root. */
    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    private final String version;
    private final Path repo;
    private final Path settings;

    private NestedMaven(String version, Path repo, Path settings) {
        this.version = version;
        this.repo = repo;
        this.settings = settings;
    }

    /** What a build printed and how it ended. */
    record Build(int exit, String log) {

        /**
         * The output of one goal's execution in one project: the lines after its {@code --- PLUGIN:VERSION:GOAL (ID)
         * @ PROJECT ---} header up to the next header or the end of the project's build.
         */
        String goalOutput(String pluginAndGoal, String project) {
            List<String> lines = log.lines().toList();
            StringBuilder out = new StringBuilder();
            boolean in = false;
            for (String line : lines) {
                boolean header = line.startsWith("[INFO] --- ")
                        || line.startsWith("[INFO] ---------")
                        || line.startsWith("[INFO] Reactor Summary");
                if (header) {
                    in = line.contains(pluginAndGoal) && line.contains("@ " + project + " ");
                } else if (in) {
                    out.append(line).append('\n');
                }
            }
            assertThat(out)
                    .as("the output of %s in %s, in:\n%s", pluginAndGoal, project, log)
                    .isNotEmpty();
            return out.toString();
        }
    }

    /** A local repository under {@code dir} holding this build's packaged modules, and settings that mirror it. */
    static NestedMaven prepare(Path dir) throws IOException {
        String version = System.getProperty("kubeloop.version");
        String mainRepo = System.getProperty("kubeloop.maven.repo.local");
        assumeTrue(
                version != null && mainRepo != null, "run by Maven: the build passes its version and local repository");
        Path repo = dir.resolve("repo");
        for (String module : MODULES) {
            install(module, version, repo);
        }
        install("kubeloop-parent", ROOT.resolve("pom.xml"), null, version, repo);
        Path settings = Files.writeString(
                dir.resolve("settings.xml"), """
                <settings>
                  <mirrors>
                    <mirror>
                      <id>this-build</id>
                      <mirrorOf>*</mirrorOf>
                      <url>%s</url>
                    </mirror>
                  </mirrors>
                </settings>
                """.formatted(Path.of(mainRepo).toUri()));
        return new NestedMaven(version, repo, settings);
    }

    /** kubeloop's version, as this build's. */
    String version() {
        return version;
    }

    /**
     * Runs Maven in {@code project} on the JDK {@code javaHome} with {@code args} (goals and properties), batch mode,
     * no snapshot updates, {@code MAVEN_OPTS} cleared; its output goes to {@code log}.
     */
    Build run(Path project, Path javaHome, Path log, Duration timeout, String... args)
            throws IOException, InterruptedException {
        List<String> command =
                new ArrayList<>(List.of(mvn(), "-B", "-nsu", "-s", settings.toString(), "-Dmaven.repo.local=" + repo));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(project.toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        builder.environment().put("JAVA_HOME", javaHome.toString());
        builder.environment().remove("MAVEN_OPTS");
        Process maven = builder.start();
        boolean ended = maven.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        if (!ended) {
            maven.descendants().forEach(ProcessHandle::destroyForcibly);
            maven.destroyForcibly();
        }
        String output = Files.readString(log, StandardCharsets.UTF_8);
        assertThat(ended)
                .as("the nested build ends within %s:\n%s", timeout, output)
                .isTrue();
        return new Build(maven.exitValue(), output);
    }

    /** The image's config.json, from the tarball {@code jib:buildTar} writes (docker-load format). */
    static JsonNode imageConfig(Path tar) throws IOException {
        try (InputStream in = Files.newInputStream(tar)) {
            byte[] header = new byte[512];
            while (in.readNBytes(header, 0, 512) == 512 && header[0] != 0) {
                String name = new String(header, 0, 100, StandardCharsets.US_ASCII)
                        .replace("\0", "")
                        .strip();
                long size = Long.parseLong(
                        new String(header, 124, 12, StandardCharsets.US_ASCII)
                                .replace("\0", "")
                                .strip(),
                        8);
                byte[] body = in.readNBytes((int) size);
                in.skipNBytes((512 - size % 512) % 512);
                if (name.equals("config.json")) {
                    return KubeJson.mapper().readTree(body);
                }
            }
        }
        throw new AssertionError("no config.json in " + tar);
    }

    /** Copies a reactor module's POM and jar into {@code repo} as {@code mvn install} would lay them out. */
    private static void install(String module, String version, Path repo) throws IOException {
        Path pom = ROOT.resolve(module).resolve("pom.xml");
        Path jar = ROOT.resolve(module).resolve("target").resolve(module + "-" + version + ".jar");
        boolean packaged = Files.readString(pom).contains("<packaging>pom</packaging>");
        if (!packaged) {
            assumeTrue(Files.exists(jar), module + " is not packaged (" + jar + "): run mvn verify on the reactor");
        }
        install(module, pom, packaged ? null : jar, version, repo);
    }

    private static void install(String artifactId, Path pom, Path jar, String version, Path repo) throws IOException {
        Path to = Files.createDirectories(
                repo.resolve("io/kubeloop").resolve(artifactId).resolve(version));
        Files.copy(pom, to.resolve(artifactId + "-" + version + ".pom"));
        if (jar != null) {
            Files.copy(jar, to.resolve(artifactId + "-" + version + ".jar"));
        }
    }

    private static String mvn() {
        String home = System.getProperty("kubeloop.maven.home");
        if (home != null && Files.isExecutable(Path.of(home, "bin", "mvn"))) {
            return Path.of(home, "bin", "mvn").toString();
        }
        return "mvn";
    }
}
