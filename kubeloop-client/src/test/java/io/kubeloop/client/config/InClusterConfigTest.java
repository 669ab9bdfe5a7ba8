package io.kubeloop.client.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kubeloop.time.testing.FakeTicker;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class InClusterConfigTest {

    @TempDir
    Path sa;

    private ConfigEnvironment env;

    @BeforeEach
    void setUp() throws IOException {
        Files.writeString(sa.resolve("token"), "sa-token\n");
        Files.writeString(sa.resolve("namespace"), "team-a\n");
        env = new ConfigEnvironment(
                Map.of("KUBERNETES_SERVICE_HOST", "10.96.0.1", "KUBERNETES_SERVICE_PORT", "443"),
                sa,
                sa,
                new FakeTicker(Instant.parse("2030-01-01T00:00:00Z")));
    }

    @Test
    void serverTokenAndNamespaceComeFromEnvironmentAndServiceAccountDir() {
        ClientConfig config = InClusterConfig.load(env);
        assertThat(config.server()).isEqualTo(URI.create("https://10.96.0.1:443"));
        assertThat(config.auth().authorization()).contains("Bearer sa-token");
        assertThat(config.namespace()).isEqualTo("team-a");
        assertThat(config.tlsServerName()).isNull();
        assertThat(config.source()).isEqualTo("in-cluster service account (" + sa + ")");
    }

    @Test
    void ipv6HostIsBracketed() {
        ClientConfig config = InClusterConfig.load(
                env.withVariables(Map.of("KUBERNETES_SERVICE_HOST", "fd00::1", "KUBERNETES_SERVICE_PORT", "443")));
        assertThat(config.server()).isEqualTo(URI.create("https://[fd00::1]:443"));
    }

    @Test
    void podNamespaceVariableWinsOverTheNamespaceFile() {
        ClientConfig config = InClusterConfig.load(env.withVariables(Map.of(
                "KUBERNETES_SERVICE_HOST",
                "10.96.0.1",
                "KUBERNETES_SERVICE_PORT",
                "443",
                "POD_NAMESPACE",
                "from-env")));
        assertThat(config.namespace()).isEqualTo("from-env");
    }

    @Test
    void missingNamespaceFileMeansDefault() throws IOException {
        Files.delete(sa.resolve("namespace"));
        assertThat(InClusterConfig.load(env).namespace()).isEqualTo("default");
    }

    @Test
    void rotatedTokenIsPickedUp() throws IOException {
        ClientConfig config = InClusterConfig.load(env);
        Files.writeString(sa.resolve("token"), "rotated-token-value\n");
        assertThat(config.auth().authorization()).contains("Bearer rotated-token-value");
    }

    @Test
    void outsideAClusterIsAClearError() {
        ConfigEnvironment outside = env.withVariables(Map.of());
        assertThat(InClusterConfig.isAvailable(outside)).isFalse();
        assertThatThrownBy(() -> InClusterConfig.load(outside))
                .isInstanceOf(KubeConfigException.class)
                .hasMessage(
                        "in-cluster configuration: KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT must be defined");
    }

    @Test
    void missingTokenIsAClearError() throws IOException {
        Files.delete(sa.resolve("token"));
        assertThatThrownBy(() -> InClusterConfig.load(env))
                .isInstanceOf(KubeConfigException.class)
                .hasMessage("in-cluster configuration: cannot read the service account token " + sa.resolve("token")
                        + " or it is empty");
    }

    @Test
    void caFromTheServiceAccountDirIsTrusted() throws Exception {
        TestPki pki = new TestPki();
        TestPki.Issued ca = pki.ca("cluster-ca");
        try (TestHttpsServer server =
                new TestHttpsServer(pki.server(ca, List.of(), List.of("127.0.0.1")), ca.certificate(), false)) {
            Files.writeString(sa.resolve("ca.crt"), ca.certificatePem());
            ClientConfig config = InClusterConfig.load(env.withVariables(Map.of(
                    "KUBERNETES_SERVICE_HOST", "127.0.0.1", "KUBERNETES_SERVICE_PORT", String.valueOf(server.port()))));
            assertThat(server.get(config.sslContext(), config.server().getHost()))
                    .isEqualTo("anonymous");
        }
    }
}
