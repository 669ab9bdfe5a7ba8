package io.kubeloop.apiserver.internal.registry;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * DeleteOptions from the body or the query.
 *
 * <p>Immutable.
 *
 * @param propagationPolicy {@code Orphan}, {@code Background}, {@code Foreground}, or null
 * @param orphanDependents the deprecated flag, or null
 * @param preconditionUid {@code preconditions.uid}, or null
 * @param preconditionResourceVersion {@code preconditions.resourceVersion}, or null
 * @param gracePeriodSeconds the grace period, or null (the object's default: a Pod's
 *        {@code spec.terminationGracePeriodSeconds}; every other resource is deleted at once)
 */
public record DeleteParams(
        String propagationPolicy,
        Boolean orphanDependents,
        String preconditionUid,
        String preconditionResourceVersion,
        Long gracePeriodSeconds) {

    /** The finalizer that makes the garbage collector orphan an object's dependents before it goes. */
    public static final String ORPHAN_FINALIZER = "orphan";

    /** The finalizer that makes the garbage collector delete an object's dependents before it goes. */
    public static final String FOREGROUND_FINALIZER = "foregroundDeletion";

    /** No options. */
    public static DeleteParams none() {
        return new DeleteParams(null, null, null, null, null);
    }

    /** A delete with {@code propagationPolicy} (or null) and a uid precondition (or null), as controllers send. */
    public static DeleteParams propagation(String propagationPolicy, String preconditionUid) {
        return new DeleteParams(propagationPolicy, null, preconditionUid, null, null);
    }

    /**
     * Checks the options.
     *
     * @throws io.kubeloop.api.errors.InvalidException 422 for an unknown policy or both options set
     */
    void validate() {
        if (propagationPolicy != null && orphanDependents != null) {
            throw ApiErrors.invalidOptions(
                    "DeleteOptions",
                    ApiErrors.FieldError.invalid(
                            "propagationPolicy",
                            propagationPolicy,
                            "orphanDependents and deletionPropagation cannot be both set"));
        }
        if (propagationPolicy != null
                && !List.of("Foreground", "Background", "Orphan").contains(propagationPolicy)) {
            throw ApiErrors.invalidOptions(
                    "DeleteOptions",
                    ApiErrors.FieldError.notSupported(
                            "propagationPolicy",
                            propagationPolicy,
                            List.of("Foreground", "Background", "Orphan", "nil")));
        }
    }

    /**
     * The finalizers an object has after this DELETE, as the real store decides them
     * ({@code deletionFinalizersForGarbageCollection}): an explicit option wins, then an {@code orphan} or
     * {@code foregroundDeletion} finalizer already present, then the resource's default policy. Other
     * finalizers are kept in order; the result equals {@code existing} when nothing changes.
     *
     * @param orphanByDefault the resource's default garbage collection policy orphans dependents
     *        (batch/v1 Jobs)
     */
    List<String> finalizersAfter(List<String> existing, boolean orphanByDefault) {
        validate();
        boolean orphan = shouldOrphan(existing, orphanByDefault);
        boolean foreground = shouldDeleteInForeground(existing);
        List<String> next = new ArrayList<>();
        for (String f : existing) {
            if (!f.equals(ORPHAN_FINALIZER) && !f.equals(FOREGROUND_FINALIZER)) {
                next.add(f);
            }
        }
        if (orphan) {
            next.add(ORPHAN_FINALIZER);
        }
        if (foreground) {
            next.add(FOREGROUND_FINALIZER);
        }
        return new LinkedHashSet<>(next).equals(new LinkedHashSet<>(existing)) ? existing : next;
    }

    private boolean shouldOrphan(List<String> existing, boolean orphanByDefault) {
        if (orphanDependents != null) {
            return orphanDependents;
        }
        if (propagationPolicy != null) {
            return propagationPolicy.equals("Orphan");
        }
        for (String f : existing) {
            if (f.equals(ORPHAN_FINALIZER)) {
                return true;
            }
            if (f.equals(FOREGROUND_FINALIZER)) {
                return false;
            }
        }
        return orphanByDefault;
    }

    private boolean shouldDeleteInForeground(List<String> existing) {
        if (orphanDependents != null) {
            return false;
        }
        if (propagationPolicy != null) {
            return propagationPolicy.equals("Foreground");
        }
        return existing.contains(FOREGROUND_FINALIZER);
    }
}
