package io.kubeloop.api;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.kubeloop.api.crd.Description;
import io.kubeloop.api.crd.Format;
import io.kubeloop.api.crd.MaxLength;
import io.kubeloop.api.crd.MinLength;
import io.kubeloop.api.crd.Minimum;
import io.kubeloop.api.crd.Pattern;
import io.kubeloop.api.crd.Required;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;

/**
 * One aspect of an object's current state, as apimachinery's {@code metav1.Condition}: the standard
 * element of {@code status.conditions}. Use it in a status record and set it with
 * {@link Conditions#setStatusCondition}:
 *
 * {@snippet :
 * record FooStatus(
 *         Long observedGeneration,
 *         @ListType("map") @ListMapKeys("type") List<Condition> conditions) {}
 * }
 *
 * <p>The CRD generator writes {@code metav1.Condition}'s schema for it: the five required fields,
 * {@code type}'s and {@code reason}'s patterns and lengths, the {@code status} enum, a
 * non-negative {@code observedGeneration} and a {@code date-time} {@code lastTransitionTime}. The
 * list annotations above make {@code conditions} a map keyed by {@code type}, as kubebuilder's
 * {@code +listType=map} and {@code +listMapKey=type} markers do, so server-side apply merges the
 * conditions of different writers.
 *
 * <p>Decoding is lenient (the server's schema validates what is stored): a missing {@code message}
 * or {@code reason} reads as empty. {@link #of} checks its arguments.
 *
 * <p>Immutable; thread-safe.
 *
 * @param type the condition's type, in CamelCase or {@code foo.example.com/CamelCase}, e.g.
 *     {@code Ready}
 * @param status {@link Status#TRUE}, {@link Status#FALSE} or {@link Status#UNKNOWN}
 * @param observedGeneration the {@code metadata.generation} the condition was set for; 0 when
 *     unset (not written)
 * @param lastTransitionTime when the status last changed, at seconds precision
 * @param reason a CamelCase identifier of the reason for the last transition; may not be empty on
 *     the server
 * @param message a human-readable message about the transition; may be empty
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonAutoDetect(isGetterVisibility = JsonAutoDetect.Visibility.NONE)
@Description("Condition contains details for one aspect of the current state of this API Resource.")
public record Condition(
        @Required
        @Pattern("^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?"
                + "(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$")
        @MaxLength(316)
        @Description("type of condition in CamelCase or in foo.example.com/CamelCase.")
        String type,

        @Required @Description("status of the condition, one of True, False, Unknown.")
        Status status,

        @JsonInclude(JsonInclude.Include.NON_DEFAULT)
        @Format("int64")
        @Minimum(0)
        @Description(
                "observedGeneration represents the .metadata.generation that the condition was set" + " based upon.")
        long observedGeneration,

        @Required
        @Description("lastTransitionTime is the last time the condition transitioned from one status to" + " another.")
        Instant lastTransitionTime,

        @Required
        @MaxLength(1024)
        @MinLength(1)
        @Pattern("^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$")
        @Description("reason contains a programmatic identifier indicating the reason for the condition's"
                + " last transition.")
        String reason,

        @Required
        @MaxLength(32768)
        @Description("message is a human readable message indicating details about the transition.")
        String message) {

    /** A condition's status: {@code metav1.ConditionStatus}. */
    public enum Status {
        /** The condition holds. */
        @JsonProperty("True")
        TRUE,
        /** The condition does not hold. */
        @JsonProperty("False")
        FALSE,
        /** It is not known whether the condition holds. */
        @JsonProperty("Unknown")
        UNKNOWN;

        /**
         * {@link #TRUE} for true, {@link #FALSE} for false.
         *
         * @param holds whether the condition holds
         * @return the status
         */
        public static Status of(boolean holds) {
            return holds ? TRUE : FALSE;
        }
    }

    /** Normalises {@code reason} and {@code message} to empty when absent; truncates the time to seconds. */
    public Condition {
        reason = reason == null ? "" : reason;
        message = message == null ? "" : message;
        lastTransitionTime = lastTransitionTime == null ? null : lastTransitionTime.truncatedTo(ChronoUnit.SECONDS);
    }

    /**
     * A condition without an observed generation or a transition time ({@link Conditions#setStatusCondition}
     * sets the time).
     *
     * @param type the condition's type, not empty
     * @param status its status
     * @param reason a CamelCase identifier, not empty
     * @param message a human-readable message, may be empty
     * @return the condition
     * @throws IllegalArgumentException if {@code type} or {@code reason} is empty
     */
    public static Condition of(String type, Status status, String reason, String message) {
        if (Objects.requireNonNull(type, "type").isEmpty()) {
            throw new IllegalArgumentException("a condition's type may not be empty");
        }
        Objects.requireNonNull(status, "status");
        if (Objects.requireNonNull(reason, "reason").isEmpty()) {
            throw new IllegalArgumentException(
                    "the condition " + type + " needs a reason: its reason may not be empty");
        }
        return new Condition(type, status, 0, null, reason, message);
    }

    /**
     * This condition set for {@code generation}.
     *
     * @param generation the object's {@code metadata.generation}, zero or more
     * @return a copy with the observed generation
     */
    public Condition withObservedGeneration(long generation) {
        if (generation < 0) {
            throw new IllegalArgumentException("observedGeneration may not be negative: " + generation);
        }
        return new Condition(type, status, generation, lastTransitionTime, reason, message);
    }

    /**
     * This condition with {@code time} as its last transition (truncated to seconds).
     *
     * @param time the time, or null for none
     * @return a copy with the time
     */
    public Condition withLastTransitionTime(Instant time) {
        return new Condition(type, status, observedGeneration, time, reason, message);
    }

    /** Whether the status is {@link Status#TRUE}. */
    public boolean isTrue() {
        return status == Status.TRUE;
    }

    /** Whether the status is {@link Status#FALSE}. */
    public boolean isFalse() {
        return status == Status.FALSE;
    }
}
