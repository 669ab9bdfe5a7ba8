package io.kubeloop.controller.internal.rbac;

import io.kubeloop.api.GroupVersionKind;
import io.kubeloop.api.ResourceMapping;
import io.kubeloop.api.Scheme;
import io.kubeloop.controller.rbac.Permission;
import io.kubeloop.controller.rbac.PolicyRule;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Reads a controller's declared rules and decides where each is granted.
 *
 * <p>Stateless.
 */
public final class Declarations {

    private Declarations() {}

    /**
     * The rules declared by {@link Permission} annotations on {@code type} itself (not its
     * superclasses), one per annotation, with the group {@code core} read as {@code ""}.
     *
     * @param type a reconciler's class
     * @return the rules, in declaration order
     * @throws IllegalArgumentException if an annotation makes no valid rule, naming the class
     */
    public static List<PolicyRule> fromAnnotations(Class<?> type) {
        List<PolicyRule> rules = new ArrayList<>();
        for (Permission p : type.getDeclaredAnnotationsByType(Permission.class)) {
            try {
                rules.add(
                        p.urls().length > 0
                                ? new PolicyRule(List.of(), List.of(), List.of(), List.of(p.verbs()), List.of(p.urls()))
                                : new PolicyRule(
                                        Arrays.stream(p.groups())
                                                .map(g -> g.equals("core") ? "" : g)
                                                .toList(),
                                        List.of(p.resources()),
                                        List.of(p.resourceNames()),
                                        List.of(p.verbs()),
                                        List.of()));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(
                        "@Permission on " + type.getName() + " is no valid rule: " + e.getMessage(), e);
            }
        }
        return rules;
    }

    /**
     * Where each part of {@code rule} is granted: non-resource URLs and resources the scheme knows as
     * cluster-scoped cluster-wide; every other resource in {@code namespaces} (cluster-wide when
     * empty). Resources the scheme does not know are taken as namespaced.
     *
     * @param rule a declared rule
     * @param scheme maps group and resource to a scope
     * @param namespaces the namespaces a manager's cache is scoped to; empty for all
     * @return one scoped rule per group and resource, or the rule itself when cluster-wide
     */
    public static List<ScopedRule> scope(PolicyRule rule, Scheme scheme, Set<String> namespaces) {
        if (!rule.nonResourceURLs().isEmpty() || namespaces.isEmpty()) {
            return List.of(new ScopedRule(rule, Set.of()));
        }
        List<ScopedRule> scoped = new ArrayList<>();
        for (String group : rule.apiGroups()) {
            for (String resource : rule.resources()) {
                PolicyRule one = new PolicyRule(
                        List.of(group), List.of(resource), rule.resourceNames(), rule.verbs(), List.of());
                boolean cluster = mapping(scheme, group, resource.split("/", 2)[0])
                        .map(m -> !m.namespaced())
                        .orElse(false);
                scoped.add(new ScopedRule(one, cluster ? Set.of() : namespaces));
            }
        }
        return scoped;
    }

    private static Optional<ResourceMapping> mapping(Scheme scheme, String group, String resource) {
        for (GroupVersionKind gvk : scheme.kinds()) {
            if (gvk.group().equals(group)) {
                Optional<ResourceMapping> m = scheme.mappingOf(gvk);
                if (m.isPresent() && m.get().resource().equals(resource)) {
                    return m;
                }
            }
        }
        return Optional.empty();
    }
}
