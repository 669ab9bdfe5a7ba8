package io.kubeloop.api.crd;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * What a CustomResourceDefinition says about a {@link io.kubeloop.api.Kind @Kind} type beyond its
 * group, version, kind, plural and scope: names, the CRD's annotations, this version's role, and
 * subresources.
 *
 * {@snippet :
 * @Kind(group = "samplecontroller.k8s.io", version = "v1alpha1")
 * @CustomResource(shortNames = "fo", status = true)
 * record Foo(String apiVersion, String kind, ObjectMeta metadata, Spec spec, Status status)
 *         implements KubernetesObject {}
 * }
 *
 * <p>Several types of the same group and kind with different versions make one CRD with several
 * versions; exactly one of them is the {@link #storage()} version.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface CustomResource {

    /** The singular name; {@code ""} (the default) means the kind in lower case. */
    String singular() default "";

    /** Short names {@code kubectl} accepts, e.g. {@code {"cert", "certs"}}. */
    String[] shortNames() default {};

    /** Categories the kind belongs to, e.g. {@code {"all"}} so that {@code kubectl get all} lists it. */
    String[] categories() default {};

    /**
     * The CRD's {@code metadata.annotations}, each {@code "key=value"} (split at the first {@code =}),
     * as controller-gen's {@code +kubebuilder:metadata:annotations} marker writes them. A CRD in a group
     * of the Kubernetes project ({@code k8s.io}, {@code kubernetes.io} and their subdomains) needs
     * {@code api-approved.kubernetes.io}: the URL of its API review, or a reason starting with
     * {@code unapproved}, else the API server refuses it:
     *
     * {@snippet :
     * @CustomResource(annotations = "api-approved.kubernetes.io=unapproved, experimental-only")
     * }
     *
     * <p>The annotations belong to the CRD, not to a version: every version of a kind declares the same.
     */
    String[] annotations() default {};

    /** Whether the API serves this version. */
    boolean served() default true;

    /** Whether this is the version objects are stored in (exactly one per CRD). */
    boolean storage() default true;

    /** Whether this version is deprecated; clients are warned when they use it. */
    boolean deprecated() default false;

    /** The warning for a deprecated version; {@code ""} for the server's default. */
    String deprecationWarning() default "";

    /** Whether the {@code status} subresource is enabled (status is written only through it). */
    boolean status() default false;

    /** The {@code scale} subresource, or none (the default). At most one. */
    Scale[] scale() default {};
}
