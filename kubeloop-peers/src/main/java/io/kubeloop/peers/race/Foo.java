package io.kubeloop.peers.race;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * The sample-controller's Foo as a fabric8 {@code CustomResource}, the JOSDK's primary resource:
 * {@code samplecontroller.k8s.io/v1alpha1}, kind {@code Foo}, plural {@code foos}, namespaced.
 */
@Group("samplecontroller.k8s.io")
@Version("v1alpha1")
@Kind("Foo")
@Plural("foos")
public final class Foo extends CustomResource<Foo.Spec, Foo.Status> implements Namespaced {

    private static final long serialVersionUID = 1L;

    /**
     * What the user wants.
     *
     * @param deploymentName the Deployment's name
     * @param replicas its replicas
     */
    public record Spec(String deploymentName, Integer replicas) {}

    /**
     * What the operator observed.
     *
     * @param availableReplicas the Deployment's available replicas
     */
    public record Status(Integer availableReplicas) {}
}
