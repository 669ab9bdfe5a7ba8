package io.kubeloop.codegen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.json.KubeJson;
import io.kubeloop.api.yaml.KubeYaml;
import io.kubeloop.apiserver.EmbeddedApiServer;
import io.kubeloop.codegen.internal.BundleObjects;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** An operator's deployable bundle: its objects, their order, their security settings, and how they install. */
class OperatorBundleTest {

    @TempDir
    Path dir;

    private static ObjectNode json(String s) {
        return (ObjectNode) KubeJson.mapper().readTree(s.replace('\'', '"'));
    }

    static List<ObjectNode> rbac() {
        return List.of(
                json("{'apiVersion':'v1','kind':'ServiceAccount','metadata':{'name':'foo-controller'}}"),
                json(
                        "{'apiVersion':'rbac.authorization.k8s.io/v1','kind':'ClusterRole','metadata':{'name':'foo-manager'},"
                                + "'rules':[{'apiGroups':[''],'resources':['configmaps'],'verbs':['get','list','watch']}]}"),
                json("{'apiVersion':'rbac.authorization.k8s.io/v1','kind':'ClusterRoleBinding',"
                        + "'metadata':{'name':'foo-manager'},'roleRef':{'apiGroup':'rbac.authorization.k8s.io',"
                        + "'kind':'ClusterRole','name':'foo-manager'},'subjects':[{'kind':'ServiceAccount',"
                        + "'name':'foo-controller','namespace':'foo-system'}]}"),
                json(
                        "{'apiVersion':'rbac.authorization.k8s.io/v1','kind':'Role','metadata':{'name':'foo-leader-election'},"
                                + "'rules':[{'apiGroups':['coordination.k8s.io'],'resources':['leases'],"
                                + "'verbs':['get','create','update']}]}"),
                json("{'apiVersion':'rbac.authorization.k8s.io/v1','kind':'RoleBinding',"
                        + "'metadata':{'name':'foo-leader-election'},'roleRef':{'apiGroup':'rbac.authorization.k8s.io',"
                        + "'kind':'Role','name':'foo-leader-election'},'subjects':[{'kind':'ServiceAccount',"
                        + "'name':'foo-controller','namespace':'foo-system'}]}"));
    }

    private static OperatorBundle bundle() {
        return OperatorBundle.of("foo-operator", "foo-system", "ghcr.io/example/foo:1.2")
                .withRbac(rbac())
                .withArgs(List.of("sample-controller", "--leader-elect"));
    }

    @Test
    void objectsComeInApplyOrderWithNamespacedOnesInTheOperatorsNamespace() {
        List<ObjectNode> objects = bundle().objects();
        assertThat(objects)
                .extracting(o -> o.path("kind").asString())
                .containsExactly(
                        "Namespace",
                        "ServiceAccount",
                        "ClusterRole",
                        "ClusterRoleBinding",
                        "Role",
                        "RoleBinding",
                        "Deployment",
                        "Service",
                        "PodDisruptionBudget");
        assertThat(objects)
                .filteredOn(o -> !List.of("Namespace", "ClusterRole", "ClusterRoleBinding")
                        .contains(o.path("kind").asString()))
                .allSatisfy(o -> assertThat(o.path("metadata").path("namespace").asString())
                        .isEqualTo("foo-system"));
        assertThat(objects.get(0).has("metadata")).isTrue();
    }

    @Test
    void theDeploymentRunsReplicasAsTheServiceAccountWithProbesMetricsAndRequests() {
        JsonNode d = bundle().withReplicas(3).objects().stream()
                .filter(o -> o.path("kind").asString().equals("Deployment"))
                .findFirst()
                .orElseThrow();
        assertThat(d.path("spec").path("replicas").asInt()).isEqualTo(3);
        JsonNode pod = d.path("spec").path("template").path("spec");
        assertThat(pod.path("serviceAccountName").asString()).isEqualTo("foo-controller");
        JsonNode c = pod.path("containers").get(0);
        assertThat(c.path("image").asString()).isEqualTo("ghcr.io/example/foo:1.2");
        assertThat(c.path("args").toString())
                .isEqualTo("[\"sample-controller\",\"--leader-elect\",\"--leader-election-id=foo-operator\","
                        + "\"--metrics-bind-address=:8080\",\"--health-probe-bind-address=:8081\"]");
        assertThat(c.path("livenessProbe").path("httpGet").path("path").asString())
                .isEqualTo("/healthz");
        assertThat(c.path("readinessProbe").path("httpGet").path("path").asString())
                .isEqualTo("/readyz");
        assertThat(c.path("ports").toString()).contains("\"containerPort\":8080", "\"containerPort\":8081");
        assertThat(c.path("resources").path("requests").path("memory").asString())
                .isEqualTo("256Mi");
        assertThat(c.path("env").toString()).contains("-XX:MaxRAMPercentage=75");
    }

