package io.kubeloop.controller.internal.rbac;

import io.kubeloop.controller.rbac.PolicyRule;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Merges RBAC rules into the fewest equivalent ones, in a fixed order, as controller-gen's
 * {@code NormalizeRules} does for the rules of {@code +kubebuilder:rbac} markers: every
 * (group, resource, resource names) is granted the union of the verbs of all rules that name it
 * ({@code *} alone when one of them is {@code *}); resources with the same group, names and verbs
 * share a rule; then groups with the same resources, names and verbs do; non-resource URLs with the
 * same verbs share a rule. Groups, resources, names, URLs and verbs are sorted within each rule, and
 * rules are sorted by controller-gen's key: {@code groups + resources + resourceNames + URLs}, each
 * list joined with {@code &}.
 *
 * <p>The merged rules allow exactly what the given ones allow together. Stateless.
 */
public final class RuleMerger {

    private RuleMerger() {}

    /** A group, a resource, and the object names a rule limits them to. */
    private record Atom(String group, String resource, List<String> names) {}

    /** The part of a rule that its resources are merged across. */
    private record ByResource(String group, List<String> names, SortedSet<String> verbs) {}

    /** The part of a rule that its groups are merged across. */
    private record ByGroup(SortedSet<String> resources, List<String> names, SortedSet<String> verbs) {}

    /**
     * The merged rules.
     *
     * @param rules any rules
     * @return the fewest rules allowing the same, sorted; empty for none
     */
    public static List<PolicyRule> merge(Collection<PolicyRule> rules) {
        Map<Atom, SortedSet<String>> verbsByAtom = new LinkedHashMap<>();
        Map<String, SortedSet<String>> verbsByUrl = new TreeMap<>();
        for (PolicyRule rule : rules) {
            if (!rule.nonResourceURLs().isEmpty()) {
                for (String url : rule.nonResourceURLs()) {
                    verbsByUrl.computeIfAbsent(url, u -> new TreeSet<>()).addAll(rule.verbs());
                }
                continue;
            }
            List<String> names = List.copyOf(new TreeSet<>(rule.resourceNames()));
            for (String group : rule.apiGroups()) {
                for (String resource : rule.resources()) {
                    verbsByAtom
                            .computeIfAbsent(new Atom(group, resource, names), a -> new TreeSet<>())
                            .addAll(rule.verbs());
                }
            }
        }
        Map<ByResource, SortedSet<String>> resourcesBy = new LinkedHashMap<>();
        verbsByAtom.forEach((atom, verbs) -> resourcesBy
                .computeIfAbsent(new ByResource(atom.group(), atom.names(), star(verbs)), k -> new TreeSet<>())
                .add(atom.resource()));
        Map<ByGroup, SortedSet<String>> groupsBy = new LinkedHashMap<>();
        resourcesBy.forEach((key, resources) -> groupsBy.computeIfAbsent(
                        new ByGroup(resources, key.names(), key.verbs()), k -> new TreeSet<>())
                .add(key.group()));
        List<PolicyRule> merged = new ArrayList<>();
        groupsBy.forEach((key, groups) -> merged.add(new PolicyRule(
                List.copyOf(groups), List.copyOf(key.resources()), key.names(), List.copyOf(key.verbs()), List.of())));
        Map<SortedSet<String>, SortedSet<String>> urlsByVerbs = new LinkedHashMap<>();
        verbsByUrl.forEach((url, verbs) ->
                urlsByVerbs.computeIfAbsent(star(verbs), k -> new TreeSet<>()).add(url));
        urlsByVerbs.forEach((verbs, urls) ->
                merged.add(new PolicyRule(List.of(), List.of(), List.of(), List.copyOf(verbs), List.copyOf(urls))));
        merged.sort(Comparator.comparing(RuleMerger::key));
        return List.copyOf(merged);
    }

    /** {@code *} alone when the verbs hold it, else the verbs. */
    private static SortedSet<String> star(SortedSet<String> verbs) {
        return verbs.contains("*") ? new TreeSet<>(List.of("*")) : verbs;
    }

    /** controller-gen's rule key, by which it sorts rules. */
    static String key(PolicyRule rule) {
        return String.join("&", rule.apiGroups()) + " + " + String.join("&", rule.resources()) + " + "
                + String.join("&", rule.resourceNames()) + " + " + String.join("&", rule.nonResourceURLs());
    }
}
