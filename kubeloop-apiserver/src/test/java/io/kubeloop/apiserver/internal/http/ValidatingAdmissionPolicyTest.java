package io.kubeloop.apiserver.internal.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubeloop.api.json.KubeJson;
import io.kubeloop.apiserver.EmbeddedApiServer;
import io.kubeloop.apiserver.ServerOptions;
import io.kubeloop.apiserver.SimulatedCluster;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * ValidatingAdmissionPolicies and their bindings, enforced on writes as kube-apiserver enforces them:
 * the Deny action's refusal (reason, code and message), Warn's warning, messageExpression, params
 * found by name or missing, match constraints (operations, selectors, match conditions), variables,
 * failure policies, and the Gateway API's own safe-upgrades policy.
 */
class ValidatingAdmissionPolicyTest {

    private static final String POLICIES = "/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies";
    private static final String BINDINGS = "/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings";
    private static final ObjectMapper YAML = YAMLMapper.builder().build();

    private static EmbeddedApiServer server;
    private static RawHttp http;

    @BeforeAll
    static void start() {
        server = EmbeddedApiServer.start(ServerOptions.defaults().withCluster(SimulatedCluster.off()));
        http = new RawHttp(server);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static String json(String yaml) {
        return YAML.readTree(yaml).toString();
    }

    private static void created(HttpResponse<String> r) {
        assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
    }

    /**
     * A policy (on ConfigMaps in namespaces labelled {@code policy: <name>} unless {@code spec} has its
     * own {@code matchConstraints}) and its binding.
     */
    private static void policy(String name, String spec, String bindingSpec) {
        String constraints = spec.contains("matchConstraints:") ? "" : """
                matchConstraints:
                  resourceRules:
                  - {apiGroups: [""], apiVersions: [v1], operations: [CREATE, UPDATE], resources: [configmaps]}
                  namespaceSelector: {matchLabels: {policy: %s}}
                """.formatted(name);
        created(http.post(POLICIES, json("""
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingAdmissionPolicy
                metadata: {name: %s}
                spec:
                %s
                """.formatted(name, (constraints + spec).indent(2)))));
        created(http.post(BINDINGS, json("""
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingAdmissionPolicyBinding
                metadata: {name: %s-binding}
                spec:
                  policyName: %s
                %s
                """.formatted(name, name, bindingSpec.indent(2)))));
    }

    private static String namespace(String policy) {
        return http.newNamespace(policy, "policy", policy);
    }

    private static HttpResponse<String> configMap(String ns, String name, String data) {
        return http.createConfigMap(ns, name, data);
    }

    @Test
    void denyRefusesWithTheValidationsReasonAndKubeApiserversMessage() {
        policy("size-limit", """
                validations:
                - expression: "size(object.data) <= 2"
                """, "validationActions: [Deny]");
        String ns = namespace("size-limit");
        created(configMap(ns, "small", "{\"a\":\"1\"}"));
        HttpResponse<String> r = configMap(ns, "big", "{\"a\":\"1\",\"b\":\"2\",\"c\":\"3\"}");
        assertThat(r.statusCode()).isEqualTo(422);
        JsonNode status = RawHttp.json(r);
        assertThat(status.path("reason").asString()).isEqualTo("Invalid");
        assertThat(status.path("message").asString())
                .isEqualTo("configmaps \"big\" is forbidden: ValidatingAdmissionPolicy 'size-limit' with binding "
                        + "'size-limit-binding' denied request: failed expression: size(object.data) <= 2");
        assertThat(configMap(http.newNamespace("elsewhere"), "big", "{\"a\":\"1\",\"b\":\"2\",\"c\":\"3\"}")
                        .statusCode())
                .as("outside the namespace selector")
                .isEqualTo(201);
    }

    @Test
    void messageExpressionAndReasonShapeTheRefusal() {
        policy("named", """
                validations:
                - expression: "object.metadata.name.startsWith('cfg-')"
                  messageExpression: "'name ' + object.metadata.name + ' must start with cfg-'"
                  reason: Forbidden
                """, "validationActions: [Deny]");
        String ns = namespace("named");
        HttpResponse<String> r = configMap(ns, "x", "{}");
        assertThat(r.statusCode()).isEqualTo(403);
        assertThat(RawHttp.json(r).path("message").asString()).endsWith("denied request: name x must start with cfg-");
    }

    @Test
    void warnAddsAWarningAndAdmits() {
        policy("warned", """
                validations:
                - {expression: "has(object.data) && 'owner' in object.data", message: an owner is expected}
                """, "validationActions: [Warn]");
        HttpResponse<String> r = configMap(namespace("warned"), "w", "{}");
        assertThat(r.statusCode()).isEqualTo(201);
        assertThat(r.headers().allValues("Warning"))
                .anySatisfy(w -> assertThat(w)
                        .contains("Validation failed for ValidatingAdmissionPolicy 'warned' with binding "
                                + "'warned-binding': an owner is expected"));
    }

    @Test
    void paramsComeFromTheBindingsParamRefAndAMissingParamIsRefused() {
        String params = http.newNamespace("params");
        policy("limits", """
                paramKind: {apiVersion: v1, kind: ConfigMap}
                variables:
                - {name: max, expression: "int(params.data.max)"}
                validations:
                - {expression: "!has(object.data) || size(object.data) <= variables.max"}
                """, """
                paramRef: {name: limits, namespace: %s, parameterNotFoundAction: Deny}
                validationActions: [Deny]
                """.formatted(params));
        String ns = namespace("limits");
        HttpResponse<String> missing = configMap(ns, "a", "{}");
        assertThat(missing.statusCode()).isEqualTo(422);
        assertThat(RawHttp.json(missing).path("message").asString())
                .contains("no params found for policy binding with `Deny` parameterNotFoundAction");
        created(configMap(params, "limits", "{\"max\":\"1\"}"));
        created(configMap(ns, "a", "{\"k\":\"v\"}"));
        assertThat(configMap(ns, "b", "{\"k\":\"v\",\"l\":\"w\"}").statusCode()).isEqualTo(422);
    }

    @Test
    void onlyTheMatchedOperationsAndObjectsAreChecked() {
        policy("updates", """
                matchConstraints:
                  resourceRules:
                  - {apiGroups: [""], apiVersions: [v1], operations: [UPDATE], resources: [configmaps]}
                  objectSelector: {matchLabels: {frozen: "true"}}
                  namespaceSelector: {matchLabels: {policy: updates}}
                matchConditions:
                - {name: not-thawing, expression: "!has(object.metadata.annotations) || !('thaw' in object.metadata.annotations)"}
                validations:
                - {expression: "object.data == oldObject.data", message: frozen}
                """, "validationActions: [Deny]");
        String ns = namespace("updates");
        created(http.post(
                "/api/v1/namespaces/" + ns + "/configmaps",
                "{\"metadata\":{\"name\":\"f\",\"labels\":{\"frozen\":\"true\"}},\"data\":{\"a\":\"1\"}}"));
        created(configMap(ns, "loose", "{\"a\":\"1\"}"));
        String change = "{\"data\":{\"a\":\"2\"}}";
        assertThat(http.patch("/api/v1/namespaces/" + ns + "/configmaps/f", "application/merge-patch+json", change)
                        .statusCode())
                .isEqualTo(422);
        assertThat(http.patch("/api/v1/namespaces/" + ns + "/configmaps/loose", "application/merge-patch+json", change)
                        .statusCode())
                .isEqualTo(200);
        String thaw = "{\"metadata\":{\"annotations\":{\"thaw\":\"yes\"}},\"data\":{\"a\":\"3\"}}";
        assertThat(http.patch("/api/v1/namespaces/" + ns + "/configmaps/f", "application/merge-patch+json", thaw)
                        .statusCode())
                .as("excluded by the match condition")
                .isEqualTo(200);
    }

    /**
     * A binding whose {@code matchResources} has a namespace selector and no {@code resourceRules} applies
     * the policy to every request the policy matches in the selected namespaces: unset rules do not
     * constrain, while the policy's own {@code matchConstraints} still do.
     */
    @Test
    void aBindingScopedByNamespaceAloneAppliesToEveryRequestThePolicyMatchesThere() {
        policy("scoped", """
                matchConstraints:
                  resourceRules:
                  - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [configmaps]}
                validations:
                - {expression: "object.metadata.name != 'forbidden'", message: not this name}
                """, """
                validationActions: [Deny]
                matchResources:
                  namespaceSelector: {matchLabels: {policy: scoped}}
                """);
        String ns = namespace("scoped");
        HttpResponse<String> refused = configMap(ns, "forbidden", "{}");
        assertThat(refused.statusCode()).as(refused.body()).isEqualTo(422);
        assertThat(RawHttp.json(refused).path("message").asString()).endsWith("denied request: not this name");
        assertThat(configMap(http.newNamespace("unscoped"), "forbidden", "{}").statusCode())
                .as("outside the binding's namespaces")
                .isEqualTo(201);
        created(http.post("/api/v1/namespaces/" + ns + "/secrets", "{\"metadata\":{\"name\":\"forbidden\"}}"));
    }

    /**
     * Under {@code matchPolicy: Equivalent} a policy whose rules name v1 of a resource applies to a request
     * in v1beta1 and sees it in v1: the object converted, {@code request.kind} in v1 and
     * {@code request.requestKind} the request's own; under {@code Exact} it does not apply.
     */
    @Test
    void anEquivalentPolicySeesARequestForAnotherVersionInItsOwn() {
        String version = """
                {"name":"%s","served":true,"storage":%s,"schema":{"openAPIV3Schema":{"type":"object",
                 "properties":{"spec":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}}}}""";
        CrdFixtures.install(http, """
                {"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
                 "metadata":{"name":"equivs.policy.example.com"},
                 "spec":{"group":"policy.example.com","scope":"Namespaced","names":{"kind":"Equiv","plural":"equivs"},
                   "versions":[%s,%s]}}
                """.formatted(version.formatted("v1", true), version.formatted("v1beta1", false)));
        policy("equivalent", """
                matchConstraints:
                  resourceRules:
                  - {apiGroups: [policy.example.com], apiVersions: [v1], operations: [CREATE], resources: [equivs]}
                validations:
                - expression: >-
                    object.apiVersion == 'policy.example.com/v1' && request.kind.version == 'v1'
                    && request.requestKind.version == 'v1beta1'
                  message: not seen in v1
                - {expression: "object.metadata.name != 'deny-me'", message: denied in v1}
                """, "validationActions: [Deny]");
        policy("exact", """
                matchConstraints:
                  matchPolicy: Exact
                  resourceRules:
                  - {apiGroups: [policy.example.com], apiVersions: [v1], operations: [CREATE], resources: [equivs]}
                validations:
                - {expression: "false", message: applied under Exact}
                """, "validationActions: [Deny]");
        String ns = http.newNamespace("equivalent");
        String path = "/apis/policy.example.com/v1beta1/namespaces/" + ns + "/equivs";
        created(http.post(
                path,
                "{\"apiVersion\":\"policy.example.com/v1beta1\",\"kind\":\"Equiv\","
                        + "\"metadata\":{\"name\":\"a\"},\"spec\":{}}"));
        HttpResponse<String> refused = http.post(
                path,
                "{\"apiVersion\":\"policy.example.com/v1beta1\",\"kind\":\"Equiv\","
                        + "\"metadata\":{\"name\":\"deny-me\"},\"spec\":{}}");
        assertThat(refused.statusCode()).as(refused.body()).isEqualTo(422);
        assertThat(RawHttp.json(refused).path("message").asString()).endsWith("denied request: denied in v1");
    }

    /**
     * kube-apiserver's v1 defaults, visible in the stored objects: a policy's {@code failurePolicy: Fail};
     * match resources (the policy's {@code matchConstraints}, a binding's {@code matchResources} when set)
     * get {@code matchPolicy: Equivalent}, empty namespace and object selectors, and {@code scope: "*"} on
     * each rule; a binding without {@code matchResources} gets none.
     */
    @Test
    void policiesAndBindingsReadBackWithKubeApiserversDefaults() {
        policy("defaulted", """
                matchConstraints:
                  resourceRules:
                  - {apiGroups: [example.com], apiVersions: [v1], operations: [CREATE], resources: [nothings]}
                validations:
                - {expression: "true"}
                """, """
                validationActions: [Deny]
                matchResources:
                  namespaceSelector: {matchLabels: {policy: defaulted}}
                """);
        JsonNode policy = RawHttp.json(http.get(POLICIES + "/defaulted")).path("spec");
        assertThat(policy.path("failurePolicy").asString()).isEqualTo("Fail");
        assertThat(policy.path("matchConstraints")).isEqualTo(KubeJson.mapper().readTree(json("""
                        resourceRules:
                        - {apiGroups: [example.com], apiVersions: [v1], operations: [CREATE], resources: [nothings],
                           scope: "*"}
                        matchPolicy: Equivalent
                        namespaceSelector: {}
                        objectSelector: {}
                        """)));
        JsonNode binding =
                RawHttp.json(http.get(BINDINGS + "/defaulted-binding")).path("spec");
        assertThat(binding.path("matchResources")).isEqualTo(KubeJson.mapper().readTree(json("""
                        namespaceSelector: {matchLabels: {policy: defaulted}}
                        matchPolicy: Equivalent
                        objectSelector: {}
                        """)));
        created(http.post(BINDINGS, json("""
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingAdmissionPolicyBinding
                metadata: {name: defaulted-everywhere}
                spec: {policyName: defaulted, validationActions: [Deny]}
                """)));
        assertThat(RawHttp.json(http.get(BINDINGS + "/defaulted-everywhere"))
                        .path("spec")
                        .has("matchResources"))
                .isFalse();
    }

    @Test
    void deletesAreCheckedWithTheOldObject() {
        policy("keeper", """
                matchConstraints:
                  resourceRules:
                  - {apiGroups: [""], apiVersions: [v1], operations: [DELETE], resources: [configmaps]}
                  namespaceSelector: {matchLabels: {policy: keeper}}
                validations:
                - {expression: "object == null && oldObject.metadata.name != 'keep'", message: this one stays}
                """, "validationActions: [Deny]");
        String ns = namespace("keeper");
        created(configMap(ns, "keep", "{}"));
        created(configMap(ns, "drop", "{}"));
        HttpResponse<String> refused = http.delete("/api/v1/namespaces/" + ns + "/configmaps/keep");
        assertThat(refused.statusCode()).isEqualTo(422);
        assertThat(RawHttp.json(refused).path("message").asString()).endsWith("denied request: this one stays");
        assertThat(http.delete("/api/v1/namespaces/" + ns + "/configmaps/drop").statusCode())
                .isEqualTo(200);
        assertThat(http.get("/api/v1/namespaces/" + ns + "/configmaps/keep").statusCode())
                .isEqualTo(200);
    }

    @Test
    void anExpressionErrorFailsClosedUnlessTheFailurePolicyIsIgnore() {
        policy("broken-closed", """
                validations:
                - {expression: "object.data.missing == 'x'"}
                """, "validationActions: [Deny]");
        policy("broken-open", """
                failurePolicy: Ignore
                validations:
                - {expression: "object.data.missing == 'x'"}
                """, "validationActions: [Deny]");
        HttpResponse<String> closed = configMap(namespace("broken-closed"), "c", "{\"a\":\"1\"}");
        assertThat(closed.statusCode()).isEqualTo(422);
        assertThat(RawHttp.json(closed).path("message").asString())
                .contains("expression 'object.data.missing == 'x'' resulted in error: no such key: missing");
        assertThat(configMap(namespace("broken-open"), "c", "{\"a\":\"1\"}").statusCode())
                .isEqualTo(201);
    }

    @Test
    void policiesWithExpressionsThatDoNotCompileAndBindingsWithoutActionsAreInvalid() {
        HttpResponse<String> policy = http.post(POLICIES, json("""
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingAdmissionPolicy
                metadata: {name: bad-syntax}
                spec:
                  matchConstraints:
                    resourceRules:
                    - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [configmaps]}
                  validations:
                  - {expression: "object.data >"}
                  - {expression: "'not a bool'"}
                """));
        assertThat(policy.statusCode()).isEqualTo(422);
        assertThat(RawHttp.json(policy).path("details").path("causes"))
                .extracting(c -> c.path("field").asString())
                .containsExactly("spec.validations[0].expression", "spec.validations[1].expression");
        assertThat(RawHttp.json(policy).path("message").asString()).contains("compilation failed: ERROR: <input>:1:");
        HttpResponse<String> binding = http.post(BINDINGS, json("""
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingAdmissionPolicyBinding
                metadata: {name: no-actions}
                spec: {policyName: size-limit}
                """));
        assertThat(binding.statusCode()).isEqualTo(422);
        assertThat(RawHttp.json(binding).path("message").asString())
                .contains("spec.validationActions: Required value: at least one validation action is required");
    }

    @Test
    void theGatewayApiSafeUpgradesPolicyRefusesOldBundleVersions() throws IOException {
        Path file = Path.of(
                getClass().getResource("/gateway-api/safe-upgrades-policy.yaml").getPath());
        List<JsonNode> docs = new ArrayList<>();
        try (var parser = YAML.createParser(Files.readString(file))) {
            var it = YAML.readValues(parser, JsonNode.class);
            while (it.hasNext()) {
                JsonNode d = it.next();
                if (d != null && d.isObject()) {
                    docs.add(d);
                }
            }
        }
        for (JsonNode d : docs) {
            created(http.post(d.path("kind").asString().endsWith("Binding") ? BINDINGS : POLICIES, d.toString()));
        }
        String crd = """
                apiVersion: apiextensions.k8s.io/v1
                kind: CustomResourceDefinition
                metadata:
                  name: testroutes.gateway.networking.k8s.io
                  annotations:
                    api-approved.kubernetes.io: https://github.com/kubernetes-sigs/gateway-api/pull/4530
                    gateway.networking.k8s.io/bundle-version: %s
                    gateway.networking.k8s.io/channel: standard
                spec:
                  group: gateway.networking.k8s.io
                  scope: Namespaced
                  names: {kind: TestRoute, plural: testroutes}
                  versions:
                  - {name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object}}}
                """;
        HttpResponse<String> old =
                http.post("/apis/apiextensions.k8s.io/v1/customresourcedefinitions", json(crd.formatted("v1.2.0")));
        assertThat(old.statusCode()).isEqualTo(422);
        assertThat(RawHttp.json(old).path("message").asString())
                .contains("Installing CRDs with version before v1.5.0 is prohibited by default");
        created(http.post("/apis/apiextensions.k8s.io/v1/customresourcedefinitions", json(crd.formatted("v1.5.0"))));
    }
}