    @Test
    void theContainerArgsAreTheBundlesOwnThenTheEntryPointsFlagsEachOnce() {
        OperatorBundle bundle = OperatorBundle.of("foo-operator", "foo-system", "img")
                .withLeaderElectionId("foo.example.com")
                .withArgs(List.of("run", "-metrics-bind-address=0"));

        assertThat(bundle.containerArgs())
                .containsExactly(
                        "run",
                        "-metrics-bind-address=0",
                        "--leader-elect",
                        "--leader-election-id=foo.example.com",
                        "--health-probe-bind-address=:8081");
        assertThat(bundle.withReplicas(1).withLeaderElectionId(null).containerArgs())
                .as("no leader election")
                .containsExactly("run", "-metrics-bind-address=0", "--health-probe-bind-address=:8081");
    }

    @Test
    void theContainerGetsItsPodsNamespaceAndTheWatchedNamespacesFromTheDownwardApi() {
        JsonNode env = bundle().objects().stream()
                .filter(o -> o.path("kind").asString().equals("Deployment"))
                .findFirst()
                .orElseThrow()
                .path("spec")
                .path("template")
                .path("spec")
                .path("containers")
                .get(0)
                .path("env");

        assertThat(env.toString())
                .contains(
                        "{\"name\":\"POD_NAMESPACE\",\"valueFrom\":{\"fieldRef\":{\"fieldPath\":\"metadata.namespace\"}}}")
                .contains("{\"name\":\"WATCH_NAMESPACE\",\"valueFrom\":{\"fieldRef\":{\"fieldPath\":"
                        + "\"metadata.annotations['olm.targetNamespaces']\"}}}");
    }

    @Test
    void replicasWithoutLeaderElectionAreRefusedAsTheyWouldAllReconcile() {
        assertThatThrownBy(() -> bundle().withLeaderElectionId(null))
                .isInstanceOf(CodegenException.class)
                .hasMessage("2 replicas without leader election would all reconcile at once: set a leader election"
                        + " id, or run 1 replica");
        assertThat(bundle().withReplicas(1).withLeaderElectionId(null).leaderElectionId())
                .isNull();
        assertThatThrownBy(() -> bundle().withLeaderElectionId("Not_A_Name")).hasMessageContaining("DNS subdomain");
    }

    @Test
    void webhooksAddTheirServiceCertificateConfigurationsAndCrdConversionAsKubebuilderDoes() {
        ObjectNode crd = json("{'apiVersion':'apiextensions.k8s.io/v1','kind':'CustomResourceDefinition',"
                + "'metadata':{'name':'foos.example.com'},'spec':{'group':'example.com'}}");
        List<ObjectNode> objects = bundle().withCrds(List.of(crd))
                .withWebhooks(List.of(
                        BundleWebhook.mutating("/mutate-example-com-v1-foo", "example.com", "v1", "foos"),
                        BundleWebhook.validating("/validate-example-com-v1-foo", "example.com", "v1", "foos"),
                        BundleWebhook.conversion("foos.example.com")))
                .objects();
        assertThat(objects)
                .extracting(o -> o.path("kind").asString())
                .endsWith(
                        "PodDisruptionBudget",
                        "Service",
                        "Issuer",
                        "Certificate",
                        "MutatingWebhookConfiguration",
                        "ValidatingWebhookConfiguration");
        JsonNode converted = objects.getFirst();
        assertThat(converted.path("spec").path("conversion").path("strategy").asString())
                .isEqualTo("Webhook");
        assertThat(converted
                        .path("spec")
                        .path("conversion")
                        .path("webhook")
                        .path("clientConfig")
                        .toString())
                .isEqualTo("{\"service\":{\"name\":\"foo-operator-webhook-service\",\"namespace\":\"foo-system\","
                        + "\"path\":\"/convert\"}}");
        assertThat(converted
                        .path("metadata")
                        .path("annotations")
                        .path("cert-manager.io/inject-ca-from")
                        .asString())
                .isEqualTo("foo-system/foo-operator-serving-cert");
        JsonNode mutating = objects.get(objects.size() - 2);
        JsonNode hook = mutating.path("webhooks").get(0);
        assertThat(hook.path("name").asString()).isEqualTo("mfoos-v1.example.com");
        assertThat(hook.path("clientConfig").path("service").path("path").asString())
                .isEqualTo("/mutate-example-com-v1-foo");
        assertThat(hook.path("sideEffects").asString()).isEqualTo("None");
        JsonNode certificate = objects.get(objects.size() - 3);
        assertThat(certificate.path("spec").path("dnsNames").get(0).asString())
                .isEqualTo("foo-operator-webhook-service.foo-system.svc");
        JsonNode pod = objects.stream()
                .filter(o -> o.path("kind").asString().equals("Deployment"))
                .findFirst()
                .orElseThrow()
                .path("spec")
                .path("template")
                .path("spec");
        assertThat(pod.path("containers").get(0).path("ports").toString()).contains("\"containerPort\":9443");
        assertThat(pod.path("volumes").toString()).contains("\"secretName\":\"foo-operator-webhook-server-cert\"");
        assertThat(pod.path("containers").get(0).path("volumeMounts").toString())
                .contains("/tmp/k8s-webhook-server/serving-certs");
    }

