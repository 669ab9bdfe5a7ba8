package io.kubeloop.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.kubeloop.api.json.KubeJson;
import java.util.List;
import org.junit.jupiter.api.Test;

class DynamicObjectTest {

    private static final String FOO = """
            {"apiVersion":"samplecontroller.k8s.io/v1alpha1","kind":"Foo",
             "metadata":{"name":"example-foo","namespace":"default","resourceVersion":"7","labels":{"a":"b"}},
             "spec":{"deploymentName":"example-foo","replicas":1},"status":{"availableReplicas":0}}
            """;

    @Test
    void readsTypeAndMetadata() {
        DynamicObject foo = DynamicObject.parse(FOO);

        assertThat(foo.apiVersion()).isEqualTo("samplecontroller.k8s.io/v1alpha1");
        assertThat(foo.kind()).isEqualTo("Foo");
        assertThat(foo.metadata().resourceVersion()).isEqualTo("7");
        assertThat(foo.key()).isEqualTo(ObjectKey.parse("default/example-foo"));
        assertThat(foo.at("/spec/replicas").orElseThrow().asInt()).isEqualTo(1);
        assertThat(foo.at("/spec/missing")).isEmpty();
    }

    @Test
    void editWorksOnACopy() {
        DynamicObject foo = DynamicObject.parse(FOO);

        DynamicObject changed = foo.edit(n -> n.withObjectProperty("spec").put("replicas", 3));

        assertThat(foo.at("/spec/replicas").orElseThrow().asInt()).isEqualTo(1);
        assertThat(changed.at("/spec/replicas").orElseThrow().asInt()).isEqualTo(3);
        assertThat(changed).isNotEqualTo(foo);
    }

    @Test
    void withMetadataReplacesMetadata() {
        DynamicObject foo = DynamicObject.parse(FOO);

        DynamicObject renamed =
                foo.withMetadata(foo.metadata().toBuilder().name("other").build());

        assertThat(renamed.metadata().name()).isEqualTo("other");
        assertThat(renamed.at("/metadata/labels/a").orElseThrow().asString()).isEqualTo("b");
    }

    @Test
    void toJsonRoundTrips() {
        DynamicObject foo = DynamicObject.parse(FOO);

        assertThat(DynamicObject.parse(foo.toJson())).isEqualTo(foo);
        assertThat(KubeJson.mapper().readTree(foo.toJson()))
                .isEqualTo(KubeJson.mapper().readTree(FOO));
    }

    @Test
    void convertsToATypedObject() {
        DynamicObject foo = DynamicObject.parse(FOO);

        GenericKubernetesResource typed = foo.to(GenericKubernetesResource.class);

        assertThat(typed.getMetadata().getName()).isEqualTo("example-foo");
    }

    @Test
    void parseRejectsNonObjects() {
        assertThatThrownBy(() -> DynamicObject.parse("[1]"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("expected a JSON object");
    }

    @Test
    void missingMetadataReadsAsEmpty() {
        DynamicObject o = DynamicObject.parse("{\"kind\":\"X\"}");

        assertThat(o.metadata().name()).isNull();
        assertThat(o.apiVersion()).isNull();
    }

    record Holder(DynamicObject object, List<DynamicObject> items) {}

    @Test
    void isAFieldAndListItemTypeForJackson() {
        String json = "{\"object\":" + FOO + ",\"items\":[" + FOO + "," + FOO + "]}";

        Holder h = KubeJson.mapper().readValue(json, Holder.class);

        assertThat(h.object().kind()).isEqualTo("Foo");
        assertThat(h.items())
                .hasSize(2)
                .allSatisfy(d -> assertThat(d.metadata().name()).isEqualTo("example-foo"));
        assertThat(KubeJson.mapper().readTree(KubeJson.mapper().writeValueAsString(h)))
                .isEqualTo(KubeJson.mapper().readTree(json));
    }

    @Test
    void readsAndWritesDirectly() {
        DynamicObject foo = KubeJson.mapper().readValue(FOO, DynamicObject.class);

        assertThat(foo).isEqualTo(DynamicObject.parse(FOO));
        assertThat(KubeJson.mapper().writeValueAsString(foo)).isEqualTo(foo.toJson());
    }
}
