package io.kubeloop.apiserver.internal.crd;

import io.kubeloop.apiserver.internal.registry.ResourceDefinition;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The naming controller's decision (apiextensions {@code naming_controller.go}): which of a CRD's
 * requested names it may have, given the names other resources of its group already use. A conflicting
 * name keeps its previously accepted value; the first conflict found names the condition reason
 * ({@code PluralConflict}, {@code SingularConflict}, {@code ShortNamesConflict}, {@code KindConflict},
 * {@code ListKindConflict}).
 *
 * <p>Stateless and thread-safe.
 */
final class CrdNaming {

    /**
     * The outcome.
     *
     * @param names the names to accept
     * @param accepted no conflict: NamesAccepted True ({@code NoConflicts})
     * @param reason the condition reason
     * @param message the condition message
     */
    record Result(CrdSpec.Names names, boolean accepted, String reason, String message) {}

    private CrdNaming() {}

    /**
     * @param requested spec.names
     * @param previous status.acceptedNames so far
     * @param others accepted names of the other CRDs of the same group
     * @param builtins built-in resources of the same group
     */
    static Result calculate(
            CrdSpec.Names requested,
            CrdSpec.Names previous,
            List<CrdSpec.Names> others,
            List<ResourceDefinition> builtins) {
        Set<String> resources = new HashSet<>();
        Set<String> kinds = new HashSet<>();
        for (CrdSpec.Names n : others) {
            addNonEmpty(resources, n.plural(), n.singular());
            resources.addAll(n.shortNames());
            addNonEmpty(kinds, n.kind(), n.listKind());
        }
        for (ResourceDefinition d : builtins) {
            addNonEmpty(resources, d.plural(), d.singular());
            resources.addAll(d.shortNames());
            addNonEmpty(kinds, d.kind(), d.listKind());
        }
        List<String[]> conflicts = new ArrayList<>();
        String plural = requested.plural();
        if (resources.contains(plural)) {
            conflicts.add(new String[] {"PluralConflict", "\"" + plural + "\" is already in use"});
            plural = previous.plural();
        }
        String singular = requested.singular();
        if (resources.contains(singular)) {
            conflicts.add(new String[] {"SingularConflict", "\"" + singular + "\" is already in use"});
            singular = previous.singular();
        }
        List<String> shortNames = requested.shortNames();
        for (String s : requested.shortNames()) {
            if (!previous.shortNames().contains(s) && resources.contains(s)) {
                conflicts.add(new String[] {"ShortNamesConflict", "\"" + s + "\" is already in use"});
                shortNames = previous.shortNames();
                break;
            }
        }
        String kind = requested.kind();
        if (kinds.contains(kind)) {
            conflicts.add(new String[] {"KindConflict", "\"" + kind + "\" is already in use"});
            kind = previous.kind();
        }
        String listKind = requested.listKind();
        if (kinds.contains(listKind)) {
            conflicts.add(new String[] {"ListKindConflict", "\"" + listKind + "\" is already in use"});
            listKind = previous.listKind();
        }
        CrdSpec.Names names = new CrdSpec.Names(plural, singular, kind, listKind, shortNames, requested.categories());
        if (conflicts.isEmpty()) {
            return new Result(names, true, "NoConflicts", "no conflicts found");
        }
        return new Result(names, false, conflicts.getFirst()[0], conflicts.getFirst()[1]);
    }

    private static void addNonEmpty(Set<String> set, String... values) {
        for (String v : values) {
            if (v != null && !v.isEmpty()) {
                set.add(v);
            }
        }
    }
}
