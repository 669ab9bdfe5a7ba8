package io.kubeloop.models;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubeloop.api.IntOrString;
import io.kubeloop.api.OwnerReference;
import io.kubeloop.api.Quantity;
import io.kubeloop.api.json.KubeJson;
import io.kubeloop.models.apps.v1.Deployment;
import io.kubeloop.models.core.v1.Container;
import io.kubeloop.models.core.v1.Service;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** Builders make the objects Java users write with fabric8's builders, as short or shorter. */
class BuildersTest {

    /** The Deployment Go's sample-controller makes for a Foo: one nginx container, owned by the Foo. */
    @Test
    void buildsTheSampleControllersDeployment() {
        OwnerReference owner =
                new OwnerReference("samplecontroller.k8s.io/v1alpha1", "Foo", "example-foo", "uid-1", true, true);
        Deployment deployment = Deployment.builder()
                .metadata(m -> m.name("example-foo").namespace("default").ownerReference(owner))
                .spec(s -> s.replicas(1)
                        .selector(l -> l.putMatchLabel("app", "nginx").putMatchLabel("controller", "example-foo"))
                        .template(t -> t.metadata(m -> m.label("app", "nginx").label("controller", "example-foo"))
                                .spec(p -> p.addContainer(c -> c.name("nginx").image("nginx:latest")))))
                .build();

        JsonNode expected = KubeJson.mapper().readTree("""
                        {"apiVersion":"apps/v1","kind":"Deployment",
                         "metadata":{"name":"example-foo","namespace":"default","ownerReferences":[
                           {"apiVersion":"samplecontroller.k8s.io/v1alpha1","kind":"Foo","name":"example-foo",
                            "uid":"uid-1","controller":true,"blockOwnerDeletion":true}]},
                         "spec":{"replicas":1,"selector":{"matchLabels":{"app":"nginx","controller":"example-foo"}},
                          "template":{"metadata":{"labels":{"app":"nginx","controller":"example-foo"}},
                           "spec":{"containers":[{"name":"nginx","image":"nginx:latest"}]}}}}
                        """);
        assertThat(KubeJson.mapper().<JsonNode>valueToTree(deployment)).isEqualTo(expected);
    }

    @Test
    void toBuilderChangesOneFieldAndKeepsTheRest() {
        Deployment one = Deployment.of("default", "web").toBuilder()
                .spec(s -> s.replicas(1).minReadySeconds(5))
                .build();
        Deployment three = one.toBuilder().spec(s -> s.replicas(3)).build();

        assertThat(three.spec().replicas()).isEqualTo(3);
        assertThat(three.spec().minReadySeconds()).isEqualTo(5);
        assertThat(three.metadata()).isSameAs(one.metadata());
        assertThat(one.spec().replicas()).isEqualTo(1);
        assertThat(three.withSpec(one.spec())).isEqualTo(one);
    }

    @Test
    void kindsStartWithTheirApiVersionAndKind() {
        Deployment d = Deployment.of("ns", "web");
        assertThat(d.apiVersion()).isEqualTo("apps/v1");
        assertThat(d.kind()).isEqualTo("Deployment");
        assertThat(d.metadata().namespace()).isEqualTo("ns");
        assertThat(Service.builder().build().apiVersion()).isEqualTo("v1");
    }

    @Test
    void intOrStringAndQuantitiesAreTheirOwnTypes() {
        Service service = Service.builder()
                .spec(s -> s.addPort(p -> p.port(80).targetPort(IntOrString.of("http"))))
                .build();
        assertThat(service.spec().ports().getFirst().targetPort()).isEqualTo(IntOrString.of("http"));

        var container = Container.builder()
                .resources(r -> r.putRequest("cpu", Quantity.parse("100m")).putLimit("memory", Quantity.parse("1Gi")))
                .build();
        assertThat(container.resources().requests()).isEqualTo(Map.of("cpu", Quantity.parse("0.1")));
        assertThat(KubeJson.mapper().<JsonNode>valueToTree(container))
                .isEqualTo(KubeJson.mapper()
                        .readTree("{\"resources\":{\"limits\":{\"memory\":\"1Gi\"},\"requests\":{\"cpu\":\"100m\"}}}"));
    }
}
