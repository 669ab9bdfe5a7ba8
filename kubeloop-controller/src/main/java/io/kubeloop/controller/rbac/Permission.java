package io.kubeloop.controller.rbac;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Repeatable;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * An RBAC rule a reconciler needs, declared on its class next to the code that uses it (kubebuilder's
 * {@code // +kubebuilder:rbac} marker): the writes it makes and the reads beyond the types its
 * controller watches (those get {@code get, list, watch} from the
 * {@link io.kubeloop.controller.ControllerBuilder} without a declaration).
 *
 * {@snippet :
 * @Permission(groups = "apps", resources = "deployments", verbs = {"create", "update"})
 * @Permission(groups = "samplecontroller.k8s.io", resources = "foos/status", verbs = "update")
 * final class FooReconciler implements Reconciler { ... }
 * }
 *
 * <p>Read when a controller is built over a manager ({@code ControllerBuilder.build(manager,
 * reconciler)}), from the reconciler's class (not its superclasses); each annotation becomes one
 * {@link PolicyRule}. A rule with {@link #urls()} is a non-resource rule and names no groups or
 * resources. The group {@code core} is read as the core group {@code ""}, as controller-gen reads it.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@Repeatable(Permission.List.class)
public @interface Permission {

    /** The API groups; default the core group {@code ""}. */
    String[] groups() default {""};

    /** The resources, {@code deployments} or a subresource's path {@code foos/status}. */
    String[] resources() default {};

    /** The object names the rule is limited to; default all objects. */
    String[] resourceNames() default {};

    /** The verbs, e.g. {@code {"create", "update", "delete"}}. */
    String[] verbs();

    /** Non-resource URLs, e.g. {@code /metrics}; when set, {@link #groups()} and {@link #resources()} stay unset. */
    String[] urls() default {};

    /** Holds the repeated {@link Permission}s of one class; written by the compiler. */
    @Documented
    @Retention(RetentionPolicy.RUNTIME)
    @Target(ElementType.TYPE)
    @interface List {
        /** The permissions. */
        Permission[] value();
    }
}
