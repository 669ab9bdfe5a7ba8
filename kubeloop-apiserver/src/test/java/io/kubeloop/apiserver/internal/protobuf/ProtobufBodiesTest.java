package io.kubeloop.apiserver.internal.protobuf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import io.kubeloop.api.errors.BadRequestException;
import io.kubeloop.api.errors.UnsupportedMediaTypeException;
import io.kubeloop.api.json.KubeJson;
import io.kubernetes.client.proto.IntStr;
import io.kubernetes.client.proto.Meta;
import io.kubernetes.client.proto.Resource;
import io.kubernetes.client.proto.V1;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;

/**
 * {@link ProtobufBodies} and {@link ProtoJson}: messages built with the generated Java classes (an encoder
 * independent of ours, writing zero-valued value fields as Go does) decode to Go's JSON, and JSON of several
 * kinds survives encoding by descriptor and decoding unchanged.
 */
class ProtobufBodiesTest {

    private static JsonNode json(String text) {
        return KubeJson.mapper().readTree(text);
    }

    private static Resource.Quantity q(String s) {
        return Resource.Quantity.newBuilder().setString(s).build();
    }

    @Test
    void podWithQuantitiesIntOrStringAndTimesDecodesToGoJson() {
        V1.Pod pod = V1.Pod.newBuilder()
                .setMetadata(Meta.ObjectMeta.newBuilder()
                        .setName("web")
                        .setNamespace("default")
                        .setGenerateName("")
                        .setGeneration(0)
                        .putLabels("app", "web")
                        .setCreationTimestamp(Meta.Time.newBuilder()
                                .setSeconds(1_700_000_000L)
                                .setNanos(123))
                        .setDeletionGracePeriodSeconds(0))
                .setSpec(V1.PodSpec.newBuilder()
                        .addContainers(V1.Container.newBuilder()
                                .setName("main")
                                .setImage("nginx")
                                .setResources(V1.ResourceRequirements.newBuilder()
                                        .putLimits("cpu", q("500m"))
                                        .putLimits("memory", q("128Mi"))
                                        .putRequests("cpu", q("250m")))
                                .addPorts(V1.ContainerPort.newBuilder()
                                        .setContainerPort(8080)
                                        .setName("http")
                                        .setHostPort(0)
                                        .setProtocol("TCP"))
                                .setLivenessProbe(V1.Probe.newBuilder()
                                        .setHandler(V1.ProbeHandler.newBuilder()
                                                .setHttpGet(V1.HTTPGetAction.newBuilder()
                                                        .setPath("/healthz")
                                                        .setPort(IntStr.IntOrString.newBuilder()
                                                                .setType(0)
                                                                .setIntVal(8080))))
                                        .setPeriodSeconds(0))
                                .setReadinessProbe(V1.Probe.newBuilder()
                                        .setHandler(V1.ProbeHandler.newBuilder()
                                                .setTcpSocket(V1.TCPSocketAction.newBuilder()
                                                        .setPort(IntStr.IntOrString.newBuilder()
                                                                .setType(1)
                                                                .setStrVal("http"))))))
                        .setRestartPolicy("Always")
                        .setTerminationGracePeriodSeconds(0)
                        .setHostNetwork(false)
                        .setNodeName("")
                        .setAutomountServiceAccountToken(false))
                .setStatus(V1.PodStatus.newBuilder()
                        .setPhase("Running")
                        .setStartTime(Meta.Time.newBuilder().setSeconds(1_700_000_060L))
                        .addContainerStatuses(V1.ContainerStatus.newBuilder()
                                .setName("main")
                                .setReady(false)
                                .setRestartCount(0)
                                .setImage("nginx")
                                .setImageID("")))
                .build();

        JsonNode decoded = ProtobufBodies.decode(JsonToProto.envelope("v1", "Pod", pod.toByteString()));

        assertThat(decoded).isEqualTo(json("""
                {"kind":"Pod","apiVersion":"v1",
                 "metadata":{"name":"web","namespace":"default","creationTimestamp":"2023-11-14T22:13:20Z",
                   "deletionGracePeriodSeconds":0,"labels":{"app":"web"}},
                 "spec":{"containers":[{"name":"main","image":"nginx",
                     "ports":[{"name":"http","containerPort":8080,"protocol":"TCP"}],
                     "resources":{"limits":{"cpu":"500m","memory":"128Mi"},"requests":{"cpu":"250m"}},
                     "livenessProbe":{"httpGet":{"path":"/healthz","port":8080}},
                     "readinessProbe":{"tcpSocket":{"port":"http"}}}],
                   "restartPolicy":"Always","terminationGracePeriodSeconds":0,"automountServiceAccountToken":false},
                 "status":{"phase":"Running","startTime":"2023-11-14T22:14:20Z",
                   "containerStatuses":[{"name":"main","ready":false,"restartCount":0,"image":"nginx"}]}}"""));
        assertThat(decoded.properties().iterator().next().getKey()).isEqualTo("kind");
    }