    @Test
    void theHelmChartCarriesTheWebhooksInTheReleasesNamespace(@TempDir Path dir) throws Exception {
        bundle().withWebhooks(
                        List.of(BundleWebhook.validating("/validate-example-com-v1-foo", "example.com", "v1", "foos")))
                .writeHelmChart(dir.resolve("chart"));
        String hooks = Files.readString(dir.resolve("chart/templates/webhooks.yaml"));
        assertThat(hooks)
                .contains("kind: ValidatingWebhookConfiguration")
                .contains("kind: Certificate")
                .contains("foo-operator-webhook-service.{{ .Release.Namespace }}.svc")
                .contains("{{ .Release.Namespace }}/foo-operator-serving-cert")
                .doesNotContain("foo-system");
        assertThat(Files.readString(dir.resolve("chart/templates/deployment.yaml")))
                .contains("webhook-server");
    }

    @Test
    void theContainerMeetsTheRestrictedPodSecurityStandard() {
        JsonNode pod = bundle().objects().stream()
                .filter(o -> o.path("kind").asString().equals("Deployment"))
                .findFirst()
                .orElseThrow()
                .path("spec")
                .path("template")
                .path("spec");
        JsonNode sc = pod.path("containers").get(0).path("securityContext");
        assertThat(sc.path("runAsNonRoot").asBoolean()).isTrue();
        assertThat(sc.path("allowPrivilegeEscalation").asBoolean(true)).isFalse();
        assertThat(sc.path("readOnlyRootFilesystem").asBoolean()).isTrue();
        assertThat(sc.path("capabilities").path("drop").toString()).isEqualTo("[\"ALL\"]");
        assertThat(sc.path("seccompProfile").path("type").asString()).isEqualTo("RuntimeDefault");
        assertThat(pod.path("securityContext").path("runAsNonRoot").asBoolean()).isTrue();
        assertThat(pod.path("volumes").get(0).has("emptyDir"))
                .as("a writable /tmp under a read-only root file system")
                .isTrue();
    }

    @Test
    void namesThatAreNotDnsLabelsAndNoReplicasAreRefused() {
        assertThatThrownBy(() -> OperatorBundle.of("Foo_Operator", "ns", "img"))
                .isInstanceOf(CodegenException.class)
                .hasMessageContaining("DNS label");
        assertThatThrownBy(() -> bundle().withReplicas(0)).hasMessageContaining("replicas must be at least 1");
    }

    @Test
    void theKubernetesApiServerAcceptsTheBundleWithServerSideDryRunAndApply() throws Exception {
        Path binary = KubectlProcess.onPath().orElse(null);
        assumeTrue(binary != null, "no kubectl on PATH: skipped");
        try (EmbeddedApiServer server = EmbeddedApiServer.start()) {
            KubectlProcess kubectl = new KubectlProcess(binary, server.writeKubeconfig(dir.resolve("kubeconfig")));
            Path file = Files.writeString(dir.resolve("bundle.yaml"), bundle().yaml());
            // a dry run of namespaced objects needs their namespace, on any API server: create it first
            kubectl.ok("create", "namespace", "foo-system");
            assertThat(kubectl.ok("apply", "--server-side", "--dry-run=server", "-f", file.toString()))
                    .contains("deployment.apps/foo-operator serverside-applied (server dry run)");
            assertThat(kubectl.run("get", "deployment", "foo-operator", "-n", "foo-system")
                            .out())
                    .contains("not found");
            String applied = kubectl.ok("apply", "--server-side", "-f", file.toString());
            assertThat(applied)
                    .contains("namespace/foo-system serverside-applied")
                    .contains("clusterrole.rbac.authorization.k8s.io/foo-manager serverside-applied")
                    .contains("poddisruptionbudget.policy/foo-operator serverside-applied");
            assertThat(kubectl.ok(
                                    "auth",
                                    "can-i",
                                    "watch",
                                    "configmaps",
                                    "--all-namespaces",
                                    "--as=system:serviceaccount:foo-system:foo-controller")
                            .strip())
                    .isEqualTo("yes");
        }
    }

