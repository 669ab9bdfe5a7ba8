package io.kubeloop.apiserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.errors.NotFoundException;
import io.kubeloop.client.KubeClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;

/**
 * kubectl's generator commands, whose typed clients send {@code application/vnd.kubernetes.protobuf} bodies
 * from kubectl 1.32 on (1.27 sends JSON and is the control): each succeeds against the embedded server and
 * the stored object is what kubectl built. Runs with kubectl 1.27 and 1.33; skipped when one is not installed.
 */
class KubectlProtobufTest {

    /** The server these tests share: started before the first, closed after the last. */
    @AutoClose
    private static EmbeddedApiServer shared;

    private static final Path SDK_BIN = Path.of("/usr/lib/google-cloud-sdk/bin");

    @TempDir
    static Path dir;

    static Path kubeconfig;

    @BeforeAll
    static void setUp() {
        EmbeddedApiServer server = shared = EmbeddedApiServer.start(ServerOptions.defaults());
        kubeconfig = server.writeKubeconfig(dir.resolve("kubeconfig"));
    }

    static Stream<String> versions() {
        return Stream.of("1.27", "1.33");
    }

    private static String at(DynamicObject o, String pointer) {
        return o.at(pointer).map(JsonNode::asString).orElse("<absent " + pointer + ">");
    }

    @ParameterizedTest(name = "kubectl {0}")
    @MethodSource("versions")
    void generatorCommandsCreateTheObjectsKubectlBuilt(String version) {
        KubeClient client = shared.client();
        Path binary = SDK_BIN.resolve("kubectl." + version);
        assumeTrue(Files.isExecutable(binary), binary + " is not installed: kubectl protobuf test skipped");
        Kubectl k = new Kubectl(binary, version, kubeconfig, dir.resolve("cache-" + version));
        String ns = "pb-" + version.replace(".", "");

        k.ok("create", "namespace", ns);
        k.ok("-n", ns, "create", "configmap", "cm", "--from-literal=a=b");
        k.ok("-n", ns, "create", "secret", "generic", "s", "--from-literal=a=b");
        k.ok("-n", ns, "create", "deployment", "d", "--image=x");
        k.ok("-n", ns, "create", "service", "clusterip", "svc", "--tcp=80:8080");
        k.ok("-n", ns, "create", "job", "j", "--image=x");
        k.ok("-n", ns, "create", "cronjob", "cj", "--image=x", "--schedule=*/5 * * * *");
        k.ok("-n", ns, "create", "serviceaccount", "sa");
        k.ok("-n", ns, "run", "p", "--image=x", "--restart=Never");
        k.ok("-n", ns, "expose", "deployment", "d", "--port=80", "--target-port=8080");
        k.ok("-n", ns, "scale", "deployment", "d", "--replicas=3");

        assertThat(at(client.resource("namespaces").get(ns), "/status/phase")).isEqualTo("Active");
        assertThat(at(client.resource("configmaps").inNamespace(ns).get("cm"), "/data/a"))
                .isEqualTo("b");
        DynamicObject secret = client.resource("secrets").inNamespace(ns).get("s");
        assertThat(at(secret, "/data/a")).isEqualTo("Yg==");
        DynamicObject deploy = client.resource("deployments").inNamespace(ns).get("d");
        assertThat(deploy.at("/spec/replicas").map(JsonNode::asInt)).hasValue(3);
        assertThat(at(deploy, "/spec/selector/matchLabels/app")).isEqualTo("d");
        assertThat(at(deploy, "/spec/template/metadata/labels/app")).isEqualTo("d");
        assertThat(at(deploy, "/spec/template/spec/containers/0/image")).isEqualTo("x");
        DynamicObject svc = client.resource("services").inNamespace(ns).get("svc");
        assertThat(svc.at("/spec/ports/0/port").map(JsonNode::asInt)).hasValue(80);
        assertThat(svc.at("/spec/ports/0/targetPort").filter(JsonNode::isInt).map(JsonNode::asInt))
                .hasValue(8080);
        assertThat(at(svc, "/spec/type")).isEqualTo("ClusterIP");
        assertThat(at(svc, "/spec/selector/app")).isEqualTo("svc");
        DynamicObject job = client.resource("jobs").inNamespace(ns).get("j");
        assertThat(at(job, "/spec/template/spec/restartPolicy")).isEqualTo("Never");
        assertThat(at(job, "/spec/template/spec/containers/0/image")).isEqualTo("x");
        DynamicObject cj = client.resource("cronjobs").inNamespace(ns).get("cj");
        assertThat(at(cj, "/spec/schedule")).isEqualTo("*/5 * * * *");
        assertThat(at(cj, "/spec/jobTemplate/spec/template/spec/restartPolicy")).isEqualTo("OnFailure");
        assertThat(at(client.resource("serviceaccounts").inNamespace(ns).get("sa"), "/metadata/name"))
                .isEqualTo("sa");
        DynamicObject pod = client.resource("pods").inNamespace(ns).get("p");
        assertThat(at(pod, "/spec/containers/0/image")).isEqualTo("x");
        assertThat(at(pod, "/metadata/labels/run")).isEqualTo("p");
        DynamicObject exposed = client.resource("services").inNamespace(ns).get("d");
        assertThat(at(exposed, "/spec/selector/app")).isEqualTo("d");
        assertThat(exposed.at("/spec/ports/0/targetPort").map(JsonNode::asInt)).hasValue(8080);

        k.ok("-n", ns, "delete", "configmap", "cm");
        k.ok("-n", ns, "delete", "deployment", "d", "--grace-period=0");
        assertThat(exists(client, ns, "configmaps", "cm")).isFalse();
        assertThat(exists(client, ns, "deployments", "d")).isFalse();
    }

    private static boolean exists(KubeClient client, String ns, String resource, String name) {
        try {
            client.resource(resource).inNamespace(ns).get(name);
            return true;
        } catch (NotFoundException e) {
            return false;
        }
    }
}
