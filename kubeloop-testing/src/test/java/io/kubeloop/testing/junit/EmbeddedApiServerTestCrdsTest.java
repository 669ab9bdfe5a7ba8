package io.kubeloop.testing.junit;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.GroupVersionResource;
import io.kubeloop.api.ResourceScope;
import io.kubeloop.client.KubeClient;
import org.junit.jupiter.api.Test;

/**
 * {@code @EmbeddedApiServerTest(crds = …)} installs the CRDs it names — a class path resource and a file
 * path here — before the first test runs: the test creates their custom resources straight away.
 */
@EmbeddedApiServerTest(
        workloads = false,
        crds = {"classpath:crds/gadgets-and-gizmos.yaml", "src/test/resources/crds/widgets.example.com.yaml"})
class EmbeddedApiServerTestCrdsTest {

    @Test
    void theCrdsAreServedBeforeTheFirstTest(KubeClient client) {
        for (String plural : new String[] {"widgets", "gizmos"}) {
            client.resource(
                            new GroupVersionResource("example.com", "v1", plural),
                            ResourceScope.NAMESPACED,
                            DynamicObject.class)
                    .inNamespace("default")
                    .create(DynamicObject.parse("{\"apiVersion\":\"example.com/v1\",\"kind\":\""
                            + (plural.equals("widgets") ? "Widget" : "Gizmo")
                            + "\",\"metadata\":{\"name\":\"one\",\"namespace\":\"default\"}}"));
        }
        assertThat(client.resource(
                                new GroupVersionResource("example.com", "v1", "gadgets"),
                                ResourceScope.CLUSTER,
                                DynamicObject.class)
                        .list()
                        .items())
                .isEmpty();
    }
}
