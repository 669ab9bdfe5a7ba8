package io.kubeloop.it.crd;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubeloop.client.KubeClient;
import io.kubeloop.testing.crd.CrdInstaller;
import io.kubeloop.testing.crd.CrdSource;
import io.kubeloop.testing.junit.EmbeddedApiServerTest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * CRDs that real clusters run — cert-manager, Prometheus Operator, Argo CD, Istio, Strimzi, Crossplane,
 * Camel K, the logging operator, the Gateway API — are accepted and established by the embedded server,
 * their CEL validation rules (Istio's and the Gateway API's among them) within the estimated cost limits
 * kube-apiserver sets, as they are on those clusters.
 */
@EmbeddedApiServerTest(workloads = false)
class RealCrdsInstallTest {

    private static final Path REAL_CRDS = Path.of("../kubeloop-codegen/src/test/resources/real-crds");

    @Test
    void everyRealCrdIsAcceptedAndEstablished(KubeClient client) throws IOException {
        List<CrdSource> sources;
        try (Stream<Path> dirs = Files.list(REAL_CRDS)) {
            sources = dirs.filter(Files::isDirectory)
                    .sorted()
                    .map(d -> CrdSource.file(d.resolve("crd.yaml")))
                    .toList();
        }
        assertThat(sources).hasSize(11);
        assertThat(CrdInstaller.of(client).install(sources))
                .contains(
                        "certificates.cert-manager.io",
                        "virtualservices.networking.istio.io",
                        "httproutes.gateway.networking.k8s.io",
                        "kafkas.kafka.strimzi.io")
                .hasSize(11);
    }
}
