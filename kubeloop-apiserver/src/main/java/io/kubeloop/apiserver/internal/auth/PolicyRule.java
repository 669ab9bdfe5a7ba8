package io.kubeloop.apiserver.internal.auth;

import io.kubeloop.api.json.KubeJson;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * One RBAC rule ({@code rbac.authorization.k8s.io/v1} PolicyRule) and kube-apiserver's matching: {@code *}
 * matches every verb, group, resource or path; {@code *}{@code /SUB} matches subresource SUB of every resource;
 * a rule with resourceNames matches only requests naming one of them; a non-resource URL ending in
 * {@code *} matches paths with that prefix.
 *
 * <p>Immutable and thread-safe.
 */
public record PolicyRule(
        List<String> verbs,
        List<String> apiGroups,
        List<String> resources,
        List<String> resourceNames,
        List<String> nonResourceURLs) {

    public PolicyRule {
        verbs = List.copyOf(verbs);
        apiGroups = List.copyOf(apiGroups);
        resources = List.copyOf(resources);
        resourceNames = List.copyOf(resourceNames);
        nonResourceURLs = List.copyOf(nonResourceURLs);
    }

    /** A resource rule. */
    public static PolicyRule resources(List<String> verbs, List<String> apiGroups, List<String> resources) {
        return new PolicyRule(verbs, apiGroups, resources, List.of(), List.of());
    }

    /** A non-resource rule. */
    public static PolicyRule urls(List<String> verbs, List<String> urls) {
        return new PolicyRule(verbs, List.of(), List.of(), List.of(), urls);
    }

    /** Reads a rule from its JSON form; absent lists are empty. */
    public static PolicyRule of(JsonNode rule) {
        return new PolicyRule(
                strings(rule.path("verbs")),
                strings(rule.path("apiGroups")),
                strings(rule.path("resources")),
                strings(rule.path("resourceNames")),
                strings(rule.path("nonResourceURLs")));
    }

    /** The rules of a Role or ClusterRole object. */
    public static List<PolicyRule> ofRole(JsonNode role) {
        List<PolicyRule> out = new ArrayList<>();
        role.path("rules").forEach(r -> out.add(of(r)));
        return out;
    }

    static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(v -> out.add(v.asString("")));
        return out;
    }

    /** This rule's JSON form (empty lists left out). */
    public ObjectNode toJson() {
        ObjectNode n = KubeJson.mapper().createObjectNode();
        put(n, "verbs", verbs);
        put(n, "apiGroups", apiGroups);
        put(n, "resources", resources);
        put(n, "resourceNames", resourceNames);
        put(n, "nonResourceURLs", nonResourceURLs);
        return n;
    }

    private static void put(ObjectNode n, String field, List<String> values) {
        if (!values.isEmpty() || field.equals("verbs")) {
            ArrayNode a = n.putArray(field);
            values.forEach(a::add);
        }
    }

    /** True when this rule allows the request. */
    public boolean allows(RequestAttributes a) {
        if (!matchesVerb(a.verb())) {
            return false;
        }
        if (!a.resourceRequest()) {
            return matchesUrl(a.path());
        }
        return matchesGroup(a.apiGroup()) && matchesResource(a.resource(), a.subresource()) && matchesName(a.name());
    }

    boolean matchesVerb(String verb) {
        return verbs.contains("*") || verbs.contains(verb);
    }

    boolean matchesGroup(String group) {
        return apiGroups.contains("*") || apiGroups.contains(group);
    }

    boolean matchesResource(String resource, String subresource) {
        String combined = subresource.isEmpty() ? resource : resource + "/" + subresource;
        for (String r : resources) {
            if (r.equals("*") || r.equals(combined)) {
                return true;
            }
            if (!subresource.isEmpty() && r.startsWith("*/") && r.substring(2).equals(subresource)) {
                return true;
            }
        }
        return false;
    }

    boolean matchesName(String name) {
        return resourceNames.isEmpty() || resourceNames.contains(name);
    }

    boolean matchesUrl(String path) {
        for (String u : nonResourceURLs) {
            if (u.equals("*") || u.equals(path)) {
                return true;
            }
            if (u.endsWith("*") && path.startsWith(u.substring(0, u.length() - 1))) {
                return true;
            }
        }
        return false;
    }

    /**
     * True when holding {@code held} grants everything this rule grants (escalation check): every verb,
     * group, resource and name (or non-resource URL) it names is allowed by some rule there.
     */
    public boolean coveredBy(List<PolicyRule> held) {
        for (String verb : verbs) {
            if (!nonResourceURLs.isEmpty()) {
                for (String url : nonResourceURLs) {
                    if (held.stream().noneMatch(h -> h.coversUrl(verb, url))) {
                        return false;
                    }
                }
            }
            for (String group : apiGroups) {
                for (String resource : resources) {
                    if (resourceNames.isEmpty()) {
                        if (held.stream().noneMatch(h -> h.covers(verb, group, resource, null))) {
                            return false;
                        }
                    } else {
                        for (String name : resourceNames) {
                            if (held.stream().noneMatch(h -> h.covers(verb, group, resource, name))) {
                                return false;
                            }
                        }
                    }
                }
            }
        }
        return true;
    }

    private boolean covers(String verb, String group, String resource, String name) {
        if (!(verbs.contains("*") || verbs.contains(verb)) || !(apiGroups.contains("*") || apiGroups.contains(group))) {
            return false;
        }
        boolean resourceCovered = resources.contains("*") || resources.contains(resource);
        if (!resourceCovered) {
            int slash = resource.indexOf('/');
            resourceCovered = slash > 0 && resources.contains("*" + resource.substring(slash));
        }
        if (!resourceCovered) {
            return false;
        }
        return resourceNames.isEmpty() || name != null && resourceNames.contains(name);
    }

    private boolean coversUrl(String verb, String url) {
        if (!(verbs.contains("*") || verbs.contains(verb))) {
            return false;
        }
        for (String u : nonResourceURLs) {
            if (u.equals("*") || u.equals(url)) {
                return true;
            }
            if (u.endsWith("*") && url.startsWith(u.substring(0, u.length() - 1))) {
                return true;
            }
        }
        return false;
    }

    /** A compact text form, as kube-apiserver prints rules in escalation errors. */
    @Override
    public String toString() {
        StringBuilder b = new StringBuilder("{");
        List<String> parts = new ArrayList<>();
        if (!apiGroups.isEmpty()) {
            parts.add("APIGroups:" + quoted(apiGroups));
        }
        if (!resources.isEmpty()) {
            parts.add("Resources:" + quoted(resources));
        }
        if (!resourceNames.isEmpty()) {
            parts.add("ResourceNames:" + quoted(resourceNames));
        }
        if (!nonResourceURLs.isEmpty()) {
            parts.add("NonResourceURLs:" + quoted(nonResourceURLs));
        }
        parts.add("Verbs:" + quoted(verbs));
        b.append(String.join(", ", parts));
        return b.append('}').toString();
    }

    private static String quoted(List<String> values) {
        return values.stream()
                .map(v -> "\"" + v + "\"")
                .reduce((x, y) -> x + " " + y)
                .map(s -> "[" + s + "]")
                .orElse("[]");
    }
}
