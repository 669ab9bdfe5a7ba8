package io.kubeloop.client;

import java.util.Objects;

/**
 * An object's {@code scale} subresource ({@code autoscaling/v1} {@code Scale}): how many replicas
 * it asks for and has. What {@code kubectl scale} and a HorizontalPodAutoscaler read and write, for
 * Deployments, ReplicaSets, StatefulSets and custom resources with a scale subresource.
 *
 * <p>Immutable.
 *
 * @param namespace the object's namespace, {@code ""} when cluster-scoped
 * @param name the object's name
 * @param resourceVersion the object's resourceVersion when read
 * @param replicas the desired replicas ({@code spec.replicas})
 * @param statusReplicas the observed replicas ({@code status.replicas})
 * @param selector the label selector of the replicas, in its text form ({@code status.selector}), or
 *     {@code ""} when the object reports none
 */
public record Scale(
        String namespace, String name, String resourceVersion, int replicas, int statusReplicas, String selector) {

    public Scale {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(resourceVersion, "resourceVersion");
        Objects.requireNonNull(selector, "selector");
    }
}
