package io.kubeloop.api.crd;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The value the API server sets when the property is absent ({@code default}), as JSON:
 * {@code @Default("3")}, {@code @Default("\"Always\"")}, {@code @Default("{}")}.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.RECORD_COMPONENT, ElementType.FIELD, ElementType.TYPE_USE})
public @interface Default {

    /** The default value as JSON text. */
    String value();
}