    @Test
    void theKustomizeDirectoryRendersToTheSameObjects() throws Exception {
        Path binary = KubectlProcess.onPath().orElse(null);
        List<Path> files = bundle().writeKustomize(dir.resolve("k"));
        assertThat(files.getFirst().getFileName().toString()).isEqualTo("kustomization.yaml");
        assertThat(Files.readString(files.getFirst()))
                .contains("- 01-namespace-foo-system.yaml", "name: ghcr.io/example/foo", "newTag: \"1.2\"");
        assumeTrue(binary != null, "no kubectl on PATH: kustomize rendering skipped");
        String rendered = new KubectlProcess(binary, dir.resolve("none"))
                .ok("kustomize", dir.resolve("k").toString());
        assertThat(KubeYaml.readAll(rendered))
                .extracting(DynamicObject::kind)
                .containsExactlyInAnyOrderElementsOf(bundle().objects().stream()
                        .map(o -> o.path("kind").asString())
                        .toList());
    }

    @Test
    void theHelmChartTemplatesTheImageReplicasResourcesAndWatchedNamespaces() throws Exception {
        bundle().writeHelmChart(dir.resolve("chart"));
        Path chart = dir.resolve("chart");
        assertThat(Files.readString(chart.resolve("Chart.yaml"))).contains("name: foo-operator", "appVersion: \"1.2\"");
        JsonNode values = KubeYaml.readAll(Files.readString(chart.resolve("values.yaml")))
                .getFirst()
                .node();
        assertThat(values.path("image").path("repository").asString()).isEqualTo("ghcr.io/example/foo");
        assertThat(values.path("replicaCount").asInt()).isEqualTo(2);
        assertThat(values.path("watchNamespaces").isArray()).isTrue();
        assertThat(values.path("javaToolOptions").asString()).isEqualTo(BundleObjects.JAVA_TOOL_OPTIONS);
        String deployment = Files.readString(chart.resolve("templates/deployment.yaml"));
        assertThat(deployment)
                .contains("value: {{ join \",\" .Values.watchNamespaces | quote }}")
                .contains("value: {{ .Values.javaToolOptions | quote }}")
                .doesNotContain("olm.targetNamespaces")
                .contains("replicas: {{ .Values.replicaCount }}")
                .contains("\"{{ .Values.image.repository }}:{{ .Values.image.tag }}\"")
                .contains("{{- toYaml .Values.resources | nindent")
                .contains("namespace: {{ .Release.Namespace }}");
        String rbac = Files.readString(chart.resolve("templates/rbac.yaml"));
        assertThat(rbac)
                .contains(
                        "{{- if .Values.watchNamespaces }}", "kind: Role", "namespace: {{ $ns }}", "kind: ClusterRole");
        try (Stream<Path> all = Files.walk(chart)) {
            for (Path f : all.filter(Files::isRegularFile).toList()) {
                assertThat(Files.readString(f)).as(f.toString()).doesNotContain("__");
            }
        }
        // the templates with the default values substituted are valid Kubernetes YAML
        String rendered = deployment
                .replace("{{ .Values.replicaCount }}", "2")
                .replace("{{ .Values.image.repository }}:{{ .Values.image.tag }}", "ghcr.io/example/foo:1.2")
                .replace("{{ .Values.image.pullPolicy }}", "IfNotPresent")
                .replace("{{ .Release.Namespace }}", "foo-system")
                .replace("{{ join \",\" .Values.watchNamespaces | quote }}", "\"\"")
                .replace(
                        "{{ .Values.javaToolOptions | quote }}",
                        "\"" + values.path("javaToolOptions").asString() + "\"")
                .replaceAll("\\{\\{- toYaml .Values.resources \\| nindent \\d+ }}", "{requests: {cpu: 100m}}");
        DynamicObject d = KubeYaml.readAll(rendered).getFirst();
        assertThat(d.kind()).isEqualTo("Deployment");
        JsonNode container = d.node()
                .path("spec")
                .path("template")
                .path("spec")
                .path("containers")
                .get(0);
        assertThat(container.path("resources").path("requests").path("cpu").asString())
                .isEqualTo("100m");
        assertThat(container.path("env").toString())
                .contains("{\"name\":\"JAVA_TOOL_OPTIONS\",\"value\":\"" + BundleObjects.JAVA_TOOL_OPTIONS + "\"}");
    }
}
