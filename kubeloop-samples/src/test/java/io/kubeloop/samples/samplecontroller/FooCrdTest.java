package io.kubeloop.samples.samplecontroller;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubeloop.api.yaml.KubeYaml;
import io.kubeloop.codegen.CrdGenerator;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** The Foo CRD on the class path is the one generated from the Foo record, with the Go sample's schema. */
class FooCrdTest {

    @Test
    void theCrdOnTheClassPathIsWhatTheGeneratorWritesFromTheRecord() {
        String fromRecord =
                CrdGenerator.yaml(CrdGenerator.crds(List.of(Foo.class)).getFirst());
        assertThat(FooCrd.yaml()).isEqualTo(fromRecord);
    }

    /**
     * {@code samplecontroller.k8s.io} is a group of the Kubernetes project: the CRD carries the
     * {@code api-approved.kubernetes.io} annotation of upstream's sample-controller, without which the API
     * server refuses it.
     */
    @Test
    void theCrdCarriesTheGoSamplesApiApprovalAnnotation() {
        JsonNode crd = KubeYaml.readAll(FooCrd.yaml()).getFirst().node();
        assertThat(crd.path("metadata")
                        .path("annotations")
                        .path("api-approved.kubernetes.io")
                        .asString())
                .isEqualTo("unapproved, experimental-only; please get an approval from Kubernetes API reviewers if"
                        + " you're trying to develop a CRD in the *.k8s.io or *.kubernetes.io groups");
    }

    @Test
    void theCrdIsTheGoSamplesFooWithStatusAndReplicasOneToTen() {
        JsonNode crd = KubeYaml.readAll(FooCrd.yaml()).getFirst().node();
        assertThat(crd.path("metadata").path("name").asString()).isEqualTo(FooCrd.NAME);
        JsonNode spec = crd.path("spec");
        assertThat(spec.path("scope").asString()).isEqualTo("Namespaced");
        assertThat(spec.path("names").path("kind").asString()).isEqualTo("Foo");
        assertThat(spec.path("names").path("plural").asString()).isEqualTo("foos");
        JsonNode version = spec.path("versions").get(0);
        assertThat(version.path("name").asString()).isEqualTo("v1alpha1");
        assertThat(version.path("subresources").has("status")).isTrue();
        JsonNode properties = version.path("schema").path("openAPIV3Schema").path("properties");
        JsonNode replicas = properties.path("spec").path("properties").path("replicas");
        assertThat(replicas.path("type").asString()).isEqualTo("integer");
        assertThat(replicas.path("minimum").asInt()).isEqualTo(1);
        assertThat(replicas.path("maximum").asInt()).isEqualTo(10);
        assertThat(properties
                        .path("spec")
                        .path("properties")
                        .path("deploymentName")
                        .path("type")
                        .asString())
                .isEqualTo("string");
        assertThat(properties
                        .path("status")
                        .path("properties")
                        .path("availableReplicas")
                        .path("type")
                        .asString())
                .isEqualTo("integer");
    }
}
