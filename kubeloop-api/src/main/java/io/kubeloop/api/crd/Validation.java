package io.kubeloop.api.crd;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Repeatable;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A CEL validation rule ({@code x-kubernetes-validations}) on a type or a property: the API server
 * rejects a create or update for which {@link #rule()} is false, with {@link #message()}.
 *
 * {@snippet :
 * @Validation(rule = "self.minReplicas <= self.maxReplicas", message = "min must not exceed max")
 * record Range(Integer minReplicas, Integer maxReplicas) {}
 * }
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.RECORD_COMPONENT, ElementType.FIELD, ElementType.TYPE_USE, ElementType.TYPE})
@Repeatable(Validations.class)
public @interface Validation {

    /** The CEL expression; {@code self} is the value, {@code oldSelf} the previous one in transition rules. */
    String rule();

    /** The message when the rule fails; {@code ""} for the server's default. */
    String message() default "";

    /** A CEL expression producing the message; {@code ""} for none. */
    String messageExpression() default "";

    /** The failure's reason ({@code FieldValueInvalid}, {@code FieldValueForbidden}…); {@code ""} for the default. */
    String reason() default "";

    /** The path of the field the failure names, relative to {@code self}; {@code ""} for {@code self}. */
    String fieldPath() default "";

    /** True when a transition rule also runs on create, with {@code oldSelf} an absent optional. */
    boolean optionalOldSelf() default false;
}
