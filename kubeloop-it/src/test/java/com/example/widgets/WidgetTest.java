package com.example.widgets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kubeloop.api.errors.InvalidException;
import io.kubeloop.client.KubeClient;
import io.kubeloop.client.ResourceClient;
import io.kubeloop.testing.crd.CrdInstaller;
import io.kubeloop.testing.crd.CrdNotEstablishedException;
import io.kubeloop.testing.crd.CrdSource;
import io.kubeloop.testing.junit.EmbeddedApiServerTest;
import java.time.Duration;
import org.junit.jupiter.api.Test;

@EmbeddedApiServerTest(crdClasses = Widget.class) // the Widget CRD is installed and established first
class WidgetTest {

    @Test
    void widgetsAreServedAndValidated(KubeClient client) {
        ResourceClient<Widget> widgets = client.resource(Widget.class).inNamespace("default");
        widgets.create(Widget.of("small", 3));
        assertThat(widgets.get("small").spec().size()).isEqualTo(3);
        assertThatThrownBy(() -> widgets.create(Widget.of("huge", 11))) // @Maximum(10)
                .isInstanceOf(InvalidException.class)
                .hasMessageContaining("spec.size in body should be less than or equal to 10");
    }

    @Test
    void aCrdWhoseNamesClashIsNotEstablished(KubeClient client) {
        String gadgets = """
                apiVersion: apiextensions.k8s.io/v1
                kind: CustomResourceDefinition
                metadata: {name: gadgets.widgets.example.com}
                spec:
                  group: widgets.example.com
                  scope: Namespaced
                  names: {kind: Gadget, plural: gadgets, shortNames: [wd]}   # Widget's short name
                  versions:
                    - name: v1
                      served: true
                      storage: true
                      schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}
                """;
        assertThatThrownBy(() -> CrdInstaller.of(client)
                        .withTimeout(Duration.ofSeconds(2))
                        .install(CrdSource.text(gadgets)))
                .isInstanceOfSatisfying(CrdNotEstablishedException.class, e -> {
                    assertThat(e.crd()).isEqualTo("gadgets.widgets.example.com");
                    assertThat(e.reasons()).containsExactly("ShortNamesConflict", "NotAccepted");
                });
    }
}
