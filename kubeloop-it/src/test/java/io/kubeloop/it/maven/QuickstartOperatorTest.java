package io.kubeloop.it.maven;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.example.websites.Website;
import io.kubeloop.api.Conditions;
import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.errors.NotFoundException;
import io.kubeloop.api.yaml.KubeYaml;
import io.kubeloop.apiserver.EmbeddedApiServer;
import io.kubeloop.client.KubeClient;
import io.kubeloop.client.ResourceClient;
import io.kubeloop.it.docs.QuickstartProject;
import io.kubeloop.it.operator.BundleReplicas;
import io.kubeloop.it.operator.BundleReplicas.Replica;
import io.kubeloop.models.apps.v1.Deployment;
import io.kubeloop.models.core.v1.ConfigMap;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The quickstart as written, from an empty project to two replicas running with least privilege: docs/quickstart.md's
 * {@code pom.xml} and source files, copied into an empty directory, built by Maven running on a JDK 17 (the default
 * {@code java} of many machines), then deployed from the bundle the build wrote.
 *
 * <ul>
 *   <li>{@code mvn package} compiles and tests on a JDK 21+ that the pom's toolchains set-up finds; the quickstart's
 *       own test passes on the embedded API server; the {@code manifests} goal writes the bundle, declaring what the
 *       operator's {@code @Permission}s and builder ask for and nothing broader, and prints no warning.
 *   <li>{@code jib:buildTar} builds the image the pom configures: the entry point runs the operator's main class, the
 *       metrics and probe ports are exposed, the user is 65532. The base is {@code scratch}
 *       ({@code -Djib.from.image=scratch}), since the pom's distroless base comes from a registry the tests cannot
 *       reach: the layers above it are what the pom decides.
 *   <li>The bundle applied to an embedded API server that enforces RBAC, two replicas run as the Deployment's pods
 *       would — separate processes on a JDK 21+, the image's main class on the project's runtime class path, the
 *       container's arguments and environment, each with a token of the bundle's ServiceAccount: both are ready,
 *       exactly one leads, and it serves a Website (its page, its Deployment, its Ready condition) and cleans up when
 *       it is deleted; the other reconciles nothing.
 * </ul>
 *
 * <p>The same build holds a second user project, written here: one whose operator has no SLF4J provider on its class
 * path and whose Jib set-up is docs/deploy.md's, read from that page. Its {@code manifests} goal prints no SLF4J
 * warning either (SLF4J's "No SLF4J providers were found", which the generator's process printed when the project's
 * classes brought slf4j-api without a provider).
 *
 * <p>The nested Maven is this build's own ({@link NestedMaven}), on {@code /usr/lib/jvm/java-17-openjdk-amd64}: the
 * test is skipped where that JDK is not installed. One build serves every test.
 */
class QuickstartOperatorTest {

    private static final Path JDK_17 = Path.of("/usr/lib/jvm/java-17-openjdk-amd64");

    @TempDir
    static Path dir;

    private static String version;
    private static Path website;
    private static Path shelf;
    private static NestedMaven.Build build;

    @BeforeAll
    @Timeout(value = 12, unit = TimeUnit.MINUTES)
    static void buildTheProjects() throws Exception {
        assumeTrue(
                Files.isExecutable(JDK_17.resolve("bin/java")),
                "a JDK 17 at " + JDK_17 + ", on which the nested Maven runs");
        NestedMaven maven = NestedMaven.prepare(dir);
        version = maven.version();
        Path projects = Files.createDirectories(dir.resolve("projects"));
        website = projects.resolve("website-operator");
        assertThat(QuickstartProject.writeTo(website))
                .as("the quickstart's files")
                .contains(
                        Path.of("pom.xml"),
                        Path.of("src/main/java/com/example/websites/Website.java"),
                        Path.of("src/main/java/com/example/websites/WebsiteOperator.java"),
                        Path.of("src/test/java/com/example/websites/WebsiteOperatorTest.java"));
        assertThat(Files.readString(website.resolve("pom.xml")))
                .as("the quickstart's pom asks for this build's kubeloop")
                .contains("<kubeloop.version>" + version + "</kubeloop.version>");
        shelf = ShelfProject.write(projects.resolve("shelf-operator"), version);
        Files.writeString(
                projects.resolve("pom.xml"), """
                <project xmlns="http://maven.apache.org/POM/4.0.0">
                  <modelVersion>4.0.0</modelVersion>
                  <groupId>test</groupId>
                  <artifactId>user-projects</artifactId>
                  <version>1</version>
                  <packaging>pom</packaging>
                  <modules>
                    <module>website-operator</module>
                    <module>shelf-operator</module>
                  </modules>
                  <build>
                    <plugins>
                      <plugin>
                        <!-- so that jib:buildTar resolves here too (and skips this pom-packaged project) -->
                        <groupId>com.google.cloud.tools</groupId>
                        <artifactId>jib-maven-plugin</artifactId>
                        <version>%s</version>
                      </plugin>
                    </plugins>
                  </build>
                </project>
                """.formatted(System.getProperty("kubeloop.jib.version", "3.5.2")));
        build = maven.run(
                projects,
                JDK_17,
                dir.resolve("build.log"),
                Duration.ofMinutes(11),
                "-V",
                "-Djib.from.image=scratch",
                "-Djib.disableUpdateChecks=true",
                "-Dmdep.outputFile=target/classpath.txt",
                "-Dmdep.includeScope=runtime",
                "package",
                "org.apache.maven.plugins:maven-dependency-plugin:3.8.1:build-classpath",
                "jib:buildTar");
    }

