package io.kubeloop.fabric8;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Endpoints;
import io.fabric8.kubernetes.api.model.FieldsV1;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntryBuilder;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodTemplate;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.events.v1.Event;
import io.kubeloop.api.GroupVersionKind;
import io.kubeloop.api.GroupVersionResource;
import io.kubeloop.api.ManagedFieldsEntry;
import io.kubeloop.api.ObjectAccess;
import io.kubeloop.api.ObjectKey;
import io.kubeloop.api.ObjectMeta;
import io.kubeloop.api.OwnerReference;
import io.kubeloop.api.Scheme;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * With kubeloop-fabric8 on the path, fabric8's model classes are typed objects of kubeloop: the default scheme
 * maps the common built-in kinds to them (no kubeloop-models here, so they are the kinds' types), any fabric8
 * model class declares its kind through its own annotations, and their metadata is read field by field.
 */
class Fabric8ModelSupportTest {

    @Test
    void defaultsMapBuiltInKindsBothWays() {
        Scheme s = Scheme.defaults();

        assertThat(s.gvkOf(Deployment.class)).contains(GroupVersionKind.parse("Deployment.v1.apps"));
        assertThat(s.gvkOf(Pod.class)).contains(GroupVersionKind.parse("Pod.v1"));
        assertThat(s.typeOf(GroupVersionKind.parse("Lease.v1.coordination.k8s.io")))
                .contains(Lease.class);
        assertThat(s.typeOf(GroupVersionKind.parse("Event.v1.events.k8s.io"))).contains(Event.class);
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
    void anyFabric8ModelClassDeclaresItsKindAndRegistersByItsAnnotations() {
        GroupVersionKind podTemplate = GroupVersionKind.parse("PodTemplate.v1");
        assertThat(Scheme.defaults().gvkOf(PodTemplate.class)).contains(podTemplate);
        assertThat(Scheme.defaults().mappingOf(PodTemplate.class).orElseThrow().resource())
                .isEqualTo("podtemplates");
        assertThat(Scheme.defaults().typeOf(podTemplate))
                .as("not one of the defaults")
                .isEmpty();

        Scheme extended =
                Scheme.defaults().toBuilder().register(PodTemplate.class).build();
        assertThat(extended.typeOf(podTemplate)).contains(PodTemplate.class);
        assertThat(Scheme.defaults().typeOf(podTemplate)).isEmpty();
    }

    @Test
    void readsFabric8ObjectsFieldByField() {
        FieldsV1 fields = new FieldsV1();
        fields.setAdditionalProperty("f:metadata", Map.of("f:labels", Map.of()));
        Pod pod = new PodBuilder()
                .withNewMetadata()
                .withNamespace("prod")
                .withName("web-1")
                .withUid("u2")
                .withResourceVersion("7")
                .withGeneration(2L)
                .withCreationTimestamp("2024-01-02T03:04:05Z")
                .addToLabels("app", "web")
                .addToAnnotations("n", "v")
                .addToFinalizers("f")
                .withDeletionGracePeriodSeconds(30L)
                .addNewOwnerReference()
                .withApiVersion("apps/v1")
                .withKind("ReplicaSet")
                .withName("rs")
                .withUid("o1")
                .withController(true)
                .endOwnerReference()
                .withManagedFields(new ManagedFieldsEntryBuilder()
                        .withManager("kubelet")
                        .withOperation("Update")
                        .withApiVersion("v1")
                        .withTime("2024-01-02T03:04:06Z")
                        .withFieldsType("FieldsV1")
                        .withFieldsV1(fields)
                        .withSubresource("status")
                        .build())
                .endMetadata()
                .build();

        ObjectMeta m = ObjectAccess.metadata(pod);

        assertThat(m.namespace()).isEqualTo("prod");
        assertThat(m.name()).isEqualTo("web-1");
        assertThat(m.generation()).isEqualTo(2L);
        assertThat(m.creationTimestamp()).isEqualTo(Instant.parse("2024-01-02T03:04:05Z"));
        assertThat(m.labels()).containsEntry("app", "web");
        assertThat(m.annotations()).containsEntry("n", "v");
        assertThat(m.finalizers()).containsExactly("f");
        assertThat(m.deletionGracePeriodSeconds()).isEqualTo(30L);
        assertThat(m.ownerReferences())
                .containsExactly(new OwnerReference("apps/v1", "ReplicaSet", "rs", "o1", true, null));
        ManagedFieldsEntry mf = m.managedFields().getFirst();
        assertThat(mf.manager()).isEqualTo("kubelet");
        assertThat(mf.time()).isEqualTo(Instant.parse("2024-01-02T03:04:06Z"));
        assertThat(mf.subresource()).isEqualTo("status");
        assertThat(mf.fieldsV1().has("f:metadata")).isTrue();
        assertThat(ObjectAccess.key(pod)).isEqualTo(ObjectKey.parse("prod/web-1"));
        assertThat(ObjectAccess.resourceVersion(pod)).isEqualTo("7");
        assertThat(ObjectAccess.uid(pod)).isEqualTo("u2");
        assertThat(ObjectAccess.labels(pod)).containsEntry("app", "web");
    }
}
