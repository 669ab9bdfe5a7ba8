package io.kubeloop.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubeloop.api.json.KubeJson;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class ObjectMetaTest {

    static final String FULL = """
            {"name":"web","generateName":"web-","namespace":"prod","uid":"8f2c1c8e-1d7f-4e0a-9a53-3a6f1a2b9c01",
             "resourceVersion":"12345","generation":3,"creationTimestamp":"2024-01-02T03:04:05Z",
             "deletionTimestamp":"2024-01-03T00:00:00Z","deletionGracePeriodSeconds":30,
             "labels":{"app":"web","tier":"frontend"},"annotations":{"note":"x"},
             "ownerReferences":[{"apiVersion":"samplecontroller.k8s.io/v1alpha1","kind":"Foo","name":"foo",
               "uid":"0b1f","controller":true,"blockOwnerDeletion":true}],
             "finalizers":["kubeloop.io/cleanup"],
             "managedFields":[{"manager":"kubectl","operation":"Apply","apiVersion":"apps/v1",
               "time":"2024-01-02T03:04:05Z","fieldsType":"FieldsV1",
               "fieldsV1":{"f:metadata":{"f:labels":{"f:app":{}}}},"subresource":"status"}],
             "selfLink":"/apis/apps/v1/namespaces/prod/deployments/web"}
            """;

    @Test
    void everyFieldRoundTripsThroughJson() {
        ObjectMeta meta = KubeJson.mapper().readValue(FULL, ObjectMeta.class);

        assertThat(meta.name()).isEqualTo("web");
        assertThat(meta.generation()).isEqualTo(3L);
        assertThat(meta.creationTimestamp()).isEqualTo(Instant.parse("2024-01-02T03:04:05Z"));
        assertThat(meta.isTerminating()).isTrue();
        assertThat(meta.ownerReferences().getFirst().isController()).isTrue();
        assertThat(meta.managedFields()
                        .getFirst()
                        .fieldsV1()
                        .at("/f:metadata/f:labels")
                        .isObject())
                .isTrue();

        JsonNode written = KubeJson.mapper().readTree(KubeJson.mapper().writeValueAsString(meta));
        assertThat(written).isEqualTo(KubeJson.mapper().readTree(FULL));
    }

    @Test
    void timestampsAreWrittenAsRfc3339Seconds() {
        ObjectMeta meta = ObjectMeta.builder()
                .name("a")
                .creationTimestamp(Instant.parse("2024-01-02T03:04:05Z"))
                .build();

        assertThat(KubeJson.mapper().writeValueAsString(meta))
                .isEqualTo("{\"name\":\"a\",\"creationTimestamp\":\"2024-01-02T03:04:05Z\"}");
    }

    @Test
    void absentFieldsStayAbsent() {
        ObjectMeta meta = KubeJson.mapper().readValue("{\"name\":\"a\"}", ObjectMeta.class);

        assertThat(meta.labels()).isNull();
        assertThat(meta.labelsOrEmpty()).isEmpty();
        assertThat(meta.finalizersOrEmpty()).isEmpty();
        assertThat(KubeJson.mapper().writeValueAsString(meta)).isEqualTo("{\"name\":\"a\"}");
    }

    @Test
    void ownerReferenceWithoutControllerFlagWritesNoFlag() {
        OwnerReference ref = new OwnerReference("v1", "ConfigMap", "c", "u", null, null);

        assertThat(ref.isController()).isFalse();
        assertThat(KubeJson.mapper().writeValueAsString(ref))
                .isEqualTo("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"name\":\"c\",\"uid\":\"u\"}");
    }

    @Test
    void builderCopiesAndEdits() {
        ObjectMeta base = ObjectMeta.builder()
                .name("a")
                .label("x", "1")
                .finalizer("f")
                .finalizer("f")
                .build();
        ObjectMeta edited =
                base.toBuilder().label("y", "2").annotation("n", "v").build();

        assertThat(base.labels()).containsOnlyKeys("x");
        assertThat(base.finalizers()).containsExactly("f");
        assertThat(edited.labels()).containsOnlyKeys("x", "y");
        assertThat(edited.annotations()).containsEntry("n", "v");
    }
}
