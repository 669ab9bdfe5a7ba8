package io.kubeloop.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * CRD validation rules through real kubectl, as kube-apiserver answers them: a CRD whose rule does not
 * compile is refused naming the rule and the compiler's error, one whose message expression is estimated
 * to cost more than the budget is refused with the estimate's factor; a custom resource breaking a rule is
 * refused with the rule's message at its field ({@code The Widget "w" is invalid: spec.replicas:
 * Forbidden: …}); a transition rule makes a field immutable on {@code kubectl apply}, while changing
 * what a stricter rule does not look at, in an object stored before the rule, is still allowed
 * (ratcheting). A ValidatingAdmissionPolicy on Deployments refuses one and lets the scale subresource by. Run with
 * kubectl 1.27, 1.33 and the one on PATH (those installed; skipped without any).
 */
class KubectlCelRulesTest {

    private static final String CRD = """
            apiVersion: apiextensions.k8s.io/v1
            kind: CustomResourceDefinition
            metadata:
              name: widgets.rules.example.com
            spec:
              group: rules.example.com
              scope: Namespaced
              names: {kind: Widget, plural: widgets}
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
                          x-kubernetes-validations:
                            - rule: "self.minReplicas <= self.replicas"
                              messageExpression: "self.minReplicas == 2 ? 'replicas must be at least 2' : 'replicas must be at least the minimum'"
                              reason: FieldValueForbidden
                              fieldPath: .replicas
                          properties:
                            replicas: {type: integer}
                            minReplicas: {type: integer}
                            class:
                              type: string
                              x-kubernetes-validations:
                                - {rule: "self == oldSelf", message: class is immutable}
            """;

    @TempDir
    static Path dir;

    static EmbeddedApiServer server;
    static Path kubeconfig;

