package io.kubeloop.apiserver.internal.admission;

import io.kubeloop.api.json.KubeJson;
import io.kubeloop.api.selector.LabelSelector;
import io.kubeloop.api.selector.LabelSelectorSpec;
import io.kubeloop.apiserver.internal.registry.ResourceDefinition;
import io.kubeloop.apiserver.internal.registry.ResourceRegistry;
import io.kubeloop.apiserver.internal.storage.Metadata;
import io.kubeloop.apiserver.internal.storage.VersionedStore;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;
import tools.jackson.databind.JsonNode;

/**
 * Whether a request is in a policy's {@code matchConstraints}, a binding's {@code matchResources} or a
 * webhook's rules and selectors, as kube-apiserver decides it:
 *
 * <ul>
 *   <li>{@code namespaceSelector}: a cluster-scoped object (not a Namespace) always matches; a Namespace
 *       matches by its own labels (the new object's on create and update, the stored one's on delete and
 *       on its subresources); any other object by the labels of its namespace. An empty selector matches
 *       everything.
 *   <li>{@code objectSelector}: the labels of the object or of the old object (either; a delete has only
 *       the old one). An empty selector matches everything.
 *   <li>Rules: the operation, API group, version, resource with its subresource ({@code pods},
 *       {@code pods/status}, {@code pods/*}, {@code *}{@code /scale}, {@code *}, {@code *}{@code /*}) and
 *       scope ({@code Namespaced}: an object in a namespace; {@code Cluster}: a Namespace or an object in
 *       none; {@code *}). A policy's or binding's rule may name {@code resourceNames} (an empty list is
 *       any name; a generated name matches none). Under {@code matchPolicy: Equivalent} a request that no
 *       rule matches in its own version matches a rule naming another served version of the same resource
 *       (with the subresource), and is then seen in that version; under {@code Exact} it does not.
 *   <li>A policy or binding matches when no {@code excludeResourceRules} rule matches and one of the
 *       {@code resourceRules} does — or there are none: a binding without {@code resourceRules} is scoped
 *       by its selectors alone. A webhook without rules matches nothing.
 * </ul>
 *
 * Stateless.
 */
final class MatchResources {

    private MatchResources() {}

    /**
     * What matching reads from the server: namespaces' labels and the versions a resource is served in.
     *
     * <p>Implementations are thread-safe.
     */
    interface Cluster {

        /** The labels of the namespace {@code name}, empty when it does not exist. */
        Optional<Map<String, String>> namespaceLabels(String name);

        /**
         * The versions {@code def}'s resource is served in that serve {@code subresource} too ({@code ""}: the
         * main resource), {@code def} among them, in the server's order: what kube-apiserver calls its
         * equivalent resources.
         */
        List<ResourceDefinition> versions(ResourceDefinition def, String subresource);

        /** The cluster of a server: namespaces from {@code store}, versions from {@code resources}. */
        static Cluster of(VersionedStore store, ResourceRegistry resources) {
            return of(
                    name -> store.get("/namespaces", Metadata.key(null, name)).map(o -> labels(o.object())),
                    resources::all);
        }

        /**
         * A cluster of the namespaces {@code namespaceLabels} knows and the served resources {@code resources}
         * lists (every version of every resource).
         */
        static Cluster of(
                Function<String, Optional<Map<String, String>>> namespaceLabels,
                Supplier<List<ResourceDefinition>> resources) {
            return new Cluster() {
                @Override
                public Optional<Map<String, String>> namespaceLabels(String name) {
                    return namespaceLabels.apply(name);
                }

                @Override
                public List<ResourceDefinition> versions(ResourceDefinition def, String subresource) {
                    return resources.get().stream()
                            .filter(d ->
                                    d.group().equals(def.group()) && d.plural().equals(def.plural()))
                            .filter(d -> subresource.isEmpty() || d.hasSubresource(subresource))
                            .toList();
                }
            };
        }
    }

    /**
     * The version a policy's {@code matchConstraints} or a binding's {@code matchResources} match {@code r}
     * in: its own, or under {@code Equivalent} another one; empty when they do not match.
     */
    static Optional<ResourceDefinition> policy(JsonNode match, AdmissionRequest r, Cluster cluster) {
        if (!namespaceMatches(match.get("namespaceSelector"), r, cluster)
                || !objectMatches(match.get("objectSelector"), r)) {
            return Optional.empty();
        }
        boolean equivalent = equivalent(match);
        if (namedRules(match.path("excludeResourceRules"), r, equivalent, cluster)
                .isPresent()) {
            return Optional.empty();
        }
        JsonNode rules = match.path("resourceRules");
        if (rules.isEmpty()) {
            return Optional.of(r.resource());
        }
        return namedRules(rules, r, equivalent, cluster);
    }