    @Test
    void secretBytesAreBase64AndZeroTimeIsNull() {
        V1.Secret secret = V1.Secret.newBuilder()
                .setMetadata(Meta.ObjectMeta.newBuilder().setName("s").setCreationTimestamp(Meta.Time.newBuilder()))
                .putData("password", ByteString.copyFromUtf8("hunter2\u0000\u00ff"))
                .setType("Opaque")
                .build();

        JsonNode decoded = ProtobufBodies.decode(JsonToProto.envelope("v1", "Secret", secret.toByteString()));

        assertThat(decoded).isEqualTo(json("""
                {"kind":"Secret","apiVersion":"v1","metadata":{"name":"s","creationTimestamp":null},
                 "data":{"password":"aHVudGVyMgDDvw=="},"type":"Opaque"}"""));
    }

    @Test
    void microTimeKeepsMicrosecondsAndTimeDropsNanos() {
        V1.Event event = V1.Event.newBuilder()
                .setMetadata(Meta.ObjectMeta.newBuilder().setName("e"))
                .setEventTime(
                        Meta.MicroTime.newBuilder().setSeconds(1_700_000_000L).setNanos(123_456_789))
                .setLastTimestamp(
                        Meta.Time.newBuilder().setSeconds(1_700_000_000L).setNanos(999_999_999))
                .setCount(3)
                .build();

        JsonNode decoded = ProtobufBodies.decode(JsonToProto.envelope("v1", "Event", event.toByteString()));

        assertThat(decoded.path("eventTime").asString()).isEqualTo("2023-11-14T22:13:20.123456Z");
        assertThat(decoded.path("lastTimestamp").asString()).isEqualTo("2023-11-14T22:13:20Z");
        assertThat(decoded.path("count").asInt()).isEqualTo(3);
    }

    @ParameterizedTest
    @ValueSource(strings = {"""
        {"kind":"Deployment","apiVersion":"apps/v1","metadata":{"name":"d","labels":{"app":"d"},
         "managedFields":[{"manager":"kubectl","operation":"Update","apiVersion":"apps/v1",
           "time":"2024-05-06T07:08:09Z","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:replicas":{}}}}]},
         "spec":{"replicas":0,"selector":{"matchLabels":{"app":"d"}},
           "template":{"metadata":{"labels":{"app":"d"}},"spec":{"containers":[{"name":"x","image":"x",
             "resources":{},"terminationMessagePolicy":"File"}]}},
           "strategy":{"type":"RollingUpdate","rollingUpdate":{"maxUnavailable":1,"maxSurge":"25%"}},
           "revisionHistoryLimit":10,"progressDeadlineSeconds":600},"status":{}}""", """
        {"kind":"Service","apiVersion":"v1","metadata":{"name":"svc","namespace":"ns"},
         "spec":{"ports":[{"name":"80-8080","protocol":"TCP","port":80,"targetPort":8080},
           {"name":"https","port":443,"targetPort":"https"}],"selector":{"app":"svc"},"type":"ClusterIP",
           "ipFamilies":["IPv4"]},"status":{"loadBalancer":{}}}""", """
        {"kind":"CronJob","apiVersion":"batch/v1","metadata":{"name":"cj"},
         "spec":{"schedule":"*/1 * * * *","suspend":false,"jobTemplate":{"metadata":{"name":"cj"},
           "spec":{"backoffLimit":0,"template":{"metadata":{},"spec":{"containers":[{"name":"cj","image":"busybox",
             "command":["date"]}],"restartPolicy":"OnFailure"}}}}},"status":{}}""", """
        {"kind":"Job","apiVersion":"batch/v1","metadata":{"name":"j","creationTimestamp":null},
         "spec":{"parallelism":2,"completions":4,"template":{"metadata":{"creationTimestamp":null},
           "spec":{"containers":[{"name":"j","image":"x","env":[{"name":"A","value":"b"}]}],
           "restartPolicy":"Never"}}},"status":{"startTime":"2024-01-01T00:00:00Z","succeeded":1}}""", """
        {"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"c","annotations":{"a/b":"c"}},
         "immutable":true,"data":{"a":"b","z":""},"binaryData":{"bin":"AAEC"}}""", """
        {"kind":"Namespace","apiVersion":"v1","metadata":{"name":"ns1","finalizers":["x/y"]},
         "spec":{"finalizers":["kubernetes"]},"status":{"phase":"Active"}}""", """
        {"kind":"ServiceAccount","apiVersion":"v1","metadata":{"name":"sa"},"secrets":[{"name":"t"}],
         "automountServiceAccountToken":false}""", """
        {"kind":"StatefulSet","apiVersion":"apps/v1","metadata":{"name":"s"},"spec":{"replicas":3,
         "selector":{"matchExpressions":[{"key":"app","operator":"In","values":["a","b"]}]},"serviceName":"s",
         "template":{"metadata":{},"spec":{"containers":[{"name":"c","image":"i"}]}},
         "volumeClaimTemplates":[{"metadata":{"name":"data"},"spec":{"accessModes":["ReadWriteOnce"],
           "resources":{"requests":{"storage":"1Gi"}}}}],
         "updateStrategy":{"type":"RollingUpdate","rollingUpdate":{"partition":0}}}}""", """
        {"kind":"DeleteOptions","apiVersion":"v1","gracePeriodSeconds":0,
         "preconditions":{"uid":"u-1","resourceVersion":"42"},"propagationPolicy":"Foreground","dryRun":["All"]}""", """
        {"kind":"Scale","apiVersion":"autoscaling/v1","metadata":{"name":"d","namespace":"default"},
         "spec":{"replicas":0},"status":{"replicas":2,"selector":"app=d"}}""", """
        {"kind":"Event","apiVersion":"v1","metadata":{"name":"e.1"},"involvedObject":{"kind":"Pod","name":"p",
         "apiVersion":"v1"},"reason":"Started","message":"hi","source":{"component":"kubelet"},
         "firstTimestamp":"2024-01-01T00:00:00Z","eventTime":"2024-01-01T00:00:00.500000Z","count":2,"type":"Normal"}"""})
    void jsonSurvivesProtobufRoundTrip(String text) {
        JsonNode original = json(text);

        JsonNode decoded = ProtobufBodies.decode(JsonToProto.body(original));

        assertThat(decoded).isEqualTo(original);
    }

