package io.kubeloop.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.kubeloop.api.yaml.KubeYaml;
import io.kubeloop.client.config.ConfigEnvironment;
import io.kubeloop.codegen.OperatorBundle;
import io.kubeloop.controller.ManagerOptions;
import io.kubeloop.controller.OperatorFlags;
import io.kubeloop.controller.leader.LeaderElectionOptions;
import io.kubeloop.it.operator.WidgetBundle;
import io.kubeloop.it.operator.WidgetOperator;
import io.kubeloop.time.Ticker;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The Deployment of an operator's bundle and kubeloop's entry point agree: the container's arguments and
 * environment — resolved as the kubelet resolves them for a pod of the Deployment — parsed by
 * {@link OperatorFlags}, the parser of {@code OperatorMain}, give leader election on the bundle's Lease in the
 * pod's namespace, metrics on the container port named {@code metrics} and probes on the one named
 * {@code probes}, where the Deployment's liveness and readiness probes ask {@code /healthz} and {@code /readyz};
 * the cache holds every namespace unless the Operator Lifecycle Manager's annotation (or the Helm chart's
 * {@code watchNamespaces}) names some.
 */
class OperatorBundleAgreementTest {

    private static final String NS = "widget-system";
    private static final String POD = "widget-operator-5d8c7b9f4-x2k9q";

    @TempDir
    Path dir;

    @Test
    void theEntryPointReadsTheDeploymentsArgumentsAndEnvironmentAsTheBundleMeansThem() {
        OperatorBundle bundle = WidgetBundle.of(NS);
        JsonNode container = WidgetBundle.container(bundle);

        OperatorFlags flags = parse(container, Map.of());

        assertThat(flags.help()).isFalse();
        assertThat(flags.leaderElect()).as("two replicas, one active").isTrue();
        assertThat(flags.leaderElectionId()).isEqualTo(bundle.leaderElectionId());
        assertThat(flags.leaderElectionNamespace()).contains(NS);
        assertThat(flags.metricsBindAddress()).contains(new InetSocketAddress(containerPort(container, "metrics")));
        assertThat(flags.healthProbeBindAddress()).contains(new InetSocketAddress(containerPort(container, "probes")));
        assertThat(flags.identity()).startsWith(POD + "_");
        assertThat(flags.watchNamespaces())
                .as("applied as it is: every namespace")
                .isEmpty();
        assertThat(container.path("livenessProbe").path("httpGet").toString())
                .isEqualTo("{\"path\":\"/healthz\",\"port\":\"probes\"}");
        assertThat(container.path("readinessProbe").path("httpGet").toString())
                .isEqualTo("{\"path\":\"/readyz\",\"port\":\"probes\"}");

        ManagerOptions options = flags.managerOptions("default");
        LeaderElectionOptions election = options.leaderElection().orElseThrow();
        assertThat(election.namespace()).isEqualTo(NS);
        assertThat(election.name()).isEqualTo(WidgetOperator.NAME);
        assertThat(bundle.rbac())
                .as("the leader-election Role lets the ServiceAccount use Leases where the Lease is")
                .anySatisfy(o -> {
                    assertThat(o.path("kind").asString()).isEqualTo("Role");
                    assertThat(o.path("metadata").path("namespace").asString(""))
                            .isIn("", NS);
                    assertThat(o.path("rules").toString()).contains("\"leases\"", "\"create\"", "\"update\"");
                });
    }

    @Test
    void underTheOperatorLifecycleManagerTheTargetNamespacesScopeTheCache() {
        OperatorFlags flags =
                parse(WidgetBundle.container(WidgetBundle.of(NS)), Map.of("olm.targetNamespaces", "shop,billing"));

        assertThat(flags.watchNamespaces()).containsExactly("shop", "billing");
        assertThat(flags.managerOptions("default").cache().defaultNamespaces())
                .containsExactlyInAnyOrder("shop", "billing");
    }

    @Test
    void theHelmChartsWatchedNamespacesReachTheEntryPoint() throws Exception {
        WidgetBundle.of(NS).writeHelmChart(dir.resolve("chart"));
        String template = Files.readString(dir.resolve("chart/templates/deployment.yaml"));
        String rendered = template.replace("{{ .Values.replicaCount }}", "2")
                .replace("{{ .Values.image.repository }}:{{ .Values.image.tag }}", "example.com/widget-operator:1.0")
                .replace("{{ .Values.image.pullPolicy }}", "IfNotPresent")
                .replace("{{ .Release.Namespace }}", NS)
                .replace("{{ join \",\" .Values.watchNamespaces | quote }}", "\"shop,billing\"")
                .replace("{{ .Values.javaToolOptions | quote }}", "\"-XX:+UseG1GC\"")
                .replaceAll("\\{\\{- toYaml .Values.resources \\| nindent \\d+ }}", "{}");
        JsonNode container = KubeYaml.readAll(rendered)
                .getFirst()
                .node()
                .path("spec")
                .path("template")
                .path("spec")
                .path("containers")
                .get(0);

        OperatorFlags flags = parse(container, Map.of());

        assertThat(flags.watchNamespaces()).containsExactly("shop", "billing");
        assertThat(flags.leaderElect()).isTrue();
    }

    /** The container's arguments and environment as the kubelet gives them to a pod of the Deployment. */
    private static OperatorFlags parse(JsonNode container, Map<String, String> podAnnotations) {
        List<String> args = new ArrayList<>();
        container.path("args").forEach(a -> args.add(a.asString()));
        Map<String, String> env = new HashMap<>();
        env.put("HOSTNAME", POD);
        for (JsonNode e : container.path("env")) {
            String name = e.path("name").asString();
            if (e.has("value")) {
                env.put(name, e.path("value").asString());
                continue;
            }
            String field =
                    e.path("valueFrom").path("fieldRef").path("fieldPath").asString("");
            Matcher annotation =
                    Pattern.compile("metadata\\.annotations\\['(.+)']").matcher(field);
            if (field.equals("metadata.namespace")) {
                env.put(name, NS);
            } else if (field.equals("metadata.name")) {
                env.put(name, POD);
            } else if (annotation.matches()) {
                env.put(name, podAnnotations.getOrDefault(annotation.group(1), ""));
            } else {
                fail("the downward API field " + field + " of " + name + " is not resolved here");
            }
        }
        ConfigEnvironment pod = new ConfigEnvironment(
                env,
                Path.of("/home/nonroot"),
                Path.of("/var/run/secrets/kubernetes.io/serviceaccount"),
                Ticker.system());
        return OperatorFlags.parse(WidgetOperator.NAME, args, pod);
    }

    private static int containerPort(JsonNode container, String name) {
        for (JsonNode p : container.path("ports")) {
            if (p.path("name").asString("").equals(name)) {
                return p.path("containerPort").asInt();
            }
        }
        throw new AssertionError("no container port named " + name + ": " + container.path("ports"));
    }
}
