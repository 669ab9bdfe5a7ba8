package io.kubeloop.bench.race;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1ObjectMeta;

/**
 * The sample-controller's Foo as a small kubernetes-client/java model (gson binds the record), for
 * the {@code GenericKubernetesApi} and informer of the race's "k8s-java" contender.
 *
 * @param apiVersion {@code samplecontroller.k8s.io/v1alpha1}
 * @param kind {@code Foo}
 * @param metadata the object's metadata
 * @param spec what the user wants
 * @param status what the operator observed, or null
 */
record JavaClientFoo(String apiVersion, String kind, V1ObjectMeta metadata, Spec spec, Status status)
        implements KubernetesObject {

    static final String GROUP = "samplecontroller.k8s.io";
    static final String VERSION = "v1alpha1";
    static final String PLURAL = "foos";

    @Override
    public V1ObjectMeta getMetadata() {
        return metadata;
    }

    @Override
    public String getApiVersion() {
        return apiVersion;
    }

    @Override
    public String getKind() {
        return kind;
    }

    /** This Foo with {@code newStatus} (same metadata, so a status update carries its resourceVersion). */
    JavaClientFoo withStatus(Status newStatus) {
        return new JavaClientFoo(apiVersion, kind, metadata, spec, newStatus);
    }

    /**
     * What the user wants.
     *
     * @param deploymentName the Deployment's name
     * @param replicas its replicas
     */
    record Spec(String deploymentName, Integer replicas) {}

    /**
     * What the operator observed.
     *
     * @param availableReplicas the Deployment's available replicas
     */
    record Status(Integer availableReplicas) {}
}
