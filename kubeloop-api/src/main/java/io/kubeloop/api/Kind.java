package io.kubeloop.api;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Declares the group, version and kind of a user type, and how the API addresses it, so kubeloop
 * can map it without registration or discovery:
 *
 * {@snippet :
 * @Kind(group = "samplecontroller.k8s.io", version = "v1alpha1", kind = "Foo", plural = "foos")
 * record Foo(String apiVersion, String kind, ObjectMeta metadata, FooSpec spec, FooStatus status)
 *         implements KubernetesObject {}
 * }
 *
 * {@link Scheme#gvkOf} and {@link Scheme#mappingOf(Class)} read it, also for types not
 * registered in the scheme.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface Kind {

    /** The API group; {@code ""} (the default) is the core group. */
    String group() default "";

    /** The version, e.g. {@code v1alpha1}. */
    String version();

    /** The kind; {@code ""} (the default) means the class's simple name. */
    String kind() default "";

    /**
     * The resource (lower-case plural) in URLs; {@code ""} (the default) means guessed from the
     * kind as apimachinery's {@code UnsafeGuessKindToResource} does ({@code Foo} → {@code foos},
     * {@code Policy} → {@code policies}, {@code Class} → {@code classes}). Set it when the guess is wrong.
     */
    String plural() default "";

    /** True (the default) when objects live in namespaces. */
    boolean namespaced() default true;
}
