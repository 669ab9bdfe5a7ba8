package io.kubeloop.api.json;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.KubernetesObject;
import io.kubeloop.api.ObjectAccess;
import io.kubeloop.api.ObjectKey;
import io.kubeloop.api.ObjectMeta;
import io.kubeloop.api.selector.LabelSelector;
import io.kubeloop.api.selector.LabelSelectorSpec;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

class KubeJsonTest {

    record FooSpec(String deploymentName, Integer replicas, List<Port> ports) {}

    record Port(String name, int port) {}

    record Condition(String type, String status, Instant lastTransitionTime, String message) {}

    record FooStatus(Integer availableReplicas, List<Condition> conditions) {}

    record Foo(String apiVersion, String kind, ObjectMeta metadata, FooSpec spec, FooStatus status)
            implements KubernetesObject {}

    private static String resource(String name) {
        try (InputStream in = KubeJsonTest.class.getResourceAsStream("/json/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The tree as written: reparsed so numbers compare by value, with null fields dropped as KubeJson does. */
    private static JsonNode written(Object value) {
        return KubeJson.mapper().readTree(KubeJson.mapper().writeValueAsString(value));
    }

    private static JsonNode withoutNulls(JsonNode node) {
        if (node instanceof ObjectNode o) {
            ObjectNode copy = KubeJson.mapper().createObjectNode();
            o.properties().forEach(e -> {
                if (!e.getValue().isNull()) {
                    copy.set(e.getKey(), withoutNulls(e.getValue()));
                }
            });
            return copy;
        }
        if (node.isArray()) {
            var arr = KubeJson.mapper().createArrayNode();
            node.forEach(n -> arr.add(withoutNulls(n)));
            return arr;
        }
        return node;
    }

    @Test
    void userRecordsRoundTripWithNestedRecordsAndTimestamps() {
        String json = """
                {"apiVersion":"samplecontroller.k8s.io/v1alpha1","kind":"Foo",
                 "metadata":{"name":"example-foo","namespace":"default","creationTimestamp":"2024-01-02T03:04:05Z"},
                 "spec":{"deploymentName":"example-foo","replicas":1,"ports":[{"name":"http","port":80}]},
                 "status":{"availableReplicas":1,"conditions":[{"type":"Ready","status":"True",
                   "lastTransitionTime":"2024-01-02T03:04:05Z","message":"ok"}]},
                 "unknownField":{"ignored":true}}
                """;

        Foo foo = KubeJson.mapper().readValue(json, Foo.class);

        assertThat(foo.key()).isEqualTo(ObjectKey.parse("default/example-foo"));
        assertThat(foo.spec().ports()).containsExactly(new Port("http", 80));
        assertThat(foo.status().conditions().getFirst().lastTransitionTime())
                .isEqualTo(Instant.parse("2024-01-02T03:04:05Z"));
        ObjectNode expected = (ObjectNode) KubeJson.mapper().readTree(json);
        expected.remove("unknownField");
        assertThat(written(foo)).isEqualTo(expected);
        assertThat(KubeJson.mapper().writeValueAsString(foo))
                .contains("\"lastTransitionTime\":\"2024-01-02T03:04:05Z\"");
    }

    @Test
    void nullFieldsAreNotWritten() {
        Foo foo = new Foo("x/v1", "Foo", ObjectMeta.of("ns", "a"), null, null);

        assertThat(KubeJson.mapper().writeValueAsString(foo))
                .isEqualTo(
                        "{\"apiVersion\":\"x/v1\",\"kind\":\"Foo\",\"metadata\":{\"name\":\"a\",\"namespace\":\"ns\"}}");
    }

    @Test
    void instantsWithFractionsOrOffsetsAreRead() {
        Condition c = KubeJson.mapper()
                .readValue("{\"lastTransitionTime\":\"2024-01-02T05:04:05.123456+02:00\"}", Condition.class);

        assertThat(c.lastTransitionTime()).isEqualTo(Instant.parse("2024-01-02T03:04:05.123456Z"));
        assertThat(KubeJson.mapper().writeValueAsString(c)).contains("\"2024-01-02T03:04:05.123456Z\"");
    }

    @Test
    void fabric8DeploymentRoundTrips() {
        String json = resource("deployment.json");

        Deployment d = KubeJson.mapper().readValue(json, Deployment.class);

        assertThat(d.getSpec().getReplicas()).isEqualTo(3);
        assertThat(d.getSpec().getStrategy().getRollingUpdate().getMaxSurge().getStrVal())
                .isEqualTo("25%");
        assertThat(d.getSpec()
                        .getTemplate()
                        .getSpec()
                        .getContainers()
                        .getFirst()
                        .getResources()
                        .getLimits()
                        .get("cpu")
                        .toString())
                .isEqualTo("500m");
        assertThat(ObjectAccess.key(d)).isEqualTo(ObjectKey.parse("default/web"));
        assertThat(written(d)).isEqualTo(withoutNulls(KubeJson.mapper().readTree(json)));
    }

    @Test
    void deploymentSelectorConvertsFromTheFabric8Model() {
        Deployment d = KubeJson.mapper().readValue(resource("deployment.json"), Deployment.class);

        LabelSelector s = KubeJson.mapper()
                .convertValue(d.getSpec().getSelector(), LabelSelectorSpec.class)
                .toSelector();

        assertThat(s.format()).isEqualTo("app=web,tier in (frontend)");
        assertThat(s.matches(d.getSpec().getTemplate().getMetadata().getLabels()))
                .isTrue();
    }

    @Test
    void fabric8PodWithManagedFieldsRoundTrips() {
        String json = resource("pod.json");

        Pod pod = KubeJson.mapper().readValue(json, Pod.class);
        ObjectMeta meta = ObjectAccess.metadata(pod);

        assertThat(meta.managedFields()).hasSize(2);
        assertThat(meta.managedFields().get(1).subresource()).isEqualTo("status");
        assertThat(meta.managedFields()
                        .get(0)
                        .fieldsV1()
                        .at("/f:metadata/f:labels/f:app")
                        .isObject())
                .isTrue();
        assertThat(written(pod)).isEqualTo(withoutNulls(KubeJson.mapper().readTree(json)));
    }

    @Test
    void podWithManagedFieldsRoundTripsAsDynamicObjectAndObjectMeta() {
        String json = resource("pod.json");

        DynamicObject pod = KubeJson.mapper().readValue(json, DynamicObject.class);
        ObjectMeta meta = pod.metadata();

        assertThat(meta.managedFields().getFirst().manager()).isEqualTo("kube-controller-manager");
        assertThat(meta.managedFields().getFirst().time()).isEqualTo(Instant.parse("2024-01-02T03:04:06Z"));
        assertThat(written(pod)).isEqualTo(KubeJson.mapper().readTree(json));
        assertThat(written(meta)).isEqualTo(KubeJson.mapper().readTree(json).get("metadata"));
        assertThat(pod.to(Pod.class).getSpec().getNodeName()).isEqualTo("node-1");
    }

    @Test
    void fabric8ObjectConvertsToDynamicAndBack() {
        Deployment d = KubeJson.mapper().readValue(resource("deployment.json"), Deployment.class);

        DynamicObject dyn = KubeJson.mapper().convertValue(d, DynamicObject.class);

        assertThat(dyn.kind()).isEqualTo("Deployment");
        assertThat(dyn.at("/spec/replicas").orElseThrow().asInt()).isEqualTo(3);
        assertThat(dyn.to(Deployment.class)).isEqualTo(d);
        assertThat(ObjectAccess.labels(dyn)).isEqualTo(Map.of("app", "web"));
    }
}
