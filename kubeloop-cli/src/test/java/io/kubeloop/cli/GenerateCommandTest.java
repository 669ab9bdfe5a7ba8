package io.kubeloop.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.kubeloop.api.yaml.KubeYaml;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.spi.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code kubeloop generate models} and {@code kubeloop generate crds} as a user runs them. */
class GenerateCommandTest {

    private static final String CRD = """
            apiVersion: apiextensions.k8s.io/v1
            kind: CustomResourceDefinition
            metadata: {name: gadgets.example.com}
            spec:
              group: example.com
              names: {kind: Gadget, plural: gadgets, singular: gadget, listKind: GadgetList}
              scope: Namespaced
              versions:
              - name: v1
                served: true
                storage: true
                schema:
                  openAPIV3Schema:
                    type: object
                    properties:
                      spec:
                        type: object
                        properties:
                          size: {type: integer, format: int32, minimum: 1}
              - name: v2
                served: true
                storage: false
                schema:
                  openAPIV3Schema:
                    type: object
                    properties:
                      spec: {type: object, properties: {size: {type: string}}}
            """;

    @TempDir
    Path dir;

    record Result(int exit, String out, String err) {}

    private static Result kubeloop(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = Main.run(new PrintWriter(out), new PrintWriter(err), args);
        return new Result(exit, out.toString(), err.toString());
    }

    @Test
    void modelsFromAFileWritesOneRecordPerServedVersionAndSaysWhere() throws IOException {
        Path crd = Files.writeString(dir.resolve("gadgets.yaml"), CRD);
        Path out = dir.resolve("src");
        Result r = kubeloop(
                "generate", "models", "--crd", crd.toString(), "--package", "com.example", "--out", out.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        Path v1 = out.resolve("com/example/v1/Gadget.java");
        Path v2 = out.resolve("com/example/v2/Gadget.java");
        assertThat(Files.readString(v1))
                .contains("package com.example.v1;")
                .contains("@Kind(group = \"example.com\", version = \"v1\", plural = \"gadgets\")")
                .contains("@Minimum(1) Integer size");
        assertThat(Files.readString(v2))
                .contains("@CustomResource(storage = false)")
                .contains("String size");
        assertThat(r.out()).contains(v1.toString()).contains("generated 2 records");
    }

    @Test
    void modelsFromAUrlReadsTheCrdOverHttp() throws IOException {
        HttpServer http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        http.createContext("/gadgets.yaml", exchange -> {
            byte[] body = CRD.getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        http.start();
        try {
            String url = "http://127.0.0.1:" + http.getAddress().getPort() + "/gadgets.yaml";
            Result r =
                    kubeloop("generate", "models", "--crd", url, "--package", "com.example", "--out", dir.toString());
            assertThat(r.exit()).as(r.err()).isZero();
            assertThat(dir.resolve("com/example/v1/Gadget.java")).exists();
            String nowhere = "http://127.0.0.1:" + http.getAddress().getPort() + "/missing.yaml";
            Result missing = kubeloop(
                    "generate", "models", "--crd", nowhere, "--package", "com.example", "--out", dir.toString());
            assertThat(missing.exit()).isEqualTo(1);
            assertThat(missing.err().strip()).isEqualTo("error: cannot fetch " + nowhere + ": HTTP 404");
        } finally {
            http.stop(0);
        }
    }

    @Test
    void aMissingFileOrAFileWithoutACrdIsOneLineOnStderr() throws IOException {
        Result missing = kubeloop(
                "generate",
                "models",
                "--crd",
                dir.resolve("nope.yaml").toString(),
                "--package",
                "com.example",
                "--out",
                dir.toString());
        assertThat(missing.exit()).isEqualTo(1);
        assertThat(missing.err().strip()).isEqualTo("error: no such file: " + dir.resolve("nope.yaml"));

        Path configMap =
                Files.writeString(dir.resolve("cm.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n");
        Result noCrd = kubeloop(
                "generate",
                "models",
                "--crd",
                configMap.toString(),
                "--package",
                "com.example",
                "--out",
                dir.toString());
        assertThat(noCrd.exit()).isEqualTo(1);
        assertThat(noCrd.err().lines().toList())
                .containsExactly("error: " + configMap + ": no apiextensions.k8s.io/v1 CustomResourceDefinition with a"
                        + " served version among 1 objects");
    }

    @Test
    void crdsFromTheSampleControllersFooWritesItsCrd() throws IOException {
        Result r = kubeloop(
                "generate", "crds", "--classes", "io.kubeloop.samples.samplecontroller.Foo", "--out", dir.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        Path file = dir.resolve("foos.samplecontroller.k8s.io.yaml");
        assertThat(r.out().strip()).isEqualTo(file.toString());
        assertThat(Files.readString(file))
                .contains("kind: CustomResourceDefinition")
                .contains("group: samplecontroller.k8s.io")
                .contains("deploymentName:");
        assertThat(KubeYaml.readAll(file).getFirst().metadata().annotations())
                .as("samplecontroller.k8s.io is a protected group")
                .containsEntry(
                        "api-approved.kubernetes.io",
                        "unapproved, experimental-only; please get an approval from Kubernetes API reviewers if"
                                + " you're trying to develop a CRD in the *.k8s.io or *.kubernetes.io groups");
    }

    @Test
    void crdsFromClassesOnAClasspathPrintsYamlWithoutOut() throws IOException {
        Path src = Files.createDirectories(dir.resolve("src/com/example"));
        Files.writeString(src.resolve("Thing.java"), """
                package com.example;

                import io.kubeloop.api.Kind;
                import io.kubeloop.api.KubernetesObject;
                import io.kubeloop.api.ObjectMeta;
                import io.kubeloop.api.crd.Required;

                @Kind(group = "example.com", version = "v1", namespaced = false)
                public record Thing(String apiVersion, String kind, ObjectMeta metadata, Spec spec)
                        implements KubernetesObject {
                    public record Spec(@Required String color) {}
                }
                """);
        Path classes = dir.resolve("classes");
        int rc = ToolProvider.findFirst("javac")
                .orElseThrow()
                .run(
                        System.out,
                        System.err,
                        "-d",
                        classes.toString(),
                        "-classpath",
                        System.getProperty("java.class.path"),
                        src.resolve("Thing.java").toString());
        assertThat(rc).isZero();

        Result r = kubeloop("generate", "crds", "--classes", "com.example.Thing", "--classpath", classes.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out())
                .startsWith("apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\n")
                .contains("name: things.example.com")
                .contains("scope: Cluster")
                .contains("            required:\n            - color\n");

        Result unknown =
                kubeloop("generate", "crds", "--classes", "com.example.Nope", "--classpath", classes.toString());
        assertThat(unknown.exit()).isEqualTo(1);
        assertThat(unknown.err().lines().toList()).hasSize(1);
        assertThat(unknown.err()).startsWith("error: cannot load class com.example.Nope from " + classes);
    }
}
