package io.kubeloop.api.crd;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The OpenAPI {@code format} of the value (e.g. {@code int64}, {@code byte}, {@code date-time},
 * {@code uri}). {@link Integer} is {@code int32} without it; other types have no format unless given.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.RECORD_COMPONENT, ElementType.FIELD, ElementType.TYPE_USE})
public @interface Format {

    /** The format. */
    String value();
}
