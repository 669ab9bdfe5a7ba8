package io.kubeloop.controller.rbac;

import io.kubeloop.controller.internal.rbac.RuleMerger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The RBAC rules a manager and its controllers need, and where: rules granted cluster-wide (for a
 * ClusterRole), rules granted in some namespaces only (for a Role in each), and the leader election
 * rules in the namespace of its Lease. {@code Manager.permissions()} assembles them from what its
 * controllers watch and declare; {@link RbacManifests} writes them as RBAC objects;
 * {@link AccessReport} compares them with what a run used.
 *
 * {@snippet :
 * ManagerPermissions permissions = ManagerPermissions.builder()
 *         .clusterWide(PolicyRule.forResources("apps", List.of("deployments"), "get", "list", "watch"))
 *         .inNamespace("shop", PolicyRule.forResources("", List.of("configmaps"), "get"))
 *         .leaderElection("shop-system", PolicyRule.forResources("coordination.k8s.io", List.of("leases"), "get", "create", "update"))
 *         .build();
 * }
 *
 * <p>Invariants: every list is merged and sorted as controller-gen merges rules (see
 * {@link #clusterRules()}), so equal grants make equal values whatever order they were declared in;
 * namespaces map to non-empty lists, in name order; non-resource rules are cluster-wide only;
 * leader election rules exist exactly when their namespace is present.
 *
 * <p>Immutable and thread-safe.
 *
 * @param clusterRules rules granted in every namespace and for cluster-scoped resources
 * @param namespaceRules per namespace, rules granted there only
 * @param leaderElectionNamespace the namespace of the leader election Lease, if the manager elects a leader
 * @param leaderElectionRules the rules leader election needs in that namespace
 */
public record ManagerPermissions(
        List<PolicyRule> clusterRules,
        SortedMap<String, List<PolicyRule>> namespaceRules,
        Optional<String> leaderElectionNamespace,
        List<PolicyRule> leaderElectionRules) {

    /**
     * Merges and sorts every list: each (group, resource, names) gets the union of its verbs; rules
     * differing only in resources, then only in groups, are joined; rules are ordered as controller-gen
     * orders them.
     */
    public ManagerPermissions {
        clusterRules = RuleMerger.merge(clusterRules);
        TreeMap<String, List<PolicyRule>> byNamespace = new TreeMap<>();
        namespaceRules.forEach((ns, rules) -> {
            if (ns.isEmpty()) {
                throw new IllegalArgumentException("a namespace must be named; use clusterRules for all namespaces");
            }
            List<PolicyRule> merged = RuleMerger.merge(rules);
            merged.forEach(r -> requireResourceRule(r, ns));
            if (!merged.isEmpty()) {
                byNamespace.put(ns, merged);
            }
        });
        namespaceRules = Collections.unmodifiableSortedMap(byNamespace);
        Objects.requireNonNull(leaderElectionNamespace, "leaderElectionNamespace");
        leaderElectionRules = RuleMerger.merge(leaderElectionRules);
        if (leaderElectionNamespace.isEmpty() != leaderElectionRules.isEmpty()) {
            throw new IllegalArgumentException(
                    "leader election rules need their namespace, and the namespace its rules");
        }
        leaderElectionRules.forEach(r -> requireResourceRule(r, leaderElectionNamespace.orElseThrow()));
    }

    private static void requireResourceRule(PolicyRule rule, String namespace) {
        if (!rule.nonResourceURLs().isEmpty()) {
            throw new IllegalArgumentException(
                    "non-resource URLs are granted cluster-wide only, not in namespace " + namespace + ": " + rule);
        }
    }

    /** A builder with nothing granted. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Whether these rules allow {@code access}: a cluster-wide rule does; for a request in a
     * namespace, so does a rule of that namespace, or a leader election rule when it is the Lease's
     * namespace. A request without a namespace (a cluster-scoped resource, all namespaces, a
     * non-resource URL) needs a cluster-wide rule.
     *
     * @param access one request's attributes
     * @return whether some rule allows it
     */
    public boolean allows(ApiAccess access) {
        return rulesFor(access).stream().anyMatch(r -> r.allows(access));
    }

    /** The rules that may allow {@code access}, by where it is made. */
    List<PolicyRule> rulesFor(ApiAccess access) {
        List<PolicyRule> rules = new ArrayList<>(clusterRules);
        if (access instanceof ApiAccess.Resource r && !r.namespace().isEmpty()) {
            rules.addAll(namespaceRules.getOrDefault(r.namespace(), List.of()));
            if (leaderElectionNamespace.filter(r.namespace()::equals).isPresent()) {
                rules.addAll(leaderElectionRules);
            }
        }
        return rules;
    }

    /** Builds {@link ManagerPermissions}; rules may come in any order and repeat. Not thread-safe. */
    public static final class Builder {
        private final List<PolicyRule> cluster = new ArrayList<>();
        private final Map<String, List<PolicyRule>> namespaced = new TreeMap<>();
        private String leaderElectionNamespace;
        private final List<PolicyRule> leaderElection = new ArrayList<>();

        private Builder() {}

        /**
         * Grants {@code rule} in every namespace and for cluster-scoped resources.
         *
         * @param rule the rule
         * @return this builder
         */
        public Builder clusterWide(PolicyRule rule) {
            cluster.add(Objects.requireNonNull(rule, "rule"));
            return this;
        }

        /**
         * Grants {@code rule} in {@code namespace} only.
         *
         * @param namespace a namespace name
         * @param rule a rule for resources
         * @return this builder
         */
        public Builder inNamespace(String namespace, PolicyRule rule) {
            namespaced
                    .computeIfAbsent(Objects.requireNonNull(namespace, "namespace"), n -> new ArrayList<>())
                    .add(Objects.requireNonNull(rule, "rule"));
            return this;
        }

        /**
         * Grants {@code rule} for leader election, in the namespace of the Lease.
         *
         * @param namespace the Lease's namespace; the same for every leader election rule
         * @param rule a rule for resources
         * @return this builder
         * @throws IllegalArgumentException if an earlier leader election rule named another namespace
         */
        public Builder leaderElection(String namespace, PolicyRule rule) {
            Objects.requireNonNull(namespace, "namespace");
            if (leaderElectionNamespace != null && !leaderElectionNamespace.equals(namespace)) {
                throw new IllegalArgumentException(
                        "leader election is in namespace " + leaderElectionNamespace + ", not " + namespace);
            }
            leaderElectionNamespace = namespace;
            leaderElection.add(Objects.requireNonNull(rule, "rule"));
            return this;
        }

        /** The permissions, merged. */
        public ManagerPermissions build() {
            return new ManagerPermissions(
                    cluster, new TreeMap<>(namespaced), Optional.ofNullable(leaderElectionNamespace), leaderElection);
        }
    }
}
