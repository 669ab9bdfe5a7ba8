package io.kubeloop.api.crd;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The largest value allowed ({@code maximum}, with {@code exclusiveMaximum} when {@link #exclusive}).
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.RECORD_COMPONENT, ElementType.FIELD, ElementType.TYPE_USE})
public @interface Maximum {

    /** The bound. */
    double value();

    /** True when the bound itself is not allowed. */
    boolean exclusive() default false;
}
