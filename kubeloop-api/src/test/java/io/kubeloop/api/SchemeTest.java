package io.kubeloop.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Endpoints;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodTemplate;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import org.junit.jupiter.api.Test;

class SchemeTest {

    @Kind(group = "samplecontroller.k8s.io", version = "v1alpha1", kind = "Foo", plural = "foos")
    record Foo(String apiVersion, String kind, ObjectMeta metadata) implements KubernetesObject {}

    @Kind(group = "example.com", version = "v1", namespaced = false)
    record Policy(String apiVersion, String kind, ObjectMeta metadata) implements KubernetesObject {}

    record Plain(String apiVersion, String kind, ObjectMeta metadata) implements KubernetesObject {}

    @Test
    void defaultsMapBuiltInKindsBothWays() {
        Scheme s = Scheme.defaults();

        assertThat(s.gvkOf(Deployment.class)).contains(GroupVersionKind.parse("Deployment.v1.apps"));
        assertThat(s.gvkOf(Pod.class)).contains(GroupVersionKind.parse("Pod.v1"));
        assertThat(s.typeOf(GroupVersionKind.parse("Lease.v1.coordination.k8s.io")))
                .contains(Lease.class);
        assertThat(s.typeOf(GroupVersionKind.parse("Event.v1.events.k8s.io")))
                .contains(io.fabric8.kubernetes.api.model.events.v1.Event.class);
        assertThat(s.kinds()).hasSize(24);
    }

    @Test
    void defaultsKnowResourceAndScope() {
        Scheme s = Scheme.defaults();

        assertThat(s.mappingOf(Endpoints.class).orElseThrow().gvr())
                .isEqualTo(GroupVersionResource.parse("endpoints.v1"));
        assertThat(s.mappingOf(Namespace.class).orElseThrow().namespaced()).isFalse();
        assertThat(s.mappingOf(ConfigMap.class).orElseThrow().namespaced()).isTrue();
        assertThat(s.mappingOf(GroupVersionKind.parse("CustomResourceDefinition.v1.apiextensions.k8s.io"))
                        .orElseThrow()
                        .resource())
                .isEqualTo("customresourcedefinitions");
    }

    @Test
    void defaultsAgreeWithFabric8sOwnAnnotations() {
        for (GroupVersionKind gvk : Scheme.defaults().kinds()) {
            Class<?> type = Scheme.defaults().typeOf(gvk).orElseThrow();
            Scheme fromAnnotations = Scheme.builder().register(type).build();

            assertThat(fromAnnotations.gvkOf(type)).as(type.getName()).contains(gvk);
            assertThat(fromAnnotations.mappingOf(type))
                    .as(type.getName())
                    .isEqualTo(Scheme.defaults().mappingOf(type));
        }
    }

    @Test
    void kindAnnotationIsReadWithoutRegistration() {
        Scheme s = Scheme.builder().build();

        assertThat(s.gvkOf(Foo.class)).contains(new GroupVersionKind("samplecontroller.k8s.io", "v1alpha1", "Foo"));
        assertThat(s.mappingOf(Foo.class).orElseThrow())
                .isEqualTo(new ResourceMapping(s.gvkOf(Foo.class).orElseThrow(), "foos", true));
        assertThat(s.typeOf(s.gvkOf(Foo.class).orElseThrow())).isEmpty();
    }

    @Test
    void kindAnnotationDefaultsKindToClassNameAndGuessesPlural() {
        Scheme s = Scheme.builder().register(Policy.class).build();

        assertThat(s.gvkOf(Policy.class)).contains(new GroupVersionKind("example.com", "v1", "Policy"));
        assertThat(s.mappingOf(Policy.class).orElseThrow().resource()).isEqualTo("policies");
        assertThat(s.mappingOf(Policy.class).orElseThrow().namespaced()).isFalse();
        assertThat(s.typeOf(new GroupVersionKind("example.com", "v1", "Policy")))
                .contains(Policy.class);
    }

    @Test
    void registeringByKindOnlyHasNoMapping() {
        GroupVersionKind gvk = new GroupVersionKind("x.io", "v1", "Plain");
        Scheme s = Scheme.builder().register(Plain.class, gvk).build();

        assertThat(s.gvkOf(Plain.class)).contains(gvk);
        assertThat(s.mappingOf(Plain.class)).isEmpty();
    }

    @Test
    void conflictingRegistrationsAreRejected() {
        GroupVersionKind a = new GroupVersionKind("x.io", "v1", "A");
        GroupVersionKind b = new GroupVersionKind("x.io", "v1", "B");

        assertThatThrownBy(() -> Scheme.builder().register(Plain.class, a).register(Plain.class, b))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("already registered as");
        assertThatThrownBy(() -> Scheme.builder().register(Plain.class, a).register(Foo.class, a))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("already registered for");
        assertThat(Scheme.builder()
                        .register(Plain.class, a)
                        .register(Plain.class, a)
                        .build()
                        .kinds())
                .containsExactly(a);
    }

    @Test
    void typeWithoutDeclaredKindCannotBeRegisteredAlone() {
        assertThatThrownBy(() -> Scheme.builder().register(Plain.class))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("declares no kind");
    }

    @Test
    void toBuilderExtendsWithoutChangingTheOriginal() {
        Scheme extended =
                Scheme.defaults().toBuilder().register(PodTemplate.class).build();

        assertThat(extended.gvkOf(PodTemplate.class)).contains(GroupVersionKind.parse("PodTemplate.v1"));
        assertThat(extended.mappingOf(PodTemplate.class).orElseThrow().resource())
                .isEqualTo("podtemplates");
        assertThat(Scheme.defaults().gvkOf(PodTemplate.class)).isEmpty();
    }

    @Test
    void guessResourceFollowsApimachinery() {
        assertThat(ResourceMapping.guessResource("Foo")).isEqualTo("foos");
        assertThat(ResourceMapping.guessResource("Policy")).isEqualTo("policies");
        assertThat(ResourceMapping.guessResource("Class")).isEqualTo("classes");
        assertThat(ResourceMapping.guessResource("Endpoints")).isEqualTo("endpointses");
    }
}
