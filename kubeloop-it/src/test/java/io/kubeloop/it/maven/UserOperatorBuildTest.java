package io.kubeloop.it.maven;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.json.KubeJson;
import io.kubeloop.api.yaml.KubeYaml;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * A user's operator project built by Maven as a user builds it: a project importing the BOM, depending on
 * kubeloop-controller (which logs through SLF4J) and on no SLF4J provider, whose operator declares its
 * permissions, with the {@code manifests} goal and the Jib set-up of docs/deploy.md (read from that page).
 *
 * <ul>
 *   <li>The goal writes the bundle and prints no warning — in particular not SLF4J's "No SLF4J providers
 *       were found", which its generator process printed when the project's classes brought slf4j-api
 *       without a provider.
 *   <li>{@code jib:buildTar} builds the image the page describes: the entry point runs your main class, the
 *       metrics and probe ports are exposed, the user is 65532. The base is {@code scratch}
 *       ({@code -Djib.from.image}), since the page's distroless base needs a registry: the layers above it
 *       are what the page's configuration decides.
 * </ul>
 *
 * <p>The nested Maven is this build's own, on this test's JDK, with a local repository made of the jars and
 * POMs this build packaged into each module's {@code target/} (so the test needs the reactor built up to
 * kubeloop-maven-plugin, as {@code mvn verify} does) and every remote mirrored to this build's local
 * repository, into which kubeloop-it's build resolves the Jib plugin: no network. One build serves both
 * tests.
 */
class UserOperatorBuildTest {

    /** The reactor modules a user's operator build resolves: the parent, the BOM, the controller stack, the plugin. */
    private static final List<String> MODULES = List.of(
            "kubeloop-bom",
            "kubeloop-time",
            "kubeloop-api",
            "kubeloop-workqueue",
            "kubeloop-client",
            "kubeloop-cache",
            "kubeloop-controller",
            "kubeloop-codegen",
            "kubeloop-maven-plugin");

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    @TempDir
    static Path dir;

    private static String version;
    private static Path project;
    private static String log;
    private static int exit;

