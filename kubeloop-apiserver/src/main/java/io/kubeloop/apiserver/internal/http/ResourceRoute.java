package io.kubeloop.apiserver.internal.http;

import io.kubeloop.apiserver.internal.registry.ResourceDefinition;
import io.kubeloop.apiserver.internal.registry.ResourceRegistry;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * A parsed resource URL: {@code /api/v1/...} or {@code /apis/{g}/{v}/...}, namespaced or
 * cluster paths, an optional name and subresource, and the legacy {@code /watch/} prefix.
 *
 * <p>Immutable.
 *
 * @param definition the resource
 * @param namespace the URL namespace, or null (cluster-scoped, or across namespaces)
 * @param name the object name, or null for the collection
 * @param subresource {@code ""} or e.g. {@code status}
 * @param legacyWatch the path had the {@code watch} segment
 */
record ResourceRoute(
        ResourceDefinition definition, String namespace, String name, String subresource, boolean legacyWatch) {

    /** Parses a path; empty when no served resource lives there (plain-text 404). */
    static Optional<ResourceRoute> parse(String path, ResourceRegistry registry) {
        List<String> segs =
                Arrays.stream(path.split("/")).filter(s -> !s.isEmpty()).toList();
        String group;
        String version;
        List<String> rest;
        if (segs.size() >= 3 && segs.get(0).equals("api")) {
            group = "";
            version = segs.get(1);
            rest = segs.subList(2, segs.size());
        } else if (segs.size() >= 4 && segs.get(0).equals("apis")) {
            group = segs.get(1);
            version = segs.get(2);
            rest = segs.subList(3, segs.size());
        } else {
            return Optional.empty();
        }
        boolean watch = false;
        if (!rest.isEmpty() && rest.get(0).equals("watch")) {
            watch = true;
            rest = rest.subList(1, rest.size());
        }
        if (rest.isEmpty() || rest.size() > 5) {
            return Optional.empty();
        }
        if (rest.get(0).equals("namespaces")
                && rest.size() >= 3
                && !(rest.size() == 3
                        && group.isEmpty()
                        && (rest.get(2).equals("status") || rest.get(2).equals("finalize")))) {
            String ns = rest.get(1);
            Optional<ResourceDefinition> def =
                    registry.find(group, version, rest.get(2)).filter(ResourceDefinition::namespaced);
            if (def.isEmpty()) {
                return Optional.empty();
            }
            return build(def.get(), ns, rest.subList(3, rest.size()), watch);
        }
        Optional<ResourceDefinition> def = registry.find(group, version, rest.get(0));
        if (def.isEmpty() || rest.size() > 3) {
            return Optional.empty();
        }
        if (def.get().namespaced() && rest.size() > 1) {
            return Optional.empty(); // namespaced objects are only addressed under /namespaces/{ns}/
        }
        return build(def.get(), null, rest.subList(1, rest.size()), watch);
    }

    private static Optional<ResourceRoute> build(ResourceDefinition def, String ns, List<String> tail, boolean watch) {
        if (tail.isEmpty()) {
            return Optional.of(new ResourceRoute(def, ns, null, "", watch));
        }
        String name = tail.get(0);
        String sub = tail.size() > 1 ? tail.get(1) : "";
        if (tail.size() > 2 || !sub.isEmpty() && (!def.hasSubresource(sub) || watch)) {
            return Optional.empty();
        }
        return Optional.of(new ResourceRoute(def, ns, name, sub, watch));
    }
}
