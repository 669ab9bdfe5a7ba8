package io.kubeloop.api;

/**
 * Where the objects of a resource live: the two values of a CustomResourceDefinition's
 * {@code spec.scope} field, {@code Namespaced} and {@code Cluster}, and what discovery reports as a
 * resource's {@code namespaced} flag.
 */
public enum ResourceScope {

    /** Objects live in a namespace ({@code Namespaced}): Pods, Deployments, ConfigMaps. */
    NAMESPACED,

    /** Objects belong to the cluster, outside every namespace ({@code Cluster}): Nodes, Namespaces, CRDs. */
    CLUSTER;

    /** True for {@link #NAMESPACED}. */
    public boolean isNamespaced() {
        return this == NAMESPACED;
    }
}
