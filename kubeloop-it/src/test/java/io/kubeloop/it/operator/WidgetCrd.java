package io.kubeloop.it.operator;

import static org.awaitility.Awaitility.await;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.GroupVersionResource;
import io.kubeloop.api.ResourceScope;
import io.kubeloop.client.KubeClient;
import io.kubeloop.client.ListOptions;
import io.kubeloop.codegen.CrdGenerator;
import java.time.Duration;
import java.util.List;
import tools.jackson.databind.node.ObjectNode;

/** The Widget CRD, generated from {@link Widget}, and its installation for tests. */
public final class WidgetCrd {

    /** The CRD's name. */
    public static final String NAME = "widgets.widgets.example.com";

    private static final GroupVersionResource CRDS =
            new GroupVersionResource("apiextensions.k8s.io", "v1", "customresourcedefinitions");

    private WidgetCrd() {}

    /** The CRD as the generator writes it from {@link Widget}. */
    public static ObjectNode crd() {
        return CrdGenerator.crds(List.of(Widget.class)).getFirst();
    }

    /** Creates the CRD and waits until the server serves Widgets. */
    public static void install(KubeClient client) {
        client.resource(CRDS, ResourceScope.CLUSTER, DynamicObject.class).create(DynamicObject.wrap(crd()));
        await().atMost(Duration.ofSeconds(30))
                .ignoreExceptions()
                .until(() -> client.resource(Widget.class).list(ListOptions.none()) != null);
    }
}