    @BeforeAll
    static void start() {
        server = EmbeddedApiServer.start(ServerOptions.defaults().withCluster(SimulatedCluster.off()));
        kubeconfig = server.writeKubeconfig(dir.resolve("kubeconfig"));
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    static Stream<Path> kubectls() {
        return Kubectl.choose("1.27", "1.33", "PATH");
    }

    private static Path file(String name, String content) throws IOException {
        return Files.writeString(dir.resolve(name), content);
    }

    @ParameterizedTest(name = "kubectl {0}")
    @MethodSource("kubectls")
    void rulesRefuseBadObjectsWithKubeApiserversMessages(Path binary) throws IOException {
        Kubectl k = Kubectl.at(binary, kubeconfig, dir);
        String version = k.version();
        String ns = "cel-" + version.replace(".", "-").toLowerCase(Locale.ROOT);
        k.ok("create", "namespace", ns);

        Path broken = file(
                "broken-" + version + ".yaml",
                CRD.replace("widgets.rules", "gizmos.rules")
                        .replace("{kind: Widget, plural: widgets}", "{kind: Gizmo, plural: gizmos}")
                        .replace("self.minReplicas <= self.replicas", "self.minReplicaz <= self.replicas"));
        Kubectl.Result refused = k.run("apply", "-f", broken.toString());
        assertThat(refused.code()).isNotZero();
        assertThat(refused.out())
                .contains("The CustomResourceDefinition \"gizmos.rules.example.com\" is invalid")
                .contains("spec.versions[0].schema.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule")
                .contains("compilation failed: ERROR: <input>:1:5: undefined field 'minReplicaz'");

        // concatenating string(int) may build a string of any length: its estimated cost is over any budget
        Path costly = file(
                "costly-" + version + ".yaml",
                CRD.replace("widgets.rules", "doodads.rules")
                        .replace("{kind: Widget, plural: widgets}", "{kind: Doodad, plural: doodads}")
                        .replace(
                                "self.minReplicas == 2 ? 'replicas must be at least 2' : 'replicas must be at least"
                                        + " the minimum'",
                                "'replicas must be at least ' + string(self.minReplicas)"));
        Kubectl.Result overBudget = k.run("apply", "-f", costly.toString());
        assertThat(overBudget.code()).isNotZero();
        assertThat(overBudget.out())
                .contains("The CustomResourceDefinition \"doodads.rules.example.com\" is invalid")
                .contains("spec.versions[0].schema.openAPIV3Schema.properties[spec].x-kubernetes-validations[0]"
                        + ".messageExpression: Forbidden: estimated messageExpression cost exceeds budget by factor of"
                        + " more than 100x");

        k.ok("apply", "-f", file("crd.yaml", CRD).toString());
        k.ok("wait", "--for=condition=established", "crd/widgets.rules.example.com", "--timeout=30s");

        String widget = """
                apiVersion: rules.example.com/v1
                kind: Widget
                metadata: {name: w, namespace: %s}
                spec: {replicas: %d, minReplicas: 2, class: %s}
                """;
        Kubectl.Result tooFew = k.run(
                "apply", "-f", file("w1.yaml", widget.formatted(ns, 1, "gold")).toString());
        assertThat(tooFew.code()).isNotZero();
        assertThat(tooFew.out())
                .contains("The Widget \"w\" is invalid: spec.replicas: Forbidden: replicas must be at least 2");

        k.ok("apply", "-f", file("w2.yaml", widget.formatted(ns, 3, "gold")).toString());
        Kubectl.Result reclassed = k.run(
                "apply",
                "-f",
                file("w3.yaml", widget.formatted(ns, 3, "silver")).toString());
        assertThat(reclassed.code()).isNotZero();
        assertThat(reclassed.out())
                .contains("The Widget \"w\" is invalid: spec.class: Invalid value: \"string\": class is immutable");

        // a stricter rule: the stored object breaks it, yet may change where the rule does not look
        k.ok(
                "apply",
                "-f",
                file(
                                "stricter.yaml",
                                CRD.replace("self.minReplicas <= self.replicas", "self.replicas >= 5")
                                        .replace(
                                                "self.minReplicas == 2 ? 'replicas must be at least 2' : 'replicas"
                                                        + " must be at least the minimum'",
                                                "'at least 5 replicas'"))
                        .toString());
        k.ok("-n", ns, "patch", "widget", "w", "--type=merge", "-p", "{\"metadata\":{\"labels\":{\"tier\":\"a\"}}}");
        assertThat(k.ok("-n", ns, "get", "widget", "w", "-o", "jsonpath={.metadata.labels.tier}"))
                .isEqualTo("a");
        Kubectl.Result stillTooFew =
                k.run("-n", ns, "patch", "widget", "w", "--type=merge", "-p", "{\"spec\":{\"replicas\":4}}");
        assertThat(stillTooFew.code()).isNotZero();
        assertThat(stillTooFew.out()).contains("spec.replicas: Forbidden: at least 5 replicas");
    }

    @ParameterizedTest(name = "kubectl {0}")
    @MethodSource("kubectls")
    void aValidatingAdmissionPolicyRefusesAWriteThroughKubectl(Path binary) throws IOException {
        Kubectl k = Kubectl.at(binary, kubeconfig, dir);
        String version = k.version();
        String ns = "vap-" + version.replace(".", "-").toLowerCase(Locale.ROOT);
        k.ok("create", "namespace", ns);
        k.ok("label", "namespace", ns, "vap=" + ns);
        k.ok("apply", "-f", file("vap-" + version + ".yaml", """
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingAdmissionPolicy
                metadata: {name: replicas-%1$s}
                spec:
                  matchConstraints:
                    resourceRules:
                    - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE, UPDATE], resources: [deployments]}
                    namespaceSelector: {matchLabels: {vap: %1$s}}
                  validations:
                  - expression: "object.spec.replicas <= 5"
                ---
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingAdmissionPolicyBinding
                metadata: {name: replicas-%1$s-binding}
                spec: {policyName: replicas-%1$s, validationActions: [Deny]}
                """.formatted(ns)).toString());
        k.ok("-n", ns, "create", "deployment", "small", "--image=nginx", "--replicas=2");
        Kubectl.Result big = k.run("-n", ns, "create", "deployment", "big", "--image=nginx", "--replicas=6");
        assertThat(big.code()).isNotZero();
        assertThat(big.out())
                .contains("ValidatingAdmissionPolicy 'replicas-" + ns + "' with binding 'replicas-" + ns
                        + "-binding' denied request: failed expression: object.spec.replicas <= 5");
        // the rule names deployments, not deployments/scale: scaling is not the policy's business
        k.ok("-n", ns, "scale", "deployment", "small", "--replicas=9");
    }
}
