package io.kubeloop.it.codegen;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.GroupVersionResource;
import io.kubeloop.api.ResourceScope;
import io.kubeloop.api.errors.NotFoundException;
import io.kubeloop.api.yaml.KubeYaml;
import io.kubeloop.cache.InformerFactory;
import io.kubeloop.cache.InformerOptions;
import io.kubeloop.cache.InformerScope;
import io.kubeloop.cache.Lister;
import io.kubeloop.cache.SharedIndexInformer;
import io.kubeloop.client.KubeClient;
import io.kubeloop.client.ResourceClient;
import io.kubeloop.client.Wait;
import io.kubeloop.it.generated.certmanager.v1.Certificate;
import io.kubeloop.testing.junit.EmbeddedApiServerTest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Records that the Maven goal {@code generate-models} wrote from cert-manager's Certificate CRD
 * during this module's build work with the client and informers with no other code: the
 * {@code @Kind} on the record is all the mapping they need.
 */
@EmbeddedApiServerTest
class GeneratedModelsIntegrationTest {

    @Test
    void aGeneratedRecordIsCreatedReadAndCachedThroughTheClientAndAnInformer(KubeClient client) throws Exception {
        DynamicObject crd = KubeYaml.readAll(Files.readString(
                        Path.of("../kubeloop-codegen/src/test/resources/real-crds/cert-manager-certificate/crd.yaml")))
                .getFirst();
        ResourceClient<DynamicObject> crds = client.resource(
                new GroupVersionResource("apiextensions.k8s.io", "v1", "customresourcedefinitions"),
                ResourceScope.CLUSTER,
                DynamicObject.class);
        crds.create(crd);
        Wait.until("Certificates to be served", Duration.ofMillis(50), Duration.ofSeconds(30), () -> {
            try {
                client.resource(Certificate.class).inNamespace("default").list();
                return true;
            } catch (NotFoundException notYet) {
                return false;
            }
        });

        ResourceClient<Certificate> certificates =
                client.resource(Certificate.class).inNamespace("default");
        Certificate wanted = Certificate.of("default", "web")
                .withSpec(Certificate.Spec.empty()
                        .withSecretName("web-tls")
                        .withDnsNames(List.of("example.com", "www.example.com"))
                        .withIssuerRef(Certificate.Spec.IssuerRef.empty()
                                .withName("letsencrypt")
                                .withKind("ClusterIssuer")));
        certificates.create(wanted);

        Certificate read = certificates.get("web");
        assertThat(read.spec()).isEqualTo(wanted.spec());
        assertThat(read.metadata().uid()).isNotBlank();

        try (InformerFactory informers = InformerFactory.create(client, InformerOptions.defaults())) {
            SharedIndexInformer<Certificate> informer = informers.informerFor(Certificate.class, InformerScope.all());
            Lister<Certificate> lister = informers.listerFor(Certificate.class, InformerScope.all());
            informers.start();
            assertThat(informer.waitForCacheSync(Duration.ofSeconds(30))).isTrue();
            Certificate cached = lister.namespace("default").get("web");
            assertThat(cached.spec().secretName()).isEqualTo("web-tls");
            assertThat(cached.spec().issuerRef().kind()).isEqualTo("ClusterIssuer");
        }
    }
}