    @BeforeAll
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    static void buildTheProject() throws Exception {
        version = System.getProperty("kubeloop.version");
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
        project = writeProject(dir.resolve("shelf-operator"), version, jibPlugin());

        List<String> command = new ArrayList<>(List.of(
                mvn(),
                "-B",
                "-nsu",
                "-s",
                settings.toString(),
                "-Dmaven.repo.local=" + repo,
                "-Djib.from.image=scratch",
                "-Djib.disableUpdateChecks=true",
                "process-classes",
                "jib:buildTar"));
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(project.toFile())
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("build.log").toFile());
        builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
        builder.environment().remove("MAVEN_OPTS");
        Process maven = builder.start();
        assertThat(maven.waitFor(9, TimeUnit.MINUTES))
                .as("the nested build ends")
                .isTrue();
        log = Files.readString(dir.resolve("build.log"), StandardCharsets.UTF_8);
        exit = maven.exitValue();
    }

    @Test
    void theManifestsGoalWritesTheBundleAndPrintsNoWarning() throws Exception {
        assertThat(exit).as(log).isZero();
        assertThat(log).as(log).contains("kubeloop: wrote ").doesNotContain("SLF4J");
        String goalOutput = log.substring(
                log.indexOf("kubeloop-maven-plugin:" + version + ":manifests"), log.indexOf("jib-maven-plugin:"));
        assertThat(goalOutput.lines().filter(l -> l.startsWith("[WARNING]")))
                .as("warnings of the manifests goal")
                .isEmpty();
        List<DynamicObject> bundle = KubeYaml.readAll(project.resolve("target/manifests/shelf-operator.yaml"));
        assertThat(bundle)
                .extracting(DynamicObject::kind)
                .contains("CustomResourceDefinition", "ClusterRole", "Deployment");
        assertThat(bundle.stream()
                        .filter(o -> o.kind().equals("ClusterRole"))
                        .findFirst()
                        .orElseThrow()
                        .node()
                        .toString())
                .contains("\"books/status\"");
    }

    @Test
    void jibAsTheDeployPageConfiguresItBuildsTheImageOfTheMainClass() throws Exception {
        assertThat(exit).as(log).isZero();
        Path tar = project.resolve("target/jib-image.tar");
        assertThat(tar).exists();
        JsonNode config = imageConfig(tar).path("config");

        assertThat(config.path("Entrypoint").toString())
                .endsWith(",\"com.example.shelf.Main\"]")
                .startsWith("[\"java\"");
        assertThat(config.path("ExposedPorts").propertyNames()).containsExactlyInAnyOrder("8080/tcp", "8081/tcp");
        assertThat(config.path("User").asString()).isEqualTo("65532:65532");
    }

    /** The image's config.json, from the tarball {@code jib:buildTar} writes (docker-load format). */
    private static JsonNode imageConfig(Path tar) throws IOException {
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

    /** The jib-maven-plugin block of docs/deploy.md's section "The image", as a user copies it. */
    private static String jibPlugin() throws IOException {
        String page = Files.readString(ROOT.resolve("docs/deploy.md"));
        int section = page.indexOf("## The image");
        int start = page.indexOf("```xml\n", section) + "```xml\n".length();
        String block = page.substring(start, page.indexOf("```", start));
        assertThat(block).contains("<artifactId>jib-maven-plugin</artifactId>");
        String jib = System.getProperty("kubeloop.jib.version");
        if (jib != null) {
            assertThat(block)
                    .as("the Jib version kubeloop-it resolves for this test")
                    .contains("<version>" + jib + "</version>");
        }
        return block;
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

    /** A user's operator project: a Book CRD record, a reconciler with permissions, the goal configured. */
    private static Path writeProject(Path project, String version, String jibPlugin) throws IOException {
        Path src = Files.createDirectories(project.resolve("src/main/java/com/example/shelf"));
        Files.writeString(project.resolve("pom.xml"), """
                <project xmlns="http://maven.apache.org/POM/4.0.0">
                  <modelVersion>4.0.0</modelVersion>
                  <groupId>com.example</groupId>
                  <artifactId>shelf-operator</artifactId>
                  <version>1.0-SNAPSHOT</version>
                  <properties>
                    <maven.compiler.release>21</maven.compiler.release>
                    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
                  </properties>
                  <dependencyManagement>
                    <dependencies>
                      <dependency>
                        <groupId>io.kubeloop</groupId>
                        <artifactId>kubeloop-bom</artifactId>
                        <version>%1$s</version>
                        <type>pom</type>
                        <scope>import</scope>
                      </dependency>
                    </dependencies>
                  </dependencyManagement>
                  <dependencies>
                    <dependency>
                      <groupId>io.kubeloop</groupId>
                      <artifactId>kubeloop-controller</artifactId>
                    </dependency>
                  </dependencies>
                  <build>
                    <plugins>
                      <plugin>
                        <groupId>org.apache.maven.plugins</groupId>
                        <artifactId>maven-resources-plugin</artifactId>
                        <version>3.3.1</version>
                      </plugin>
                      <plugin>
                        <groupId>org.apache.maven.plugins</groupId>
                        <artifactId>maven-compiler-plugin</artifactId>
                        <version>3.14.0</version>
                      </plugin>
                      <plugin>
                        <groupId>io.kubeloop</groupId>
                        <artifactId>kubeloop-maven-plugin</artifactId>
                        <version>%1$s</version>
                        <executions>
                          <execution>
                            <goals><goal>manifests</goal></goals>
                            <configuration>
                              <name>shelf-operator</name>
                              <namespace>shelf-system</namespace>
                              <image>registry.example.com/shelf-operator:1.0</image>
                              <controllers><controller>com.example.shelf.ShelfOperator</controller></controllers>
                              <crdClasses><crdClass>com.example.shelf.Book</crdClass></crdClasses>
                              <args><arg>--leader-elect</arg></args>
                            </configuration>
                          </execution>
                        </executions>
                      </plugin>
                %2$s
                    </plugins>
                  </build>
                </project>
                """.formatted(version, jibPlugin.indent(6)));
        Files.writeString(src.resolve("Main.java"), """
                package com.example.shelf;

                /** The operator's main class: the image's entry point. */
                public final class Main {
                    private Main() {}

                    public static void main(String[] args) {
                        System.out.println(String.join(" ", args));
                    }
                }
                """);
        Files.writeString(src.resolve("Book.java"), """
                package com.example.shelf;

                import io.kubeloop.api.Kind;
                import io.kubeloop.api.KubernetesObject;
                import io.kubeloop.api.ObjectMeta;
                import io.kubeloop.api.crd.CustomResource;

                @Kind(group = "shelf.example.com", version = "v1")
                @CustomResource(status = true)
                public record Book(String apiVersion, String kind, ObjectMeta metadata, Spec spec, Status status)
                        implements KubernetesObject {
                    public record Spec(String title) {}

                    public record Status(Boolean shelved) {}
                }
                """);
        Files.writeString(src.resolve("ShelfOperator.java"), """
                package com.example.shelf;

                import io.fabric8.kubernetes.api.model.ConfigMap;
                import io.kubeloop.controller.Controller;
                import io.kubeloop.controller.ControllerBuilder;
                import io.kubeloop.controller.Manager;
                import io.kubeloop.controller.ReconcileContext;
                import io.kubeloop.controller.Reconciler;
                import io.kubeloop.controller.Request;
                import io.kubeloop.controller.Result;
                import io.kubeloop.controller.rbac.Permission;

                public final class ShelfOperator {
                    private ShelfOperator() {}

                    @Permission(groups = "", resources = "configmaps", verbs = {"create", "update"})
                    @Permission(groups = "shelf.example.com", resources = "books/status", verbs = "update")
                    static final class Shelver implements Reconciler {
                        @Override
                        public Result reconcile(Request request, ReconcileContext context) {
                            return Result.done();
                        }
                    }

                    public static Controller addTo(Manager manager) {
                        return ControllerBuilder.forResource(Book.class)
                                .owns(ConfigMap.class)
                                .named("shelver")
                                .build(manager, new Shelver());
                    }
                }
                """);
        return project;
    }
}
