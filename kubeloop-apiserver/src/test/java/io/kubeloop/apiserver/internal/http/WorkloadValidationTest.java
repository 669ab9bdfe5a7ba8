package io.kubeloop.apiserver.internal.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubeloop.apiserver.BuiltinControllerMode;
import io.kubeloop.apiserver.EmbeddedApiServer;
import io.kubeloop.apiserver.ServerOptions;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The workload validation users meet most, answered with kube-apiserver's 422 messages. */
class WorkloadValidationTest {

    static EmbeddedApiServer server;
    static RawHttp http;

    @BeforeAll
    static void start() {
        server = EmbeddedApiServer.start(ServerOptions.defaults().withBuiltinControllers(BuiltinControllerMode.OFF));
        http = new RawHttp(server);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static String deployment(String selector, String labels, String containers) {
        return "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{\"name\":\"web\"},\"spec\":{"
                + selector + "\"template\":{\"metadata\":{\"labels\":" + labels + "},\"spec\":{\"containers\":"
                + containers + "}}}}";
    }

    private static final String NGINX = "[{\"name\":\"c\",\"image\":\"nginx\"}]";

    private static String message(HttpResponse<String> r) {
        assertThat(r.statusCode()).as(r.body()).isEqualTo(422);
        return RawHttp.json(r).path("message").asString();
    }

    @Test
    void aSelectorThatDoesNotMatchTheTemplatesLabelsIsRefused() {
        String ns = http.newNamespace("valid");
        HttpResponse<String> r = http.post(
                "/apis/apps/v1/namespaces/" + ns + "/deployments",
                deployment("\"selector\":{\"matchLabels\":{\"app\":\"web\"}},", "{\"app\":\"other\"}", NGINX));
        assertThat(message(r))
                .isEqualTo("Deployment.apps \"web\" is invalid: spec.template.metadata.labels: Invalid value: "
                        + "map[string]string{\"app\":\"other\"}: `selector` does not match template `labels`");
    }

    @Test
    void aMissingSelectorOrContainerFieldsAreRequired() {
        String ns = http.newNamespace("valid");
        assertThat(message(http.post(
                        "/apis/apps/v1/namespaces/" + ns + "/deployments", deployment("", "{\"app\":\"web\"}", NGINX))))
                .isEqualTo("Deployment.apps \"web\" is invalid: spec.selector: Required value");
        assertThat(message(http.post(
                        "/apis/apps/v1/namespaces/" + ns + "/deployments",
                        deployment("\"selector\":{\"matchLabels\":{\"app\":\"web\"}},", "{\"app\":\"web\"}", "[]"))))
                .isEqualTo("Deployment.apps \"web\" is invalid: spec.template.spec.containers: Required value");
        String pod = "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\"},\"spec\":{\"containers\":"
                + "[{\"name\":\"c\"}]}}";
        assertThat(message(http.post("/api/v1/namespaces/" + ns + "/pods", pod)))
                .isEqualTo("Pod \"p\" is invalid: spec.containers[0].image: Required value");
    }

    @Test
    void aDeploymentsSelectorCannotChange() {
        String ns = http.newNamespace("valid");
        String path = "/apis/apps/v1/namespaces/" + ns + "/deployments";
        HttpResponse<String> created = http.post(
                path,
                deployment(
                        "\"selector\":{\"matchLabels\":{\"app\":\"web\"}},", "{\"app\":\"web\",\"v\":\"1\"}", NGINX));
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        HttpResponse<String> patched = http.patch(
                path + "/web",
                "application/merge-patch+json",
                "{\"spec\":{\"selector\":{\"matchLabels\":{\"v\":\"1\"}}}}");
        assertThat(message(patched)).endsWith(": field is immutable").contains("spec.selector: Invalid value:");
    }

    @Test
    void containerNamesPortsAndPoliciesAreCheckedWithKubeApiserversMessages() {
        String ns = http.newNamespace("valid");
        String pod = """
                {"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"restartPolicy":"Sometimes",
                 "containers":[{"name":"My_C","image":"nginx","ports":[{"containerPort":70000,"protocol":"HTTP"}]},
                               {"name":"side","image":"busybox","imagePullPolicy":"Often"},
                               {"name":"side","image":"busybox"}]}}
                """;
        assertThat(message(http.post("/api/v1/namespaces/" + ns + "/pods", pod)))
                .isEqualTo("Pod \"p\" is invalid: ["
                        + "spec.containers[0].name: Invalid value: \"My_C\": a lowercase RFC 1123 label must consist of"
                        + " lower case alphanumeric characters or '-', and must start and end with an alphanumeric"
                        + " character (e.g. 'my-name',  or '123-abc', regex used for validation is"
                        + " '[a-z0-9]([-a-z0-9]*[a-z0-9])?'), "
                        + "spec.containers[0].ports[0].containerPort: Invalid value: 70000: must be between 1 and 65535,"
                        + " inclusive, "
                        + "spec.containers[0].ports[0].protocol: Unsupported value: \"HTTP\": supported values:"
                        + " \"SCTP\", \"TCP\", \"UDP\", "
                        + "spec.containers[1].imagePullPolicy: Unsupported value: \"Often\": supported values:"
                        + " \"Always\", \"IfNotPresent\", \"Never\", "
                        + "spec.containers[2].name: Duplicate value: \"side\", "
                        + "spec.restartPolicy: Unsupported value: \"Sometimes\": supported values: \"Always\","
                        + " \"OnFailure\", \"Never\"]");
    }

    @Test
    void negativeReplicasAndUnnamedOrOutOfRangeServicePortsAreRefused() {
        String ns = http.newNamespace("valid");
        String d = deployment(
                "\"replicas\":-1,\"selector\":{\"matchLabels\":{\"app\":\"web\"}},", "{\"app\":\"web\"}", NGINX);
        assertThat(message(http.post("/apis/apps/v1/namespaces/" + ns + "/deployments", d)))
                .isEqualTo(
                        "Deployment.apps \"web\" is invalid: spec.replicas: Invalid value: -1: must be greater than or"
                                + " equal to 0");
        String svc = """
                {"apiVersion":"v1","kind":"Service","metadata":{"name":"s"},
                 "spec":{"ports":[{"name":"http","port":80},{"port":0}]}}
                """;
        assertThat(message(http.post("/api/v1/namespaces/" + ns + "/services", svc)))
                .isEqualTo("Service \"s\" is invalid: [spec.ports[1].name: Required value, spec.ports[1].port: Invalid"
                        + " value: 0: must be between 1 and 65535, inclusive]");
    }
}
