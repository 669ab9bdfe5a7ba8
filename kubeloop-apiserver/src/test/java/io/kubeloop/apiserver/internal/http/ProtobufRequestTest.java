package io.kubeloop.apiserver.internal.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import com.google.protobuf.Message;
import io.kubeloop.apiserver.EmbeddedApiServer;
import io.kubeloop.apiserver.ServerOptions;
import io.kubeloop.apiserver.SimulatedCluster;
import io.kubernetes.client.proto.IntStr;
import io.kubernetes.client.proto.Meta;
import io.kubernetes.client.proto.Runtime;
import io.kubernetes.client.proto.V1;
import io.kubernetes.client.proto.V1Apps;
import io.kubernetes.client.proto.V1Autoscaling;
import java.io.ByteArrayOutputStream;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Real {@code application/vnd.kubernetes.protobuf} bodies, encoded with the generated protobuf classes as a Go
 * client encodes them, sent over HTTPS: creates, updates, the scale subresource and DeleteOptions are decoded to
 * the stored JSON; answers are JSON; kinds without a message and custom resources get a 415 Status.
 */
class ProtobufRequestTest {

    /** The server these tests share: started before the first, closed after the last. */
    @AutoClose
    private static EmbeddedApiServer shared;

    private static final String PROTOBUF = "application/vnd.kubernetes.protobuf";
    private static final String ACCEPT = "application/vnd.kubernetes.protobuf,application/json";

    static EmbeddedApiServer server;
    static RawHttp http;

    @BeforeAll
    static void connect() {
        EmbeddedApiServer embedded =
                shared = EmbeddedApiServer.start(ServerOptions.defaults().withCluster(SimulatedCluster.off()));
        server = embedded;
        http = new RawHttp(embedded);
    }

    private static byte[] body(String apiVersion, String kind, Message m) {
        Runtime.Unknown u = Runtime.Unknown.newBuilder()
                .setTypeMeta(
                        Runtime.TypeMeta.newBuilder().setApiVersion(apiVersion).setKind(kind))
                .setRaw(m.toByteString())
                .build();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(new byte[] {'k', '8', 's', 0});
        out.writeBytes(u.toByteArray());
        return out.toByteArray();
    }

    private static HttpResponse<String> send(String method, String path, byte[] body) {
        return http.send(http.req(path)
                .header("Content-Type", PROTOBUF)
                .header("Accept", ACCEPT)
                .method(method, HttpRequest.BodyPublishers.ofByteArray(body))
                .build());
    }

    private static Meta.ObjectMeta.Builder meta(String name) {
        // as Go writes an ObjectMeta: every value field, zero or not
        return Meta.ObjectMeta.newBuilder()
                .setName(name)
                .setGenerateName("")
                .setNamespace("")
                .setUid("")
                .setResourceVersion("")
                .setGeneration(0)
                .setCreationTimestamp(Meta.Time.newBuilder());
    }

    @Test
    void configMapCreatedFromProtobufIsStoredAsJson() {
        V1.ConfigMap cm = V1.ConfigMap.newBuilder()
                .setMetadata(meta("pb-cm").putLabels("a", "b"))
                .putData("greeting", "hi")
                .putBinaryData("bin", ByteString.copyFrom(new byte[] {0, 1, 2}))
                .build();

        HttpResponse<String> r = send("POST", "/api/v1/namespaces/default/configmaps", body("v1", "ConfigMap", cm));

        assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
        assertThat(r.headers().firstValue("Content-Type")).hasValue("application/json");
        JsonNode stored = RawHttp.json(http.get("/api/v1/namespaces/default/configmaps/pb-cm"));
        assertThat(stored.path("data").path("greeting").asString()).isEqualTo("hi");
        assertThat(stored.path("binaryData").path("bin").asString()).isEqualTo("AAEC");
        assertThat(stored.path("metadata").path("labels").path("a").asString()).isEqualTo("b");
        assertThat(stored.path("metadata").path("uid").asString()).isNotEmpty();
        assertThat(stored.path("metadata").has("generateName")).isFalse();
    }

