package io.kubeloop.apiserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.json.KubeJson;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/** {@link EmbeddedApiServer#load(List)}: objects stored as given, served like any other. */
class EmbeddedApiServerLoadTest {

    private static ObjectNode configMap(String namespace, String name, String value) {
        ObjectNode cm = KubeJson.mapper().createObjectNode();
        cm.put("apiVersion", "v1").put("kind", "ConfigMap");
        cm.putObject("metadata").put("name", name).put("namespace", namespace);
        cm.putObject("data").put("k", value);
        return cm;
    }

    @Test
    void loadedObjectsAreServedAndALaterLoadReplacesThem() {
        try (EmbeddedApiServer server = EmbeddedApiServer.start()) {
            server.load(List.of(configMap("default", "a", "1"), configMap("kube-system", "b", "2")));
            server.load(List.of(configMap("default", "a", "3")));

            DynamicObject a = server.client()
                    .resource("configmaps")
                    .inNamespace("default")
                    .get("a");
            assertThat(a.at("/data/k").orElseThrow().asString()).isEqualTo("3");
            assertThat(a.metadata().resourceVersion()).isNotBlank();
            assertThat(server.client()
                            .resource("configmaps")
                            .inNamespace("kube-system")
                            .get("b")
                            .at("/data/k")
                            .orElseThrow()
                            .asString())
                    .isEqualTo("2");
        }
    }

    @Test
    void aMalformedListStoresNothing() {
        try (EmbeddedApiServer server = EmbeddedApiServer.start()) {
            ObjectNode noNamespace = configMap("default", "c", "1");
            ((ObjectNode) noNamespace.get("metadata")).remove("namespace");
            ObjectNode unknownKind = configMap("default", "d", "1").put("kind", "Gadget");

            assertThatThrownBy(() -> server.load(List.of(configMap("default", "first", "1"), noNamespace)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("metadata.namespace");
            assertThatThrownBy(() -> server.load(List.of(unknownKind)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("Gadget");
            assertThat(server.client()
                            .resource("configmaps")
                            .inNamespace("default")
                            .list()
                            .items())
                    .isEmpty();
        }
    }
}
