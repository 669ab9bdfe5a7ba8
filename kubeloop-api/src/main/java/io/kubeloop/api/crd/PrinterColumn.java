package io.kubeloop.api.crd;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Repeatable;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A column {@code kubectl get} prints for the kind ({@code additionalPrinterColumns}):
 *
 * {@snippet :
 * @PrinterColumn(name = "Ready", type = "integer", jsonPath = ".status.availableReplicas")
 * }
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@Repeatable(PrinterColumns.class)
public @interface PrinterColumn {

    /** The column's header. */
    String name();

    /** {@code string}, {@code integer}, {@code number}, {@code boolean} or {@code date}. */
    String type();

    /** The JSONPath of the value in each object, e.g. {@code .spec.replicas}. */
    String jsonPath();

    /** What the column shows; {@code ""} for none. */
    String description() default "";

    /** The OpenAPI format of the value; {@code ""} for none. */
    String format() default "";

    /** 0 for the standard view; greater for {@code -o wide} only. */
    int priority() default 0;
}
