package io.kubeloop.samples.samplecontroller;

import io.kubeloop.api.Kind;
import io.kubeloop.api.KubernetesObject;
import io.kubeloop.api.ObjectMeta;
import io.kubeloop.api.crd.CustomResource;

/**
 * Foo's next version, {@code samplecontroller.k8s.io/v1}, the hub of its conversions: the Deployment
 * is named by {@code spec.deployment} (v1alpha1's {@code spec.deploymentName}). {@link FooWebhooks}
 * converts between the two. Served beside v1alpha1, which stays the storage version.
 */
@Kind(group = "samplecontroller.k8s.io", version = "v1", kind = "Foo", plural = "foos")
@CustomResource(status = true, storage = false, annotations = Foo.API_APPROVAL)
public record FooV1(String apiVersion, String kind, ObjectMeta metadata, Spec spec, Foo.Status status)
        implements KubernetesObject {

    public static final String API_VERSION = "samplecontroller.k8s.io/v1";

    /**
     * What the user wants.
     *
     * @param deployment the name of the Deployment this Foo owns
     * @param replicas how many replicas it runs
     */
    public record Spec(String deployment, Integer replicas) {}

    /** This Foo in v1alpha1. */
    public Foo toV1alpha1() {
        Foo.Spec s = spec == null ? null : new Foo.Spec(spec.deployment(), spec.replicas());
        return new Foo(Foo.API_VERSION, "Foo", metadata, s, status);
    }

    /** {@code foo} in v1. */
    public static FooV1 fromV1alpha1(Foo foo) {
        Spec s = foo.spec() == null
                ? null
                : new Spec(foo.spec().deploymentName(), foo.spec().replicas());
        return new FooV1(API_VERSION, "Foo", foo.metadata(), s, foo.status());
    }
}
