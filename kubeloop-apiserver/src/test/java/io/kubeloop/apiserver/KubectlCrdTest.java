package io.kubeloop.apiserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real kubectl with CustomResourceDefinitions and the scale subresource. Skipped when kubectl is not on
 * PATH. Manifests go in with {@code --validate=false} because this branch does not serve
 * {@code /openapi/v3} (TODO(lead): drop the flag once the OpenAPI documents are wired in).
 */
class KubectlCrdTest {

    /** The server these tests share: started before the first, closed after the last. */
    @AutoClose
    private static EmbeddedApiServer shared;

    private static final String FOO_CRD = """
            apiVersion: apiextensions.k8s.io/v1
            kind: CustomResourceDefinition
            metadata:
              name: foos.samplecontroller.k8s.io
              annotations:
                api-approved.kubernetes.io: "unapproved, experimental-only; please get an approval from Kubernetes API reviewers if you're trying to develop a CRD in the *.k8s.io or *.kubernetes.io groups"
            spec:
              group: samplecontroller.k8s.io
              versions:
                - name: v1alpha1
                  served: true
                  storage: true
                  schema:
                    openAPIV3Schema:
                      type: object
                      properties:
                        spec:
                          type: object
                          properties:
                            deploymentName:
                              type: string
                            replicas:
                              type: integer
                              minimum: 1
                              maximum: 10
                        status:
                          type: object
                          properties:
                            availableReplicas:
                              type: integer
                  subresources:
                    status: {}
              names:
                kind: Foo
                plural: foos
              scope: Namespaced
            ---
            apiVersion: apiextensions.k8s.io/v1
            kind: CustomResourceDefinition
            metadata:
              name: dials.example.com
            spec:
              group: example.com
              scope: Namespaced
              names: {kind: Dial, plural: dials, shortNames: [dl]}
              versions:
                - name: v1
                  served: true
                  storage: true
                  subresources:
                    status: {}
                    scale: {specReplicasPath: .spec.replicas, statusReplicasPath: .status.replicas}
                  additionalPrinterColumns:
                    - {name: Replicas, type: integer, jsonPath: .spec.replicas}
                    - {name: Color, type: string, jsonPath: .spec.color, priority: 1}
                  schema:
                    openAPIV3Schema:
                      type: object
                      properties:
                        spec:
                          type: object
                          properties:
                            replicas: {type: integer}
                            color: {type: string}
                        status:
                          type: object
                          properties:
                            replicas: {type: integer}
            """;

    @TempDir
    static Path dir;

    static Kubectl runner;

    @BeforeAll
    static void setUp() {
        EmbeddedApiServer server = shared = EmbeddedApiServer.start(ServerOptions.defaults());
        Path binary = Kubectl.onPath().orElse(null);
        assumeTrue(binary != null, "kubectl is not on PATH: kubectl CRD test skipped");
        runner = new Kubectl(binary, "PATH", server.writeKubeconfig(dir.resolve("kubeconfig")), dir.resolve("cache"));
    }

    private static Kubectl.Result kubectl(String... args) {
        return runner.run(args);
    }

    private static Kubectl.Result ok(String... args) throws Exception {
        Kubectl.Result r = kubectl(args);
        assertThat(r.code())
                .as("kubectl %s: %s", String.join(" ", args), r.out())
                .isZero();
        return r;
    }

    private static Path file(String name, String content) throws IOException {
        return Files.writeString(dir.resolve(name), content);
    }

    @Test
    void applyWaitGetScaleAndDeleteCustomResources() throws Exception {
        Path crds = file("crds.yaml", FOO_CRD);
        assertThat(ok("apply", "-f", crds.toString(), "--validate=false").out())
                .contains("customresourcedefinition.apiextensions.k8s.io/foos.samplecontroller.k8s.io created");
        ok(
                "wait",
                "--for",
                "condition=established",
                "crd/foos.samplecontroller.k8s.io",
                "crd/dials.example.com",
                "--timeout=30s");

        Path foo = file("foo.yaml", """
                apiVersion: samplecontroller.k8s.io/v1alpha1
                kind: Foo
                metadata:
                  name: example-foo
                spec:
                  deploymentName: example-foo
                  replicas: 1
                """);
        assertThat(ok("apply", "-f", foo.toString(), "--validate=false").out())
                .contains("foo.samplecontroller.k8s.io/example-foo created");
        Kubectl.Result foos = ok("get", "foos");
        assertThat(foos.out().lines().findFirst().orElse("")).matches("NAME\\s+AGE\\s*");
        assertThat(foos.out()).contains("example-foo");

        Path dial = file("dial.yaml", """
                apiVersion: example.com/v1
                kind: Dial
                metadata:
                  name: d1
                spec:
                  replicas: 2
                  color: red
                """);
        ok("apply", "-f", dial.toString(), "--validate=false");
        Kubectl.Result narrow = ok("get", "dials");
        assertThat(narrow.out().lines().findFirst().orElse("")).matches("NAME\\s+REPLICAS\\s*");
        Kubectl.Result wide = ok("get", "dl", "-o", "wide");
        assertThat(wide.out().lines().findFirst().orElse("")).matches("NAME\\s+REPLICAS\\s+COLOR\\s*");
        assertThat(wide.out()).containsPattern("d1\\s+2\\s+red");
        assertThat(ok("scale", "dial/d1", "--replicas=4").out()).contains("dial.example.com/d1 scaled");
        assertThat(ok("get", "dial", "d1", "-o", "jsonpath={.spec.replicas}").out())
                .isEqualTo("4");

        assertThat(ok("delete", "crd", "foos.samplecontroller.k8s.io").out())
                .contains("customresourcedefinition.apiextensions.k8s.io \"foos.samplecontroller.k8s.io\" deleted");
        Kubectl.Result gone = kubectl("get", "foos");
        assertThat(gone.code()).isNotZero();
        // kubectl's discovery cache still maps "foos"; the list then gets the plain 404 of an unserved path
        assertThat(gone.out())
                .containsAnyOf(
                        "the server doesn't have a resource type \"foos\"",
                        "the server could not find the requested resource");
    }

    @Test
    void scaleDeployment() throws Exception {
        Path d = file("deploy.yaml", """
                apiVersion: apps/v1
                kind: Deployment
                metadata:
                  name: x
                spec:
                  replicas: 1
                  selector:
                    matchLabels: {app: x}
                  template:
                    metadata:
                      labels: {app: x}
                    spec:
                      containers:
                        - name: c
                          image: nginx
                """);
        ok("create", "-f", d.toString(), "--validate=false");
        assertThat(ok("scale", "deployment/x", "--replicas=3").out()).contains("deployment.apps/x scaled");
        assertThat(ok("get", "deployment", "x", "-o", "jsonpath={.spec.replicas}")
                        .out())
                .isEqualTo("3");
    }
}