    /**
     * The version a webhook is called for {@code r} in: its own when a rule matches it, else under
     * {@code Equivalent} the first other version a rule (in order) matches; empty when the webhook does not
     * match. Match conditions are the caller's.
     */
    static Optional<ResourceDefinition> webhook(JsonNode hook, AdmissionRequest r, Cluster cluster) {
        if (!namespaceMatches(hook.get("namespaceSelector"), r, cluster)
                || !objectMatches(hook.get("objectSelector"), r)) {
            return Optional.empty();
        }
        JsonNode rules = hook.path("rules");
        for (JsonNode rule : rules) {
            if (rule(rule, r, r.resource())) {
                return Optional.of(r.resource());
            }
        }
        if (equivalent(hook)) {
            List<ResourceDefinition> versions = cluster.versions(r.resource(), r.subresource());
            for (JsonNode rule : rules) {
                for (ResourceDefinition other : versions) {
                    if (!other.version().equals(r.resource().version()) && rule(rule, r, other)) {
                        return Optional.of(other);
                    }
                }
            }
        }
        return Optional.empty();
    }

    /** {@code matchPolicy: Equivalent}, the default (the server fills it in; older stored objects lack it). */
    private static boolean equivalent(JsonNode match) {
        return !match.path("matchPolicy").asString("Equivalent").equals("Exact");
    }

    /** The version a rule with resource names matches {@code r} in, as {@link #webhook} looks for it. */
    private static Optional<ResourceDefinition> namedRules(
            JsonNode rules, AdmissionRequest r, boolean equivalent, Cluster cluster) {
        for (JsonNode rule : rules) {
            if (rule(rule, r, r.resource()) && names(rule.path("resourceNames"), r.name())) {
                return Optional.of(r.resource());
            }
        }
        if (!equivalent || rules.isEmpty()) {
            return Optional.empty();
        }
        List<ResourceDefinition> versions = cluster.versions(r.resource(), r.subresource());
        for (JsonNode rule : rules) {
            for (ResourceDefinition other : versions) {
                if (!other.version().equals(r.resource().version())
                        && rule(rule, r, other)
                        && names(rule.path("resourceNames"), r.name())) {
                    return Optional.of(other);
                }
            }
        }
        return Optional.empty();
    }

    /** Whether {@code rule} matches {@code r} taken as a request for the resource in {@code as}'s version. */
    private static boolean rule(JsonNode rule, AdmissionRequest r, ResourceDefinition as) {
        return anyOf(rule.path("operations"), r.operation())
                && anyOf(rule.path("apiGroups"), as.group())
                && anyOf(rule.path("apiVersions"), as.version())
                && resources(rule.path("resources"), as.plural(), r.subresource())
                && scope(rule.path("scope").asString("*"), r);
    }

    private static boolean anyOf(JsonNode values, String value) {
        for (JsonNode v : values) {
            if (v.asString().equals("*") || v.asString().equals(value)) {
                return true;
            }
        }
        return false;
    }

    private static boolean resources(JsonNode entries, String plural, String sub) {
        for (JsonNode e : entries) {
            String entry = e.asString();
            int slash = entry.indexOf('/');
            String res = slash < 0 ? entry : entry.substring(0, slash);
            String entrySub = slash < 0 ? "" : entry.substring(slash + 1);
            if ((res.equals("*") || res.equals(plural)) && (entrySub.equals("*") || entrySub.equals(sub))) {
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

    /** A Namespace is cluster-scoped; any other object by whether the request names a namespace. */
    private static boolean scope(String scope, AdmissionRequest r) {
        boolean inNamespace =
                !isNamespace(r) && r.namespace() != null && !r.namespace().isEmpty();
        return switch (scope) {
            case "Cluster" -> !inNamespace;
            case "Namespaced" -> inNamespace;
            default -> true;
        };
    }

    /** A request for a core Namespace. */
    private static boolean isNamespace(AdmissionRequest r) {
        return r.resource().group().isEmpty() && r.resource().plural().equals("namespaces");
    }

    private static boolean namespaceMatches(JsonNode selector, AdmissionRequest r, Cluster cluster) {
        // kube-apiserver tells a Namespace by its resource name alone
        boolean namespaces = r.resource().plural().equals("namespaces");
        String namespace = r.namespace() == null ? "" : r.namespace();
        if (namespace.isEmpty() && !namespaces) {
            return true; // a cluster-scoped object is never filtered out by namespace
        }
        LabelSelector s = selector(selector);
        if (s.isEverything()) {
            return true;
        }
        Map<String, String> labels;
        if (namespaces
                && r.subresource().isEmpty()
                && (r.operation().equals("CREATE") || r.operation().equals("UPDATE"))) {
            labels = labels(r.object()); // the Namespace as it will be
        } else {
            // the namespace as stored: a Namespace's own on delete and subresources, else the object's
            labels = cluster.namespaceLabels(namespace.isEmpty() ? r.name() : namespace)
                    .orElse(Map.of());
        }
        return s.matches(labels);
    }

    private static boolean objectMatches(JsonNode selector, AdmissionRequest r) {
        LabelSelector s = selector(selector);
        if (s.isEverything()) {
            return true;
        }
        return (r.object() != null && s.matches(labels(r.object())))
                || (r.oldObject() != null && s.matches(labels(r.oldObject())));
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
