package io.kubeloop.api.crd;

import java.lang.annotation.Documented;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/** The {@code scale} subresource of a kind, inside {@link CustomResource#scale()}. */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({})
public @interface Scale {

    /** The JSONPath of the desired replicas, e.g. {@code .spec.replicas}. */
    String specReplicasPath();

    /** The JSONPath of the observed replicas, e.g. {@code .status.replicas}. */
    String statusReplicasPath();

    /** The JSONPath of the label selector as a string in status; {@code ""} for none. */
    String labelSelectorPath() default "";
}