    @Test
    void mavenOnJdk17BuildsTheQuickstartAndItsTestPassesOnTheEmbeddedServer() {
        assertThat(build.exit()).as(build.log()).isZero();
        assertThat(build.log())
                .contains("Java version: 17.")
                .contains("Tests run: 1, Failures: 0, Errors: 0, Skipped: 0, Time elapsed:")
                .contains("-- in com.example.websites.WebsiteOperatorTest");
        assertThat(build.goalOutput("maven-surefire-plugin:3.5.4:test", "website-operator"))
                .contains("Toolchain in maven-surefire-plugin: JDK[");
    }

    @Test
    void theManifestsGoalWritesBundlesOfTheDeclaredPermissionsAndPrintsNoWarning() throws Exception {
        assertThat(build.exit()).as(build.log()).isZero();
        for (String project : List.of("website-operator", "shelf-operator")) {
            String goal = build.goalOutput("kubeloop-maven-plugin:" + version + ":manifests", project);
            assertThat(goal).as(project).contains("kubeloop: wrote ").doesNotContain("SLF4J");
            assertThat(goal.lines().filter(l -> l.startsWith("[WARNING]")))
                    .as("warnings of the manifests goal in " + project)
                    .isEmpty();
        }

        List<DynamicObject> bundle = KubeYaml.readAll(website.resolve("target/manifests/website-operator.yaml"));
        assertThat(bundle)
                .extracting(DynamicObject::kind)
                .contains("CustomResourceDefinition", "ServiceAccount", "ClusterRole", "Deployment");
        JsonNode rules = clusterRole(bundle).path("rules");
        assertThat(rules.toString())
                .as("the @Permission of the status writes, and the builder's patch for the finalizer")
                .contains("\"websites/status\"")
                .contains("\"patch\"");
        for (JsonNode rule : rules) {
            assertThat(rule.path("verbs").toString())
                    .as("least privilege: %s", rule)
                    .doesNotContain("\"*\"");
            assertThat(rule.path("resources").toString())
                    .as("least privilege: %s", rule)
                    .doesNotContain("\"*\"");
        }
        assertThat(website.resolve("target/classes/META-INF/kubeloop/crds/websites.demo.example.com.yaml"))
                .as("the generate-crds goal's CRD")
                .exists();

        assertThat(clusterRole(KubeYaml.readAll(shelf.resolve("target/manifests/shelf-operator.yaml")))
                        .toString())
                .contains("\"books/status\"");
    }

    @Test
    void jibBuildsTheImageOfTheOperatorsMainClass() throws Exception {
        assertThat(build.exit()).as(build.log()).isZero();
        record Image(Path project, String mainClass) {}
        for (Image image : List.of(
                new Image(website, "com.example.websites.WebsiteOperator"),
                new Image(shelf, "com.example.shelf.Main"))) {
            Path tar = image.project().resolve("target/jib-image.tar");
            assertThat(tar).exists();
            JsonNode config = NestedMaven.imageConfig(tar).path("config");
            assertThat(config.path("Entrypoint").toString())
                    .startsWith("[\"java\"")
                    .endsWith(",\"" + image.mainClass() + "\"]");
            assertThat(config.path("ExposedPorts").propertyNames()).containsExactlyInAnyOrder("8080/tcp", "8081/tcp");
            assertThat(config.path("User").asString()).isEqualTo("65532:65532");
        }
    }

