package io.kubeloop.apiserver.registry;

import java.util.List;

/**
 * DeleteOptions from the body or the query (reference §8).
 *
 * <p>Immutable.
 *
 * @param propagationPolicy {@code Orphan}, {@code Background}, {@code Foreground}, or null
 * @param orphanDependents the deprecated flag, or null
 * @param preconditionUid {@code preconditions.uid}, or null
 * @param preconditionResourceVersion {@code preconditions.resourceVersion}, or null
 * @param gracePeriodSeconds the grace period, or null (accepted; objects go at once)
 */
public record DeleteParams(String propagationPolicy, Boolean orphanDependents, String preconditionUid,
                           String preconditionResourceVersion, Long gracePeriodSeconds) {

    /** No options. */
    public static DeleteParams none() {
        return new DeleteParams(null, null, null, null, null);
    }

    /**
     * The finalizer the policy adds ({@code orphan}, {@code foregroundDeletion}) or null.
     *
     * @throws io.kubeloop.api.errors.InvalidException 422 for an unknown policy or both options set
     */
    String policyFinalizer() {
        if (propagationPolicy != null && orphanDependents != null) {
            throw ApiErrors.invalidOptions("DeleteOptions", ApiErrors.FieldError.invalid("propagationPolicy",
                    propagationPolicy, "orphanDependents and deletionPropagation cannot be both set"));
        }
        if (propagationPolicy != null) {
            return switch (propagationPolicy) {
                case "Orphan" -> "orphan";
                case "Foreground" -> "foregroundDeletion";
                case "Background" -> null;
                default -> throw ApiErrors.invalidOptions("DeleteOptions", ApiErrors.FieldError.notSupported(
                        "propagationPolicy", propagationPolicy, List.of("Foreground", "Background", "Orphan", "nil")));
            };
        }
        return Boolean.TRUE.equals(orphanDependents) ? "orphan" : null;
    }
}
