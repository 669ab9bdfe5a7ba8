package io.kubeloop.api.crd;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Further schema keywords for this type or property, as a JSON object merged into the generated
 * schema: what the other annotations do not name, e.g.
 * {@code @SchemaExtra("{\"oneOf\":[{\"required\":[\"a\"]},{\"required\":[\"b\"]}]}")}.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.RECORD_COMPONENT, ElementType.FIELD, ElementType.TYPE_USE, ElementType.TYPE})
public @interface SchemaExtra {

    /** A JSON object. */
    String value();
}
