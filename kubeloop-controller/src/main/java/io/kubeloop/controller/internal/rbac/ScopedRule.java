package io.kubeloop.controller.internal.rbac;

import io.kubeloop.controller.rbac.PolicyRule;
import java.util.Objects;
import java.util.Set;

/**
 * A rule and where it is granted: in every namespace and for cluster-scoped resources (no
 * namespaces), or in the named namespaces only.
 *
 * @param rule the rule
 * @param namespaces the namespaces; empty for cluster-wide
 */
public record ScopedRule(PolicyRule rule, Set<String> namespaces) {

    public ScopedRule {
        Objects.requireNonNull(rule, "rule");
        namespaces = Set.copyOf(namespaces);
        if (!namespaces.isEmpty() && !rule.nonResourceURLs().isEmpty()) {
            throw new IllegalArgumentException("non-resource URLs are granted cluster-wide only: " + rule);
        }
    }
}