    @Test
    void deploymentUpdateAndScaleFromProtobufKeepExplicitZeros() {
        V1Apps.Deployment.Builder d = V1Apps.Deployment.newBuilder()
                .setMetadata(meta("pb-deploy"))
                .setSpec(V1Apps.DeploymentSpec.newBuilder()
                        .setReplicas(2)
                        .setSelector(Meta.LabelSelector.newBuilder().putMatchLabels("app", "pb"))
                        .setTemplate(V1.PodTemplateSpec.newBuilder()
                                .setMetadata(meta("").putLabels("app", "pb"))
                                .setSpec(V1.PodSpec.newBuilder()
                                        .addContainers(V1.Container.newBuilder()
                                                .setName("c")
                                                .setImage("nginx")
                                                .addPorts(V1.ContainerPort.newBuilder()
                                                        .setContainerPort(80))
                                                .setReadinessProbe(V1.Probe.newBuilder()
                                                        .setHandler(V1.ProbeHandler.newBuilder()
                                                                .setHttpGet(V1.HTTPGetAction.newBuilder()
                                                                        .setPort(IntStr.IntOrString.newBuilder()
                                                                                .setType(1)
                                                                                .setStrVal("http"))))))))
                        .setStrategy(V1Apps.DeploymentStrategy.newBuilder()
                                .setType("RollingUpdate")
                                .setRollingUpdate(V1Apps.RollingUpdateDeployment.newBuilder()
                                        .setMaxSurge(IntStr.IntOrString.newBuilder()
                                                .setType(1)
                                                .setStrVal("25%")))));
        HttpResponse<String> created =
                send("POST", "/apis/apps/v1/namespaces/default/deployments", body("apps/v1", "Deployment", d.build()));
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        String rv =
                RawHttp.json(created).path("metadata").path("resourceVersion").asString();

        d.setMetadata(meta("pb-deploy").setResourceVersion(rv)).getSpecBuilder().setReplicas(0);
        HttpResponse<String> updated = send(
                "PUT",
                "/apis/apps/v1/namespaces/default/deployments/pb-deploy",
                body("apps/v1", "Deployment", d.build()));

        assertThat(updated.statusCode()).as(updated.body()).isEqualTo(200);
        JsonNode stored = RawHttp.json(http.get("/apis/apps/v1/namespaces/default/deployments/pb-deploy"));
        assertThat(stored.path("spec").path("replicas").isInt()).isTrue();
        assertThat(stored.path("spec").path("replicas").asInt()).isZero();
        assertThat(stored.at("/spec/strategy/rollingUpdate/maxSurge").asString())
                .isEqualTo("25%");
        assertThat(stored.at("/spec/template/spec/containers/0/readinessProbe/httpGet/port")
                        .asString())
                .isEqualTo("http");

        V1Autoscaling.Scale scale = V1Autoscaling.Scale.newBuilder()
                .setMetadata(meta("pb-deploy").setNamespace("default"))
                .setSpec(V1Autoscaling.ScaleSpec.newBuilder().setReplicas(4))
                .build();
        HttpResponse<String> scaled = send(
                "PUT",
                "/apis/apps/v1/namespaces/default/deployments/pb-deploy/scale",
                body("autoscaling/v1", "Scale", scale));
        assertThat(scaled.statusCode()).as(scaled.body()).isEqualTo(200);
        assertThat(RawHttp.json(http.get("/apis/apps/v1/namespaces/default/deployments/pb-deploy"))
                        .at("/spec/replicas")
                        .asInt())
                .isEqualTo(4);
    }

    @Test
    void protobufDeleteOptionsAreRead() {
        V1.ConfigMap cm = V1.ConfigMap.newBuilder().setMetadata(meta("pb-del")).build();
        assertThat(send("POST", "/api/v1/namespaces/default/configmaps", body("v1", "ConfigMap", cm))
                        .statusCode())
                .isEqualTo(201);
        Meta.DeleteOptions wrongUid = Meta.DeleteOptions.newBuilder()
                .setPreconditions(Meta.Preconditions.newBuilder().setUid("not-the-uid"))
                .build();

        HttpResponse<String> refused =
                send("DELETE", "/api/v1/namespaces/default/configmaps/pb-del", body("v1", "DeleteOptions", wrongUid));
        HttpResponse<String> deleted = send(
                "DELETE",
                "/api/v1/namespaces/default/configmaps/pb-del",
                body(
                        "meta.k8s.io/v1",
                        "DeleteOptions",
                        Meta.DeleteOptions.newBuilder().setGracePeriodSeconds(0).build()));

        assertThat(refused.statusCode()).as(refused.body()).isEqualTo(409);
        assertThat(deleted.statusCode()).as(deleted.body()).isEqualTo(200);
        assertThat(http.get("/api/v1/namespaces/default/configmaps/pb-del").statusCode())
                .isEqualTo(404);
    }

    @Test
    void kindWithoutAProtobufMessageGets415Status() {
        byte[] lease = body("coordination.k8s.io/v1", "Lease", Meta.ObjectMeta.getDefaultInstance());

        HttpResponse<String> r = send("POST", "/apis/coordination.k8s.io/v1/namespaces/default/leases", lease);

        assertThat(r.statusCode()).as(r.body()).isEqualTo(415);
        JsonNode status = RawHttp.json(r);
        assertThat(status.path("kind").asString()).isEqualTo("Status");
        assertThat(status.path("reason").asString()).isEqualTo("UnsupportedMediaType");
        assertThat(status.path("code").asInt()).isEqualTo(415);
    }

    @Test
    void customResourcesRefuseProtobufWith415() {
        CrdFixtures.install(http, CrdFixtures.WIDGET);
        V1.ConfigMap anything = V1.ConfigMap.newBuilder().setMetadata(meta("w")).build();

        HttpResponse<String> r = send(
                "POST", "/apis/example.com/v1/namespaces/default/widgets", body("example.com/v1", "Widget", anything));

        assertThat(r.statusCode()).as(r.body()).isEqualTo(415);
        assertThat(RawHttp.json(r).path("message").asString()).contains("application/json, application/yaml");
    }

    @Test
    void acceptOfProtobufAloneIsNotAcceptableAndWithJsonIsAnsweredInJson() {
        HttpResponse<String> onlyProtobuf = http.get("/api/v1/namespaces/default/configmaps", PROTOBUF);
        HttpResponse<String> either = http.get("/api/v1/namespaces/default/configmaps", ACCEPT);

        assertThat(onlyProtobuf.statusCode()).as(onlyProtobuf.body()).isEqualTo(406);
        assertThat(either.statusCode()).isEqualTo(200);
        assertThat(either.headers().firstValue("Content-Type")).hasValue("application/json");
        assertThat(RawHttp.json(either).path("kind").asString()).isEqualTo("ConfigMapList");
    }

    @Test
    void malformedProtobufIsBadRequest() {
        HttpResponse<String> r = send("POST", "/api/v1/namespaces/default/configmaps", "{\"kind\":1}".getBytes());

        assertThat(r.statusCode()).as(r.body()).isEqualTo(400);
        assertThat(RawHttp.json(r).path("reason").asString()).isEqualTo("BadRequest");
    }
}
