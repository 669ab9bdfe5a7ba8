package io.kubeloop.apiserver.internal.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubeloop.api.json.KubeJson;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

class StoredObjectTest {

    private static StoredObject foo() {
        ObjectNode n = KubeJson.mapper().createObjectNode();
        n.put("apiVersion", "samplecontroller.k8s.io/v1alpha1").put("kind", "Foo");
        n.putObject("metadata").put("name", "a").put("namespace", "ns").put("resourceVersion", "7");
        n.putObject("spec").put("replicas", 2);
        return StoredObject.of("samplecontroller.k8s.io/foos", "ns/a", 7, n);
    }

    @Test
    void afterTheTreeIsReleasedTheSameContentIsParsedFromTheBytes() {
        StoredObject o = foo();
        ObjectNode before = o.object();
        o.releaseTree();
        assertThat(o.holdsTree()).isFalse();
        assertThat(o.object()).isEqualTo(before).isNotSameAs(before);
        assertThat(o.object()).as("a fresh tree per call, none kept").isNotSameAs(o.object());
    }

    @Test
    void theApiVersionIsKnownWithoutATree() {
        StoredObject o = foo();
        o.releaseTree();
        assertThat(o.apiVersion()).isEqualTo("samplecontroller.k8s.io/v1alpha1");
    }
}
