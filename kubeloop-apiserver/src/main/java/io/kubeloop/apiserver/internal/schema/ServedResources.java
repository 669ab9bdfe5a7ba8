package io.kubeloop.apiserver.internal.schema;

import io.kubeloop.api.GroupVersion;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The resources and subresources the server serves in each group version: what decides which of
 * Kubernetes' own OpenAPI paths the server publishes ({@link UpstreamOpenApi}).
 *
 * <p>Immutable and thread-safe.
 *
 * @param byGroupVersion per group version, each served plural resource with its subresources (e.g.
 *     {@code pods -> [status, log, eviction, binding]})
 */
public record ServedResources(Map<GroupVersion, Map<String, Set<String>>> byGroupVersion) {

    public ServedResources {
        Map<GroupVersion, Map<String, Set<String>>> copy = new HashMap<>();
        byGroupVersion.forEach((gv, resources) -> {
            Map<String, Set<String>> r = new HashMap<>();
            resources.forEach((plural, subs) -> r.put(plural, Set.copyOf(subs)));
            copy.put(gv, Map.copyOf(r));
        });
        byGroupVersion = Map.copyOf(copy);
    }

    /** What the served kinds name: each kind's resource with its {@code status} and {@code scale}. */
    public static ServedResources of(List<ServedKind> kinds) {
        Map<GroupVersion, Map<String, Set<String>>> out = new HashMap<>();
        for (ServedKind k : kinds) {
            out.computeIfAbsent(k.gvk().groupVersion(), gv -> new HashMap<>())
                    .put(k.resource(), Set.copyOf(k.subresources()));
        }
        return new ServedResources(out);
    }

    /** Whether any resource of {@code gv} is served. */
    public boolean serves(GroupVersion gv) {
        return byGroupVersion.containsKey(gv);
    }

    /** Whether any version of {@code group} is served. */
    public boolean servesGroup(String group) {
        return byGroupVersion.keySet().stream().anyMatch(gv -> gv.group().equals(group));
    }

    /**
     * Whether {@code resource} of {@code gv} is served, and its {@code subresource} when that is not
     * empty.
     */
    public boolean serves(GroupVersion gv, String resource, String subresource) {
        Set<String> subs = byGroupVersion.getOrDefault(gv, Map.of()).get(resource);
        return subs != null && (subresource.isEmpty() || subs.contains(subresource));
    }
}
