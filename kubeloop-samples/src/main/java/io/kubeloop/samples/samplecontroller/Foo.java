package io.kubeloop.samples.samplecontroller;

import io.kubeloop.api.Kind;
import io.kubeloop.api.KubernetesObject;
import io.kubeloop.api.ObjectMeta;
import io.kubeloop.api.crd.CustomResource;
import io.kubeloop.api.crd.Maximum;
import io.kubeloop.api.crd.Minimum;

/**
 * The sample-controller's custom resource as a plain record, as the Go sample's {@code types.go}:
 * {@code @Kind} tells the client its group, version and (guessed) plural {@code foos}; with
 * {@code @CustomResource} and the validation annotations it is also the source of the Foo CRD, which
 * the build generates ({@code kubeloop-maven-plugin:generate-crds}) and {@link FooCrd} installs.
 * {@code samplecontroller.k8s.io} is a group of the Kubernetes project, so the CRD carries the
 * {@code api-approved.kubernetes.io} annotation the API server requires there ({@link #API_APPROVAL}).
 */
@Kind(group = "samplecontroller.k8s.io", version = "v1alpha1")
@CustomResource(status = true, annotations = Foo.API_APPROVAL)
public record Foo(String apiVersion, String kind, ObjectMeta metadata, Spec spec, Status status)
        implements KubernetesObject {

    public static final String API_VERSION = "samplecontroller.k8s.io/v1alpha1";

    /**
     * The Foo CRD's {@code api-approved.kubernetes.io} annotation, as {@code key=value}: the value
     * upstream's sample-controller gives it, an {@code unapproved} reason (every version of Foo declares it).
     */
    public static final String API_APPROVAL = "api-approved.kubernetes.io=unapproved, experimental-only; please get"
            + " an approval from Kubernetes API reviewers if you're trying to develop a CRD in the *.k8s.io or"
            + " *.kubernetes.io groups";

    /** A new Foo asking for a Deployment of {@code replicas} replicas. */
    public static Foo of(String namespace, String name, String deploymentName, int replicas) {
        return new Foo(API_VERSION, "Foo", ObjectMeta.of(namespace, name), new Spec(deploymentName, replicas), null);
    }

    /**
     * This Foo with {@code status} (same metadata, so an update carries its resourceVersion).
     *
     * @param status the new status
     * @return a new record
     */
    public Foo withStatus(Status status) {
        return new Foo(apiVersion, kind, metadata, spec, status);
    }

    /**
     * What the user wants.
     *
     * @param deploymentName the name of the Deployment this Foo owns
     * @param replicas how many replicas it runs, 1 to 10
     */
    public record Spec(
            String deploymentName, @Minimum(1) @Maximum(10) Integer replicas) {}

    /** What the controller observed. */
    public record Status(Integer availableReplicas) {}
}
