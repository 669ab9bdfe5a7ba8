package io.kubeloop.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.FieldsV1;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntryBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ObjectAccessTest {

    record Foo(String apiVersion, String kind, ObjectMeta metadata) implements KubernetesObject {}

    /** Not a KubernetesObject, but has a metadata accessor. */
    public record Loose(ObjectMeta metadata, String other) {}

    /** Neither: only its JSON has metadata. */
    public static final class Bean {
        public Map<String, Object> getMetadata() {
            return Map.of("name", "bean", "namespace", "ns", "labels", Map.of("a", "b"));
        }
    }

    private static final ObjectMeta META = ObjectMeta.builder()
            .namespace("prod")
            .name("web")
            .uid("u1")
            .resourceVersion("42")
            .label("app", "web")
            .build();

    @Test
    void readsUserRecords() {
        Foo foo = new Foo("x/v1", "Foo", META);

        assertThat(ObjectAccess.metadata(foo)).isSameAs(META);
        assertThat(ObjectAccess.key(foo)).isEqualTo(ObjectKey.parse("prod/web"));
        assertThat(ObjectAccess.resourceVersion(foo)).isEqualTo("42");
        assertThat(ObjectAccess.uid(foo)).isEqualTo("u1");
        assertThat(ObjectAccess.labels(foo)).containsEntry("app", "web");
    }

    @Test
    void readsDynamicObjectsFromTheTree() {
        DynamicObject d = DynamicObject.of("v1", "ConfigMap", META);

        assertThat(ObjectAccess.namespace(d)).isEqualTo("prod");
        assertThat(ObjectAccess.name(d)).isEqualTo("web");
        assertThat(ObjectAccess.resourceVersion(d)).isEqualTo("42");
        assertThat(ObjectAccess.uid(d)).isEqualTo("u1");
        assertThat(ObjectAccess.labels(d)).containsEntry("app", "web");
        assertThat(ObjectAccess.metadata(d)).isEqualTo(META);
    }

    /** fabric8's Pod with no ModelSupport for it on this module's test path: read through its JSON. */
    @Test
    void readsABeanNoModelSupportKnowsThroughItsJson() {
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

    @Test
    void readsAnyTypeWithAMetadataAccessor() {
        Loose loose = new Loose(META, "x");

        assertThat(ObjectAccess.metadata(loose)).isSameAs(META);
        assertThat(ObjectAccess.key(loose)).isEqualTo(ObjectKey.parse("prod/web"));
    }

    @Test
    void ownerReferencesReadTheSameFromRecordsDynamicObjectsFabric8ModelsAndJson() {
        OwnerReference ref = new OwnerReference("apps/v1", "ReplicaSet", "rs", "uid-rs", true, true);
        ObjectMeta meta = META.toBuilder().ownerReferences(List.of(ref)).build();
        Pod pod = new PodBuilder()
                .withNewMetadata()
                .withName("p")
                .addNewOwnerReference()
                .withApiVersion("apps/v1")
                .withKind("ReplicaSet")
                .withName("rs")
                .withUid("uid-rs")
                .withController(true)
                .withBlockOwnerDeletion(true)
                .endOwnerReference()
                .endMetadata()
                .build();

        assertThat(ObjectAccess.ownerReferences(new Foo("x/v1", "Foo", meta))).containsExactly(ref);
        assertThat(ObjectAccess.ownerReferences(DynamicObject.of("v1", "Pod", meta)))
                .containsExactly(ref);
        assertThat(ObjectAccess.ownerReferences(pod)).containsExactly(ref);
        assertThat(ObjectAccess.ownerReferences(new Bean())).isEmpty();
        assertThat(ObjectAccess.ownerReferences(new Foo("x/v1", "Foo", META))).isEmpty();
    }

    @Test
    void fallsBackToJson() {
        assertThat(ObjectAccess.key(new Bean())).isEqualTo(ObjectKey.parse("ns/bean"));
        assertThat(ObjectAccess.labels(new Bean())).containsEntry("a", "b");
    }

    @Test
    void clusterScopedHasEmptyNamespace() {
        Foo node = new Foo("v1", "Node", ObjectMeta.of(null, "n1"));

        assertThat(ObjectAccess.namespace(node)).isEmpty();
        assertThat(ObjectAccess.key(node)).isEqualTo(ObjectKey.cluster("n1"));
        assertThat(ObjectAccess.labels(node)).isEmpty();
    }

    @Test
    void keyOfAnUnnamedObjectIsRejected() {
        Foo unnamed =
                new Foo("v1", "Foo", ObjectMeta.builder().generateName("x-").build());

        assertThatThrownBy(() -> ObjectAccess.key(unnamed))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no metadata.name");
    }

    @Test
    void objectWithoutMetadataReadsAsEmpty() {
        assertThat(ObjectAccess.metadata(new Pod()).name()).isNull();
        assertThat(ObjectAccess.namespace(new Pod())).isEmpty();
    }
}
