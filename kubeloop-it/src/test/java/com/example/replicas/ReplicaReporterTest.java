package com.example.replicas;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.kubeloop.api.errors.NotFoundException;
import io.kubeloop.client.KubeClient;
import io.kubeloop.client.PatchType;
import io.kubeloop.client.ResourceClient;
import io.kubeloop.controller.Manager;
import io.kubeloop.testing.junit.EmbeddedApiServerTest;
import java.time.Duration;
import org.junit.jupiter.api.Test;

@EmbeddedApiServerTest // a real API server over HTTPS, in this JVM; KubeClient parameters talk to it
class ReplicaReporterTest {

    @Test
    void everyDeploymentGetsAConfigMapWithItsReplicasThatFollowsAScale(KubeClient client) {
        ResourceClient<Deployment> deployments =
                client.resource(Deployment.class).inNamespace("default");
        ResourceClient<ConfigMap> configMaps = client.resource(ConfigMap.class).inNamespace("default");
        try (Manager manager = ReplicaReporter.start(client)) {
            deployments.create(new DeploymentBuilder()
                    .withNewMetadata()
                    .withName("web")
                    .endMetadata()
                    .withNewSpec()
                    .withReplicas(2)
                    .withNewSelector()
                    .addToMatchLabels("app", "web")
                    .endSelector()
                    .withNewTemplate()
                    .withNewMetadata()
                    .addToLabels("app", "web")
                    .endMetadata()
                    .withNewSpec()
                    .addNewContainer()
                    .withName("web")
                    .withImage("nginx")
                    .endContainer()
                    .endSpec()
                    .endTemplate()
                    .endSpec()
                    .build());
            await().atMost(Duration.ofSeconds(10))
                    .ignoreException(NotFoundException.class) // until the controller has created it
                    .untilAsserted(() ->
                            assertThat(configMaps.get("web-replicas").getData()).containsEntry("replicas", "2"));

            deployments.patch("web", PatchType.MERGE, "{\"spec\":{\"replicas\":3}}");
            await().atMost(Duration.ofSeconds(10))
                    .untilAsserted(() ->
                            assertThat(configMaps.get("web-replicas").getData()).containsEntry("replicas", "3"));
        }
    }
}