    @Test
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void twoReplicasFromTheBundleRunAsTheirServiceAccountAndTheLeaderServesAWebsite() throws Exception {
        assertThat(build.exit()).as(build.log()).isZero();
        List<ObjectNode> bundle = KubeYaml.readAll(website.resolve("target/manifests/website-operator.yaml")).stream()
                .map(DynamicObject::node)
                .toList();
        String entrypoint = NestedMaven.imageConfig(website.resolve("target/jib-image.tar"))
                .path("config")
                .path("Entrypoint")
                .toString();
        String mainClass = entrypoint.substring(entrypoint.lastIndexOf(",\"") + 2, entrypoint.length() - 2);
        String classpath = website.resolve("target/classes")
                + File.pathSeparator
                + Files.readString(website.resolve("target/classpath.txt")).strip();
        try (EmbeddedApiServer server = EmbeddedApiServer.start();
                KubeClient admin = server.client();
                BundleReplicas pods = new BundleReplicas(server, admin, bundle, dir.resolve("pods"))) {
            pods.apply();
            Path java = Path.of(System.getProperty("java.home"), "bin", "java");
            List<String> jvm = List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC");
            Replica a = pods.start("website-operator-a", java, jvm, classpath, mainClass);
            Replica b = pods.start("website-operator-b", java, jvm, classpath, mainClass);
            for (Replica r : List.of(a, b)) {
                await().atMost(Duration.ofSeconds(90))
                        .ignoreExceptions()
                        .untilAsserted(() -> assertThat(BundleReplicas.get(r.probes(), "/readyz"))
                                .as(r.name() + " ready; its stderr: " + r.stderr())
                                .isEqualTo(200));
                assertThat(BundleReplicas.get(r.metrics(), "/metrics")).isEqualTo(200);
            }
            String holder = await().atMost(Duration.ofSeconds(60))
                    .ignoreExceptions()
                    .until(() -> pods.leaseHolder("website-operator"), h -> h != null && !h.isEmpty());
            Replica leader = holder.startsWith(a.name() + "_") ? a : b;
            Replica follower = leader.equals(a) ? b : a;
            assertThat(holder).startsWith(leader.name() + "_");

            ResourceClient<Website> websites = admin.resource(Website.class).inNamespace("default");
            websites.create(Website.of("default", "hello", "<h1>Hello</h1>", 2));
            await().atMost(Duration.ofSeconds(60))
                    .ignoreException(NotFoundException.class)
                    .untilAsserted(() -> assertThat(Conditions.isStatusConditionTrue(
                                    websites.get("hello").conditions(), "Ready"))
                            .as("Ready; the leader's stderr: " + leader.stderr())
                            .isTrue());
            ConfigMap page =
                    admin.resource(ConfigMap.class).inNamespace("default").get("hello-html");
            assertThat(page.data()).containsEntry("index.html", "<h1>Hello</h1>");
            assertThat(page.metadata().managedFields())
                    .extracting(f -> f.manager())
                    .contains("website-operator");
            Deployment served =
                    admin.resource(Deployment.class).inNamespace("default").get("hello");
            assertThat(served.spec().replicas()).isEqualTo(2);

            websites.delete("hello");
            await().atMost(Duration.ofSeconds(30))
                    .untilAsserted(() ->
                            assertThatThrownBy(() -> websites.get("hello")).isInstanceOf(NotFoundException.class));
            assertThat(leader.stderr())
                    .contains("website hello: page CREATED, deployment CREATED")
                    .contains("website hello: unpublished")
                    .doesNotContainIgnoringCase("forbidden");
            assertThat(follower.stderr())
                    .as("the follower reconciles nothing")
                    .doesNotContain("website hello")
                    .doesNotContainIgnoringCase("forbidden");
            assertThat(pods.leaseHolder("website-operator")).isEqualTo(holder);
        }
    }

    private static JsonNode clusterRole(List<DynamicObject> bundle) {
        return bundle.stream()
                .filter(o -> o.kind().equals("ClusterRole"))
                .findFirst()
                .orElseThrow()
                .node();
    }
}
