package io.kubeloop.api.crd;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * How server-side apply merges the list ({@code x-kubernetes-list-type}): {@code atomic}, {@code set}
 * or {@code map} (then with {@link ListMapKeys}).
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.RECORD_COMPONENT, ElementType.FIELD, ElementType.TYPE_USE})
public @interface ListType {

    /** {@code atomic}, {@code set} or {@code map}. */
    String value();
}
