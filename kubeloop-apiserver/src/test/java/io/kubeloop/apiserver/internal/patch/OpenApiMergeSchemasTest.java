package io.kubeloop.apiserver.internal.patch;

import static io.kubeloop.apiserver.internal.patch.StrategicMergePatchTest.smp;
import static org.assertj.core.api.Assertions.assertThat;

import io.kubeloop.api.GroupVersionKind;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Built-in kinds without a hand-written strategic-merge schema merge as the release's OpenAPI says: a
 * HorizontalPodAutoscaler's status conditions by {@code type}, a PodDisruptionBudget's too, a
 * NetworkPolicy's ingress rules as one value; server-side apply owns such condition lists item by item.
 */
class OpenApiMergeSchemasTest {

    private static final GroupVersionKind HPA = new GroupVersionKind("autoscaling", "v2", "HorizontalPodAutoscaler");

    @Test
    void kindsOutsideTheTableGetTheirSchemaFromTheReleasesOpenApi() {
        StrategicMergeSchema hpa = StrategicMergeSchemas.forKind(HPA).orElseThrow();
        StrategicMergeSchema conditions = hpa.field("status").field("conditions");
        assertThat(conditions.mergeList()).isTrue();
        assertThat(conditions.patchMergeKey()).isEqualTo("type");
        assertThat(conditions.listType()).isEqualTo(StrategicMergeSchema.ListType.MAP);
        assertThat(conditions.listMapKeys()).containsExactly("type");
        assertThat(hpa.field("metadata")).isSameAs(StrategicMergeSchemas.objectMeta());
        assertThat(StrategicMergeSchemas.forKind(new GroupVersionKind("policy", "v1", "PodDisruptionBudget"))
                        .orElseThrow()
                        .field("status")
                        .field("conditions")
                        .patchMergeKey())
                .isEqualTo("type");
        assertThat(StrategicMergeSchemas.forKind(new GroupVersionKind("networking.k8s.io", "v1", "NetworkPolicy"))
                        .orElseThrow()
                        .field("spec")
                        .field("ingress")
                        .mergeList())
                .as("no patch strategy upstream: replaced as a whole")
                .isFalse();
        assertThat(StrategicMergeSchemas.forKind(new GroupVersionKind("example.com", "v1", "Foo")))
                .isEmpty();
    }

    @Test
    void aStrategicMergePatchOfAnHpasConditionsMergesThemByType() {
        String live = """
                {'apiVersion':'autoscaling/v2','kind':'HorizontalPodAutoscaler','metadata':{'name':'web'},
                 'status':{'conditions':[{'type':'AbleToScale','status':'True'},{'type':'ScalingActive','status':'True'}]}}""";
        JsonNode out = smp(
                live.replace('\'', '"'),
                "{'status':{'conditions':[{'type':'ScalingActive','status':'False'}]}}",
                StrategicMergeSchemas.forKind(HPA).orElseThrow());
        assertThat(out.at("/status/conditions").size()).isEqualTo(2);
        assertThat(out.at("/status/conditions/0/status").asString()).isEqualTo("True");
        assertThat(out.at("/status/conditions/1/status").asString()).isEqualTo("False");
    }
}