    @Test
    void zeroValuedOmitemptyFieldsOnTheWireAreOmitted() {
        V1.ConfigMap cm = V1.ConfigMap.newBuilder()
                .setMetadata(Meta.ObjectMeta.newBuilder()
                        .setName("c")
                        .setNamespace("")
                        .setUid("")
                        .setResourceVersion("")
                        .setGeneration(0))
                .setImmutable(false)
                .build();

        JsonNode decoded = ProtobufBodies.decode(JsonToProto.envelope("v1", "ConfigMap", cm.toByteString()));

        // immutable is a *bool in Go: false was set on purpose and is kept
        assertThat(decoded).isEqualTo(json("""
                {"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"c"},"immutable":false}"""));
    }

    @Test
    void customResourceKindIsUnsupportedMediaType() {
        byte[] body = JsonToProto.envelope("example.com/v1", "Widget", ByteString.EMPTY);

        assertThatThrownBy(() -> ProtobufBodies.decode(body))
                .isInstanceOf(UnsupportedMediaTypeException.class)
                .hasMessageContaining("unknown format")
                .hasMessageContaining("example.com/v1, Kind=Widget");
    }

    @Test
    void kindMissingFromTheDescriptorsIsUnsupportedMediaType() {
        byte[] body = JsonToProto.envelope("coordination.k8s.io/v1", "Lease", ByteString.EMPTY);

        assertThatThrownBy(() -> ProtobufBodies.decode(body)).isInstanceOf(UnsupportedMediaTypeException.class);
    }

    @Test
    void bodyWithoutTheMagicPrefixIsBadRequest() {
        assertThatThrownBy(() -> ProtobufBodies.decode("{\"kind\":\"Pod\"}".getBytes()))
                .isInstanceOf(BadRequestException.class)
                .hasMessageContaining("expected prefix [107 56 115 0]");
    }

    @Test
    void rawThatIsNotTheKindsMessageIsBadRequest() {
        byte[] body = JsonToProto.envelope("v1", "ConfigMap", ByteString.copyFrom(new byte[] {0x0a, 0x7f, 0x01}));

        assertThatThrownBy(() -> ProtobufBodies.decode(body))
                .isInstanceOf(BadRequestException.class)
                .hasMessageContaining("v1, Kind=ConfigMap does not parse");
    }

    @Test
    void goDurationTextMatchesGo() {
        assertThat(GoDuration.format(0)).isEqualTo("0s");
        assertThat(GoDuration.format(1_500_000_000L)).isEqualTo("1.5s");
        assertThat(GoDuration.format(3_600_000_000_000L)).isEqualTo("1h0m0s");
        assertThat(GoDuration.format(100_000_000L)).isEqualTo("100ms");
        assertThat(GoDuration.format(1_500L)).isEqualTo("1.5\u00b5s");
        assertThat(GoDuration.format(-90_000_000_000L)).isEqualTo("-1m30s");
        assertThat(GoDuration.format(7L)).isEqualTo("7ns");
    }
}
