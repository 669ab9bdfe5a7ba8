package io.kubeloop.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class SchemeTest {

    @Kind(group = "samplecontroller.k8s.io", version = "v1alpha1", kind = "Foo", plural = "foos")
    record Foo(String apiVersion, String kind, ObjectMeta metadata) implements KubernetesObject {}

    @Kind(group = "example.com", version = "v1", namespaced = false)
    record Policy(String apiVersion, String kind, ObjectMeta metadata) implements KubernetesObject {}

    record Plain(String apiVersion, String kind, ObjectMeta metadata) implements KubernetesObject {}

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
    void guessResourceFollowsApimachinery() {
        assertThat(ResourceMapping.guessResource("Foo")).isEqualTo("foos");
        assertThat(ResourceMapping.guessResource("Policy")).isEqualTo("policies");
        assertThat(ResourceMapping.guessResource("Class")).isEqualTo("classes");
        assertThat(ResourceMapping.guessResource("Endpoints")).isEqualTo("endpointses");
    }

    /**
     * {@link Scheme#defaults()} holds what the {@code ModelSupport}s on the path register (this module's tests
     * provide {@link TestModels}): a kind's {@code @Kind}-annotated type is its type whichever registered
     * first, and the other type maps to the kind too.
     */
    @Test
    void defaultsHoldTheModelSupportsRegistrationsAnnotatedTypesFirst() {
        Scheme s = Scheme.defaults();
        assertThat(s.typeOf(TestModels.GADGET)).contains(TestModels.Gadget.class);
        assertThat(s.gvkOf(TestModels.LegacyGadget.class)).contains(TestModels.GADGET);
        assertThat(s.mappingOf(TestModels.LegacyGadget.class).orElseThrow().resource())
                .isEqualTo("gadgets");
        assertThat(s.mappingOf(TestModels.GADGET).orElseThrow().namespaced()).isFalse();
    }

    /** A type that declares its kind its own way is mapped through the {@code ModelSupport} that knows it. */
    @Test
    void typesAModelSupportKnowsAreMappedWithoutRegistration() {
        Scheme s = Scheme.builder().build();
        assertThat(s.gvkOf(TestModels.Declared.class))
                .contains(new GroupVersionKind("test.kubeloop.io", "v1", "Declared"));
        assertThat(s.mappingOf(TestModels.Declared.class).orElseThrow().resource())
                .isEqualTo("declareds");
        assertThat(Scheme.builder()
                        .register(TestModels.Declared.class)
                        .build()
                        .typeOf(new GroupVersionKind("test.kubeloop.io", "v1", "Declared")))
                .contains(TestModels.Declared.class);
        assertThat(ObjectAccess.metadata(new TestModels.Declared("d1")).name()).isEqualTo("d1");
    }
}
