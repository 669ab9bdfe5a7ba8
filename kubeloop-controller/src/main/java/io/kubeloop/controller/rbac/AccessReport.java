package io.kubeloop.controller.rbac;

import io.kubeloop.controller.internal.rbac.RuleMerger;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a run used compared with what its manager declares: the requests no declared rule allows
 * ({@link #missing()}, as the rules one would add) and the declared rights no request used
 * ({@link #unused()}).
 *
 * {@snippet :
 * AccessReport report = AccessReport.of(manager.permissions(), recorder.accesses());
 * if (!report.missing().isEmpty()) {
 *     System.out.println(report); // lists each missing rule and the requests that needed it
 * }
 * }
 *
 * <p>Requests every authenticated user may make are never missing: discovery and version paths
 * ({@code /api}, {@code /apis}, {@code /version}, {@code /openapi}, health paths), granted by the
 * {@code system:discovery} and {@code system:public-info-viewer} ClusterRoles, and self reviews
 * ({@code selfsubjectaccessreviews}, {@code selfsubjectrulesreviews}, {@code selfsubjectreviews}),
 * granted by {@code system:basic-user}.
 *
 * <p>A declared rule is unused where no recorded request in a place it is granted (a namespace of
 * its own, the Lease's namespace, or anywhere for a cluster-wide rule) matches one of its (group,
 * resource, verb) parts; such parts are reported merged as rules. A run that did not exercise a path
 * of the controller (a deletion, a conflict) leaves its rights unused without their being superfluous:
 * read {@code unused} as "not shown to be needed".
 *
 * <p>Immutable and thread-safe.
 *
 * @param missing the rules to add so that every denied request would be allowed, merged and sorted
 *     (without resource names)
 * @param denied the recorded requests no declared rule allows, in the order given
 * @param unused the declared rights no recorded request used, merged and sorted
 */
public record AccessReport(List<PolicyRule> missing, List<ApiAccess> denied, List<PolicyRule> unused) {

    /** What {@code system:discovery}, {@code system:public-info-viewer} and {@code system:basic-user} grant every authenticated user. */
    private static final List<PolicyRule> EVERY_AUTHENTICATED_USER = List.of(
            PolicyRule.forNonResourceUrls(
                    List.of(
                            "/api",
                            "/api/*",
                            "/apis",
                            "/apis/*",
                            "/healthz",
                            "/livez",
                            "/openapi",
                            "/openapi/*",
                            "/readyz",
                            "/version",
                            "/version/"),
                    "get"),
            PolicyRule.forResources(
                    "authorization.k8s.io", List.of("selfsubjectaccessreviews", "selfsubjectrulesreviews"), "create"),
            PolicyRule.forResources("authentication.k8s.io", List.of("selfsubjectreviews"), "create"));

    public AccessReport {
        missing = List.copyOf(missing);
        denied = List.copyOf(denied);
        unused = List.copyOf(unused);
    }

    /**
     * Compares {@code used} with what {@code granted} allows.
     *
     * @param granted the declared permissions
     * @param used the recorded accesses, e.g. {@link AccessRecorder#accesses()}
     * @return the report
     */
    public static AccessReport of(ManagerPermissions granted, Collection<? extends ApiAccess> used) {
        List<ApiAccess> denied = new ArrayList<>();
        List<PolicyRule> toAdd = new ArrayList<>();
        for (ApiAccess access : used) {
            if (granted.allows(access) || EVERY_AUTHENTICATED_USER.stream().anyMatch(r -> r.allows(access))) {
                continue;
            }
            denied.add(access);
            toAdd.add(ruleFor(access));
        }
        List<PolicyRule> unused = new ArrayList<>();
        unused.addAll(unusedParts(granted.clusterRules(), used, null));
        for (Map.Entry<String, List<PolicyRule>> e : granted.namespaceRules().entrySet()) {
            unused.addAll(unusedParts(e.getValue(), used, e.getKey()));
        }
        granted.leaderElectionNamespace()
                .ifPresent(ns -> unused.addAll(unusedParts(granted.leaderElectionRules(), used, ns)));
        return new AccessReport(RuleMerger.merge(toAdd), denied, RuleMerger.merge(unused));
    }

    /** The rule that allows just {@code access}'s verb on its resource (or path). */
    private static PolicyRule ruleFor(ApiAccess access) {
        return switch (access) {
            case ApiAccess.Resource r ->
                PolicyRule.forResources(
                        r.group(),
                        List.of(r.subresource().isEmpty() ? r.resource() : r.resource() + "/" + r.subresource()),
                        r.verb());
            case ApiAccess.NonResource n -> PolicyRule.forNonResourceUrls(List.of(n.path()), n.verb());
        };
    }

    /**
     * The (group, resource or URL, verb) parts of {@code rules} that no access made in
     * {@code namespace} (anywhere when null) matches.
     */
    private static List<PolicyRule> unusedParts(
            List<PolicyRule> rules, Collection<? extends ApiAccess> used, String namespace) {
        List<PolicyRule> unused = new ArrayList<>();
        for (PolicyRule rule : rules) {
            for (PolicyRule part : parts(rule)) {
                boolean usedHere = used.stream()
                        .filter(a -> namespace == null
                                || a instanceof ApiAccess.Resource r
                                        && r.namespace().equals(namespace))
                        .anyMatch(part::allows);
                if (!usedHere) {
                    unused.add(part);
                }
            }
        }
        return unused;
    }

    /** {@code rule} split into rules of one group, one resource (or URL) and one verb each. */
    private static Set<PolicyRule> parts(PolicyRule rule) {
        Set<PolicyRule> parts = new LinkedHashSet<>();
        for (String verb : rule.verbs()) {
            if (!rule.nonResourceURLs().isEmpty()) {
                rule.nonResourceURLs().forEach(url -> parts.add(PolicyRule.forNonResourceUrls(List.of(url), verb)));
                continue;
            }
            for (String group : rule.apiGroups()) {
                for (String resource : rule.resources()) {
                    parts.add(new PolicyRule(
                            List.of(group), List.of(resource), rule.resourceNames(), List.of(verb), List.of()));
                }
            }
        }
        return parts;
    }

    /** Whether every recorded request was allowed. */
    public boolean nothingMissing() {
        return missing.isEmpty();
    }

    /**
     * The report as text: the missing rules with the requests that needed them, then the unused
     * rights, one per line; or a line saying that nothing is missing or unused.
     */
    @Override
    public String toString() {
        StringBuilder out = new StringBuilder();
        if (missing.isEmpty()) {
            out.append("missing: none; every recorded request is allowed\n");
        } else {
            out.append("missing (used but not granted), as rules to add:\n");
            missing.forEach(r -> out.append("  ").append(r).append('\n'));
            out.append("  for the requests:\n");
            denied.forEach(a -> out.append("    ").append(a).append('\n'));
        }
        if (unused.isEmpty()) {
            out.append("unused: none; every granted right was used\n");
        } else {
            out.append("granted but never used:\n");
            unused.forEach(r -> out.append("  ").append(r).append('\n'));
        }
        return out.toString();
    }
}
