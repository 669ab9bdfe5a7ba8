package io.kubeloop.it.maven;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.yaml.KubeYaml;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code manifests} goal in a user's project, run by Maven as a user runs it: a project importing the
 * BOM, depending on kubeloop-controller (which logs through SLF4J) and on no SLF4J provider, whose operator
 * declares its permissions. The goal writes the bundle and prints no warning — in particular not SLF4J's
 * "No SLF4J providers were found", which its generator process printed when the project's classes brought
 * slf4j-api without a provider.
 *
 * <p>The nested Maven is this build's own, on this test's JDK, with a local repository made of the jars and
 * POMs this build packaged into each module's {@code target/} (so the test needs the reactor built up to
 * kubeloop-maven-plugin, as {@code mvn verify} does) and every remote mirrored to this build's local
 * repository: no network.
 */
class ManifestsGoalTest {

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
    Path dir;

    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void writesTheBundleOfAUsersOperatorAndPrintsNoWarning() throws Exception {
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
        Path project = writeProject(dir.resolve("shelf-operator"), version);

        List<String> command = new ArrayList<>(List.of(
                mvn(), "-B", "-nsu", "-s", settings.toString(), "-Dmaven.repo.local=" + repo, "process-classes"));
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
        String log = Files.readString(dir.resolve("build.log"), StandardCharsets.UTF_8);

        assertThat(maven.exitValue()).as(log).isZero();
        assertThat(log).as(log).contains("kubeloop: wrote ").doesNotContain("SLF4J");
        String goalOutput = log.substring(log.indexOf("kubeloop-maven-plugin:" + version + ":manifests"));
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
    private static Path writeProject(Path project, String version) throws IOException {
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
                    </plugins>
                  </build>
                </project>
                """.formatted(version));
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
