package io.kubeloop.peers.race;

import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.CRUDKubernetesDependentResource;
import java.util.Map;

/**
 * The Foo's Deployment as a JOSDK dependent resource, the way the JOSDK's documentation and samples
 * manage a secondary resource: the framework creates it when missing and updates it when it no
 * longer matches {@link #desired} (server-side apply and its managed-fields matcher, the JOSDK's
 * defaults), watches Deployments through the dependent's informer, and maps a Deployment back to its
 * Foo by owner reference.
 *
 * <p>{@link #desired} adds the Foo as the Deployment's <em>controller</em> (controller and
 * blockOwnerDeletion true), as Go's sample-controller does; the JOSDK alone would add a plain owner
 * reference.
 *
 * <p><b>Thread safety.</b> Stateless apart from the framework's own fields; called from the JOSDK's
 * reconciler threads.
 */
public final class FooDeploymentDependent extends CRUDKubernetesDependentResource<Deployment, Foo> {

    /** Creates the dependent for Deployments. */
    public FooDeploymentDependent() {
        super(Deployment.class);
    }

    @Override
    protected Deployment desired(Foo foo, Context<Foo> context) {
        Map<String, String> labels =
                Map.of("app", "nginx", "controller", foo.getMetadata().getName());
        Integer replicas = foo.getSpec().replicas();
        Deployment deployment = new DeploymentBuilder()
                .withNewMetadata()
                .withName(foo.getSpec().deploymentName())
                .withNamespace(foo.getMetadata().getNamespace())
                .endMetadata()
                .withNewSpec()
                .withReplicas(replicas == null ? 1 : replicas)
                .withNewSelector()
                .addToMatchLabels(labels)
                .endSelector()
                .withNewTemplate()
                .withNewMetadata()
                .addToLabels(labels)
                .endMetadata()
                .withNewSpec()
                .addNewContainer()
                .withName("nginx")
                .withImage("nginx:latest")
                .endContainer()
                .endSpec()
                .endTemplate()
                .endSpec()
                .build();
        deployment.addOwnerReference(foo, true, true);
        return deployment;
    }
}
