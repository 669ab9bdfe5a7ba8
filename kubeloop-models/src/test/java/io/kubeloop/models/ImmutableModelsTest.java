package io.kubeloop.models;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kubeloop.api.json.KubeJson;
import io.kubeloop.models.apps.v1.Deployment;
import io.kubeloop.models.core.v1.Container;
import io.kubeloop.models.core.v1.PodSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The records are deeply immutable: what a caller hands in or gets out cannot change a record. */
class ImmutableModelsTest {

    @Test
    void listsAndMapsHandedToTheConstructorAreCopiedWhenModifiable() {
        List<Container> containers = new ArrayList<>();
        containers.add(Container.builder().name("a").build());
        Map<String, String> selector = new LinkedHashMap<>(Map.of("disk", "ssd"));
        PodSpec spec =
                PodSpec.builder().containers(containers).nodeSelector(selector).build();

        containers.add(Container.builder().name("b").build());
        selector.put("zone", "a");

        assertThat(spec.containers()).extracting(Container::name).containsExactly("a");
        assertThat(spec.nodeSelector()).containsOnlyKeys("disk");
    }

    @Test
    void listsAndMapsOfARecordCannotBeChanged() {
        PodSpec spec = PodSpec.builder()
                .addContainer(c -> c.name("a").addArg("--v=2"))
                .putNodeSelector("disk", "ssd")
                .build();
        assertThatThrownBy(() -> spec.containers().add(Container.builder().build()))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> spec.containers().getFirst().args().clear())
                .isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> spec.nodeSelector().put("zone", "a"))
                .isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void listsAndMapsReadFromJsonCannotBeChanged() throws Exception {
        Deployment d = KubeJson.mapper().readValue("""
                        {"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},
                         "spec":{"template":{"spec":{"containers":[{"name":"a","env":[{"name":"X","value":"1"}]}]}}},
                         "future":{"nested":[{"deep":true}]}}
                        """, Deployment.class);
        List<Container> containers = d.spec().template().spec().containers();
        assertThatThrownBy(() -> containers.remove(0)).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> containers.getFirst().env().clear()).isInstanceOf(UnsupportedOperationException.class);
        @SuppressWarnings("unchecked")
        Map<String, Object> future = (Map<String, Object>) d.unknownFields().get("future");
        @SuppressWarnings("unchecked")
        List<Object> nested = (List<Object>) future.get("nested");
        assertThatThrownBy(() -> nested.add("x")).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> future.put("x", 1)).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> d.unknownFields().clear()).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void untypedValuesAreFrozenDeeply() {
        Map<String, Object> inner = new LinkedHashMap<>();
        inner.put("k", new ArrayList<>(List.of(1, 2)));
        Map<String, Object> unknown = new LinkedHashMap<>();
        unknown.put("x", inner);
        PodSpec spec = PodSpec.builder().unknownFields(unknown).build();

        @SuppressWarnings("unchecked")
        List<Object> given = (List<Object>) inner.get("k");
        given.add(3);
        inner.put("j", 1);

        @SuppressWarnings("unchecked")
        Map<String, Object> kept = (Map<String, Object>) spec.unknownFields().get("x");
        assertThat(kept).containsOnlyKeys("k");
        @SuppressWarnings("unchecked")
        List<Object> k = (List<Object>) kept.get("k");
        assertThat(k).containsExactly(1, 2);
        assertThatThrownBy(() -> k.add(4)).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void aRecordReadFromJsonKeepsItsCollectionsWhenRebuilt() throws Exception {
        PodSpec spec = KubeJson.mapper()
                .readValue("{\"containers\":[{\"name\":\"a\"}],\"nodeSelector\":{\"disk\":\"ssd\"}}", PodSpec.class);
        PodSpec same = spec.toBuilder().build();
        assertThat(same).isEqualTo(spec);
        assertThat(same.containers()).isSameAs(spec.containers()); // unmodifiable already: no copy
        assertThat(same.nodeSelector()).isSameAs(spec.nodeSelector());
    }
}
