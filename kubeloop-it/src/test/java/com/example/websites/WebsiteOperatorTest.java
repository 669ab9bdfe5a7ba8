package com.example.websites;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.kubeloop.api.Conditions;
import io.kubeloop.api.errors.NotFoundException;
import io.kubeloop.client.KubeClient;
import io.kubeloop.client.PatchType;
import io.kubeloop.client.ResourceClient;
import io.kubeloop.controller.Manager;
import io.kubeloop.models.apps.v1.Deployment;
import io.kubeloop.models.core.v1.ConfigMap;
import io.kubeloop.testing.junit.EmbeddedApiServerTest;
import java.time.Duration;
import org.junit.jupiter.api.Test;

@EmbeddedApiServerTest(crdClasses = Website.class) // a real API server in this JVM, the Website CRD installed
class WebsiteOperatorTest {

    @Test
    void aWebsiteGetsItsPageAndDeploymentThenReadyAndIsUnpublishedWhenDeleted(KubeClient client) {
        ResourceClient<Website> websites = client.resource(Website.class).inNamespace("default");
        ResourceClient<ConfigMap> configMaps = client.resource(ConfigMap.class).inNamespace("default");
        ResourceClient<Deployment> deployments =
                client.resource(Deployment.class).inNamespace("default");
        try (Manager manager = Manager.create(client)) {
            WebsiteOperator.addTo(manager);
            manager.start(); // returns once the caches are in sync

            websites.create(Website.of("default", "hello", "<h1>Hello</h1>", 2));
            await().atMost(Duration.ofSeconds(20)) // the simulated cluster runs the Deployment's Pods
                    .ignoreException(NotFoundException.class)
                    .untilAsserted(() -> {
                        Website site = websites.get("hello");
                        assertThat(Conditions.isStatusConditionTrue(site.conditions(), "Ready"))
                                .as("Ready: %s", site.conditions())
                                .isTrue();
                        assertThat(site.metadata().finalizers()).containsExactly(WebsiteOperator.FINALIZER);
                    });
            assertThat(configMaps.get("hello-html").data()).containsEntry("index.html", "<h1>Hello</h1>");
            assertThat(deployments.get("hello").spec().replicas()).isEqualTo(2);

            websites.patch("hello", PatchType.MERGE, "{\"spec\":{\"html\":\"<h1>Hello again</h1>\"}}");
            await().atMost(Duration.ofSeconds(10))
                    .untilAsserted(() -> assertThat(configMaps.get("hello-html").data())
                            .containsEntry("index.html", "<h1>Hello again</h1>"));

            websites.delete("hello"); // the cleanup runs, the finalizer goes, then the Website
            await().atMost(Duration.ofSeconds(10))
                    .untilAsserted(() ->
                            assertThatThrownBy(() -> websites.get("hello")).isInstanceOf(NotFoundException.class));
        }
    }
}
