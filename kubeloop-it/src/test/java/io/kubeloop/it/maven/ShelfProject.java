package io.kubeloop.it.maven;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A user's operator project besides the quickstart's: importing the BOM, depending on kubeloop-controller and kubeloop-models (which logs
 * through SLF4J) and on no SLF4J provider, its operator declaring its permissions, with the {@code manifests} goal,
 * the JDK toolchain set-up and the Jib set-up of docs/deploy.md (read from that page).
 */
final class ShelfProject {

    private ShelfProject() {}

    /** The jib-maven-plugin block of docs/deploy.md's section "The image", as a user copies it. */
    static String jibPlugin() throws IOException {
        String page = Files.readString(NestedMaven.ROOT.resolve("docs/deploy.md"));
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

    /** A user's operator project: a Book CRD record, a reconciler with permissions, the goal configured. */
    static Path write(Path project, String version) throws IOException {
        String jibPlugin = jibPlugin();
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
                    <dependency>
                      <groupId>io.kubeloop</groupId>
                      <artifactId>kubeloop-models</artifactId>
                    </dependency>
                  </dependencies>
                  <build>
                    <plugins>
                      <plugin>
                        <groupId>org.apache.maven.plugins</groupId>
                        <artifactId>maven-toolchains-plugin</artifactId>
                        <version>3.2.0</version>
                        <executions>
                          <execution>
                            <goals><goal>select-jdk-toolchain</goal></goals>
                          </execution>
                        </executions>
                        <configuration>
                          <version>[21,)</version>
                        </configuration>
                      </plugin>
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
                        <groupId>org.apache.maven.plugins</groupId>
                        <artifactId>maven-surefire-plugin</artifactId>
                        <version>3.5.4</version>
                      </plugin>
                      <plugin>
                        <groupId>org.apache.maven.plugins</groupId>
                        <artifactId>maven-jar-plugin</artifactId>
                        <version>3.4.2</version>
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

                import io.kubeloop.models.core.v1.ConfigMap;
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
