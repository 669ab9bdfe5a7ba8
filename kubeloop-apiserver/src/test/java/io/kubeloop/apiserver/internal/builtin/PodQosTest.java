package io.kubeloop.apiserver.internal.builtin;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubeloop.api.json.KubeJson;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** A Pod's QoS class as kube-apiserver computes it on create. */
class PodQosTest {

    @ParameterizedTest(name = "{1}: {0}")
    @CsvSource(delimiter = '|', textBlock = """
            {"containers":[{"name":"a"}]}                                                                        | BestEffort
            {"containers":[{"name":"a","resources":{"requests":{"cpu":"100m"}}}]}                                | Burstable
            {"containers":[{"name":"a","resources":{"limits":{"cpu":"1","memory":"1Gi"}}}]}                      | Guaranteed
            {"containers":[{"name":"a","resources":{"limits":{"cpu":"1","memory":"1Gi"},"requests":{"cpu":"1000m","memory":"1Gi"}}}]} | Guaranteed
            {"containers":[{"name":"a","resources":{"limits":{"cpu":"1","memory":"1Gi"},"requests":{"cpu":"500m"}}}]} | Burstable
            {"containers":[{"name":"a","resources":{"limits":{"cpu":"1","memory":"1Gi"}}},{"name":"b"}]}        | Burstable
            {"initContainers":[{"name":"i","resources":{"limits":{"memory":"1Gi"}}}],"containers":[{"name":"a"}]} | Burstable
            """)
    void guaranteedNeedsLimitsEqualToRequestsEverywhereAndBestEffortNeedsNoneAnywhere(String spec, String qos) {
        assertThat(PodQos.of(KubeJson.mapper().readTree(spec))).isEqualTo(qos);
    }
}
