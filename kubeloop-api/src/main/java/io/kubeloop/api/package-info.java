/**
 * The resource model: group/version/kind/resource records, {@link io.kubeloop.api.ObjectKey}, {@link io.kubeloop.api.ObjectMeta}, the {@link io.kubeloop.api.KubernetesObject} contract and {@link io.kubeloop.api.DynamicObject}.
 */
package io.kubeloop.api;
