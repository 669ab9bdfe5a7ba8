package io.kubeloop.apiserver.internal.admission;

import io.kubeloop.api.json.KubeJson;
import io.kubeloop.api.selector.LabelSelector;
import io.kubeloop.api.selector.LabelSelectorSpec;
import io.kubeloop.apiserver.internal.storage.Metadata;
import io.kubeloop.apiserver.internal.storage.VersionedStore;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import tools.jackson.databind.JsonNode;

/**
 * Whether a request is in a policy's {@code matchConstraints}, a binding's {@code matchResources} or a
 * webhook's rules and selectors:
 * one of the {@code resourceRules} matches (operations, API groups, versions, resources with
 * subresources such as {@code pods/status}, {@code pods/}{@code *} or {@code *}{@code /scale}, resource names, scope) and none of the
 * {@code excludeResourceRules}; the {@code namespaceSelector} matches the labels of the request's
 * namespace (of the object itself for a Namespace; cluster-scoped objects are not filtered by it); the
 * {@code objectSelector} matches the labels of the object or of the old object. With
 * {@code matchPolicy: Equivalent} (the default) the version of a rule does not have to match, since
 * every version of a resource is the same object. Stateless.
 */
final class MatchResources {

    private MatchResources() {}

    /**
     * @param match a {@code matchConstraints} or {@code matchResources} object, or a webhook
     * @param rulesField where the rules are: {@code resourceRules} (policies) or {@code rules} (webhooks)
     * @param namespaces the labels of a namespace by name (empty when it does not exist)
     */
    static boolean matches(
            JsonNode match,
            String rulesField,
            AdmissionRequest r,
            Function<String, Optional<Map<String, String>>> namespaces) {
        boolean exact = match.path("matchPolicy").asString("Equivalent").equals("Exact");
        JsonNode rules = match.path(rulesField);
        boolean included = false;
        for (JsonNode rule : rules) {
            included |= rule(rule, r, exact);
        }
        if (!included) {
            return false;
        }
        for (JsonNode rule : match.path("excludeResourceRules")) {
            if (rule(rule, r, exact)) {
                return false;
            }
        }
        return namespaceMatches(match.get("namespaceSelector"), r, namespaces)
                && objectMatches(match.get("objectSelector"), r);
    }

    private static boolean rule(JsonNode rule, AdmissionRequest r, boolean exact) {
        return anyOf(rule.path("operations"), r.operation())
                && anyOf(rule.path("apiGroups"), r.resource().group())
                && (!exact || anyOf(rule.path("apiVersions"), r.resource().version()))
                && resources(rule.path("resources"), r)
                && names(rule.path("resourceNames"), r.name())
                && scope(rule.path("scope").asString("*"), r.resource().namespaced());
    }

    /**
     * The version a request is sent to a webhook in: the request's own when a matching rule names it (or
     * {@code *}); otherwise, under {@code matchPolicy: Equivalent}, the first version named by a rule that
     * matches the resource in another version.
     */
    static String versionFor(JsonNode hook, AdmissionRequest r) {
        String own = r.resource().version();
        String other = null;
        for (JsonNode rule : hook.path("rules")) {
            if (!rule(rule, r, false)) {
                continue;
            }
            if (anyOf(rule.path("apiVersions"), own)) {
                return own;
            }
            if (other == null && !rule.path("apiVersions").isEmpty()) {
                other = rule.path("apiVersions").get(0).asString();
            }
        }
        return other == null ? own : other;
    }

    private static boolean anyOf(JsonNode values, String value) {
        for (JsonNode v : values) {
            if (v.asString().equals("*") || v.asString().equals(value)) {
                return true;
            }
        }
        return false;
    }

    private static boolean resources(JsonNode entries, AdmissionRequest r) {
        String plural = r.resource().plural();
        String sub = r.subresource();
        for (JsonNode e : entries) {
            String entry = e.asString();
            int slash = entry.indexOf('/');
            String res = slash < 0 ? entry : entry.substring(0, slash);
            String entrySub = slash < 0 ? "" : entry.substring(slash + 1);
            boolean resourceOk = res.equals("*") || res.equals(plural);
            boolean subOk = slash < 0 ? sub.isEmpty() : entrySub.equals("*") || entrySub.equals(sub);
            if (resourceOk && subOk) {
                return true;
            }
        }
        return false;
    }

    private static boolean names(JsonNode names, String name) {
        if (names.isEmpty()) {
            return true;
        }
        for (JsonNode n : names) {
            if (n.asString().equals(name)) {
                return true;
            }
        }
        return false;
    }

    private static boolean scope(String scope, boolean namespaced) {
        return switch (scope) {
            case "Cluster" -> !namespaced;
            case "Namespaced" -> namespaced;
            default -> true;
        };
    }

    private static boolean namespaceMatches(
            JsonNode selector, AdmissionRequest r, Function<String, Optional<Map<String, String>>> namespaces) {
        LabelSelector s = selector(selector);
        if (s.isEverything()) {
            return true;
        }
        boolean isNamespace =
                r.resource().group().isEmpty() && r.resource().plural().equals("namespaces");
        if (isNamespace) {
            return s.matches(labels(r.object() != null ? r.object() : r.oldObject()));
        }
        if (!r.resource().namespaced() || r.namespace() == null) {
            return true;
        }
        return s.matches(namespaces.apply(r.namespace()).orElse(Map.of()));
    }

    private static boolean objectMatches(JsonNode selector, AdmissionRequest r) {
        LabelSelector s = selector(selector);
        if (s.isEverything()) {
            return true;
        }
        return (r.object() != null && s.matches(labels(r.object())))
                || (r.oldObject() != null && s.matches(labels(r.oldObject())));
    }

    /** The labels of a stored namespace by name. */
    static Function<String, Optional<Map<String, String>>> namespaceLabels(VersionedStore store) {
        return namespace ->
                store.get("/namespaces", Metadata.key(null, namespace)).map(o -> labels(o.object()));
    }

    static LabelSelector selector(JsonNode selector) {
        if (selector == null || selector.isNull() || !selector.isObject()) {
            return LabelSelector.everything();
        }
        return KubeJson.mapper().treeToValue(selector, LabelSelectorSpec.class).toSelector();
    }

    static Map<String, String> labels(JsonNode object) {
        Map<String, String> out = new HashMap<>();
        if (object != null) {
            object.path("metadata")
                    .path("labels")
                    .properties()
                    .forEach(e -> out.put(e.getKey(), e.getValue().asString()));
        }
        return out;
    }
}
