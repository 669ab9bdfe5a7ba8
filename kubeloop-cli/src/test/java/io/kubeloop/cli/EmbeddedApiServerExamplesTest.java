package io.kubeloop.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.apiserver.EmbeddedApiServer;
import io.kubeloop.client.KubeClient;
import io.kubeloop.testing.junit.EmbeddedApiServerTest;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/** The embedded API server examples of docs/apiserver.md, compiled and run. */
@EmbeddedApiServerTest
class EmbeddedApiServerExamplesTest {

    @Test
    void storesTheGreeting(KubeClient client) {
        var cms = client.resource("configmaps").inNamespace("default");
        cms.create(DynamicObject.parse("""
                {"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"hello"},"data":{"greeting":"hi"}}"""));
        assertThat(cms.get("hello").at("/data/greeting"))
                .map(JsonNode::asString)
                .hasValue("hi");
    }

    @Test
    void otherClientsCanUseTheKubeconfig(EmbeddedApiServer server, @TempDir Path dir) throws Exception {
        Path kubeconfig = server.writeKubeconfig(dir.resolve("kubeconfig"));
        assertThat(Files.readString(kubeconfig)).contains("server: " + server.url(), "current-context: kubeloop");
    }

    @Test
    void oneLineServerFromJava(@TempDir Path dir) {
        try (EmbeddedApiServer server = EmbeddedApiServer.start()) {
            KubeClient client = server.client();
            client.resource("configmaps").inNamespace("default").create(DynamicObject.parse("""
                    {"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"hello"},"data":{"greeting":"hi"}}"""));
            server.writeKubeconfig(dir.resolve("build/kubeconfig"));
            assertThat(server.url().toString()).startsWith("https://127.0.0.1:");
            assertThat(dir.resolve("build/kubeconfig")).exists();
        }
    }
}
