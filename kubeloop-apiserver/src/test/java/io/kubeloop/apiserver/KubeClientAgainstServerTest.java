package io.kubeloop.apiserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.errors.ConflictException;
import io.kubeloop.api.errors.NotFoundException;
import io.kubeloop.client.DeleteOptions;
import io.kubeloop.client.KubeClient;
import io.kubeloop.client.ListOptions;
import io.kubeloop.client.WriteOptions;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** kubeloop's own client drives the embedded server through the JUnit extension. */
class KubeClientAgainstServerTest {

    /** The server these tests share: started before the first, closed after the last. */
    @AutoClose
    private static EmbeddedApiServer shared;

    @BeforeAll
    static void startServer() {
        shared = EmbeddedApiServer.start(ServerOptions.defaults());
    }

    @Test
    void defaultNamespacesExistAtStart() {
        KubeClient client = shared.client();
        assertThat(client.resource("namespaces").list(ListOptions.none()).items())
                .extracting(o -> o.metadata().name())
                .containsExactly("default", "kube-node-lease", "kube-public", "kube-system");
    }

    @Test
    void createGetUpdateConflictAndDeleteThroughTheClient() {
        KubeClient client = shared.client();
        EmbeddedApiServer server = shared;
        var cms = client.resource("configmaps").inNamespace("default");
        DynamicObject created = cms.create(
                DynamicObject.parse(
                        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"c1\"},\"data\":{\"a\":\"b\"}}"),
                WriteOptions.none());
        assertThat(created.metadata().uid()).isNotEmpty();
        DynamicObject updated = cms.update(created.edit(n -> n.putObject("data").put("a", "c")), WriteOptions.none());
        assertThat(Long.parseLong(updated.metadata().resourceVersion()))
                .isGreaterThan(Long.parseLong(created.metadata().resourceVersion()));
        assertThatThrownBy(() ->
                        cms.update(created.edit(n -> n.putObject("data").put("a", "d")), WriteOptions.none()))
                .isInstanceOf(ConflictException.class);
        cms.delete("c1", DeleteOptions.none());
        assertThatThrownBy(() -> cms.get("c1")).isInstanceOf(NotFoundException.class);
        assertThat(server.url().getScheme()).isEqualTo("https");
    }
}
