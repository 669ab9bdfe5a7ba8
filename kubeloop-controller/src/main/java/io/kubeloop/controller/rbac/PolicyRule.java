package io.kubeloop.controller.rbac;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * One rule of an RBAC Role or ClusterRole, shaped as {@code rbac.authorization.k8s.io/v1}
 * PolicyRule: the verbs it allows on either resources (of API groups, optionally only the objects of
 * some names) or non-resource URLs.
 *
 * {@snippet :
 * PolicyRule writeDeployments = PolicyRule.forResources("apps", List.of("deployments"), "create", "update");
 * PolicyRule fooStatus = PolicyRule.forResources("samplecontroller.k8s.io", List.of("foos/status"), "update");
 * PolicyRule oneConfigMap = PolicyRule.forResources("", List.of("configmaps"), "get").withResourceNames("settings");
 * PolicyRule metrics = PolicyRule.forNonResourceUrls(List.of("/metrics"), "get");
 * }
 *
 * <p>A subresource is written as its resource's path, {@code foos/status}; {@code *} in verbs,
 * groups or resources stands for all, {@code *}{@code /status} for that subresource of every resource,
 * and a non-resource URL ending in {@code *} for every path it prefixes — as the API server matches them
 * ({@link #allows}). The core group is {@code ""}.
 *
 * <p>Invariants, checked by the constructor: at least one verb; either resources (with at least one API
 * group) or non-resource URLs, never both, and resource names only with resources. Lists are
 * unmodifiable copies kept in the given order; {@code null} lists are empty.
 *
 * <p>Immutable and thread-safe.
 *
 * @param apiGroups the API groups of the resources ({@code ""} for the core group)
 * @param resources resource names as in URLs, {@code deployments} or {@code foos/status}
 * @param resourceNames object names the rule is limited to; empty for all objects
 * @param verbs the verbs allowed: {@code get, list, watch, create, update, patch, delete,
 *     deletecollection}, others for special resources, or {@code *}
 * @param nonResourceURLs paths such as {@code /metrics} or {@code /healthz/*}, for ClusterRoles only
 */
public record PolicyRule(
        List<String> apiGroups,
        List<String> resources,
        List<String> resourceNames,
        List<String> verbs,
        List<String> nonResourceURLs) {

    public PolicyRule {
        apiGroups = copy(apiGroups, "apiGroups");
        resources = copy(resources, "resources");
        resourceNames = copy(resourceNames, "resourceNames");
        verbs = copy(verbs, "verbs");
        nonResourceURLs = copy(nonResourceURLs, "nonResourceURLs");
        if (verbs.isEmpty()) {
            throw new IllegalArgumentException("a rule needs at least one verb");
        }
        if (!nonResourceURLs.isEmpty()) {
            if (!apiGroups.isEmpty() || !resources.isEmpty() || !resourceNames.isEmpty()) {
                throw new IllegalArgumentException(
                        "a rule is for resources or for non-resource URLs, not both: " + nonResourceURLs);
            }
        } else if (resources.isEmpty() || apiGroups.isEmpty()) {
            throw new IllegalArgumentException("a rule needs resources and their API groups, or non-resource URLs");
        }
    }

    /**
     * A rule allowing {@code verbs} on {@code resources} of one API group.
     *
     * @param apiGroup the group, {@code ""} for the core group
     * @param resources resources, {@code deployments} or {@code foos/status}
     * @param verbs the verbs
     * @return the rule
     */
    public static PolicyRule forResources(String apiGroup, List<String> resources, String... verbs) {
        return new PolicyRule(List.of(apiGroup), resources, List.of(), Arrays.asList(verbs), List.of());
    }

    /**
     * A rule allowing {@code verbs} on non-resource URLs (ClusterRoles only).
     *
     * @param urls paths, each exact or ending in {@code *}
     * @param verbs the verbs: HTTP methods in lower case, e.g. {@code get}
     * @return the rule
     */
    public static PolicyRule forNonResourceUrls(List<String> urls, String... verbs) {
        return new PolicyRule(List.of(), List.of(), List.of(), Arrays.asList(verbs), urls);
    }

    /**
     * This rule limited to the objects of these names.
     *
     * @param names object names
     * @return a changed copy
     * @throws IllegalArgumentException for a rule of non-resource URLs
     */
    public PolicyRule withResourceNames(String... names) {
        return new PolicyRule(apiGroups, resources, Arrays.asList(names), verbs, nonResourceURLs);
    }

    /**
     * Whether this rule allows {@code access}, as the API server's RBAC authorizer decides: the verb
     * (or {@code *}); for a resource request the group (or {@code *}), the resource or
     * {@code resource/subresource} (or {@code *}, or {@code *}{@code /subresource}), and the object's
     * name when the rule names objects (a request without a name, such as a list or a create, is then
     * not allowed); for a non-resource request the path, exactly or by a prefix ending in {@code *}.
     *
     * @param access one request's attributes
     * @return true if this rule alone allows it
     */
    public boolean allows(ApiAccess access) {
        if (!matches(verbs, access.verb())) {
            return false;
        }
        return switch (access) {
            case ApiAccess.Resource r ->
                nonResourceURLs.isEmpty()
                        && matches(apiGroups, r.group())
                        && resourceMatches(r)
                        && (resourceNames.isEmpty() || resourceNames.contains(r.name()));
            case ApiAccess.NonResource n -> nonResourceMatches(n.path());
        };
    }

    private boolean resourceMatches(ApiAccess.Resource r) {
        String combined = r.subresource().isEmpty() ? r.resource() : r.resource() + "/" + r.subresource();
        for (String resource : resources) {
            if (resource.equals("*") || resource.equals(combined)) {
                return true;
            }
            if (!r.subresource().isEmpty() && resource.equals("*/" + r.subresource())) {
                return true;
            }
        }
        return false;
    }

    private boolean nonResourceMatches(String path) {
        for (String url : nonResourceURLs) {
            if (url.equals("*") || url.equals(path)) {
                return true;
            }
            if (url.endsWith("*") && path.startsWith(url.substring(0, url.length() - 1))) {
                return true;
            }
        }
        return false;
    }

    private static boolean matches(List<String> allowed, String value) {
        return allowed.contains("*") || allowed.contains(value);
    }

    private static List<String> copy(List<String> list, String name) {
        if (list == null) {
            return List.of();
        }
        for (String s : list) {
            Objects.requireNonNull(s, () -> name + " must not hold null");
        }
        return List.copyOf(list);
    }

    /** The rule as one line, its non-empty parts in RBAC's field names, e.g. {@code apiGroups=[apps] resources=[deployments] verbs=[create]}. */
    @Override
    public String toString() {
        List<String> parts = new ArrayList<>();
        if (!nonResourceURLs.isEmpty()) {
            parts.add("nonResourceURLs=" + nonResourceURLs);
        } else {
            parts.add("apiGroups=" + quoted(apiGroups));
            parts.add("resources=" + resources);
            if (!resourceNames.isEmpty()) {
                parts.add("resourceNames=" + resourceNames);
            }
        }
        parts.add("verbs=" + verbs);
        return String.join(" ", parts);
    }

    /** The groups with the core group shown as {@code ""}. */
    private static String quoted(List<String> groups) {
        return groups.stream().map(g -> g.isEmpty() ? "\"\"" : g).toList().toString();
    }
}
