package io.kubeloop.client.discovery;

import io.kubeloop.api.GroupResource;
import io.kubeloop.api.GroupVersion;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Everything discovery found: the groups in the server's priority order (core first), the resources
 * of every group version that could be read, and the group versions that could not.
 *
 * <p>A partial result is normal (an aggregated API server being down makes its group version
 * fail); callers that need everything call {@link #requireComplete()}.
 *
 * <p>Immutable and thread-safe. {@code resources} iterates in discovery order: groups in
 * {@code groups} order, versions in each group's order.
 *
 * @param groups the groups, core group first when the server has one
 * @param resources the resource list per readable group version
 * @param failures why each unreadable group version failed (stale, HTTP error, bad document)
 */
public record ServerResources(
        List<APIGroup> groups,
        Map<GroupVersion, APIResourceList> resources,
        Map<GroupVersion, RuntimeException> failures) {

    public ServerResources {
        groups = List.copyOf(Objects.requireNonNull(groups, "groups"));
        Objects.requireNonNull(resources, "resources");
        Map<GroupVersion, APIResourceList> ordered = new LinkedHashMap<>();
        for (APIGroup g : groups) {
            for (GroupVersion gv : g.groupVersions()) {
                APIResourceList list = resources.get(gv);
                if (list != null) {
                    ordered.put(gv, list);
                }
            }
        }
        resources.forEach(ordered::putIfAbsent);
        resources = Collections.unmodifiableMap(ordered);
        failures = Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNull(failures, "failures")));
    }

    /** True when no group version failed. */
    public boolean isComplete() {
        return failures.isEmpty();
    }

    /** The error listing the failed group versions, if any failed. */
    public Optional<GroupDiscoveryFailedException> failure() {
        return failures.isEmpty() ? Optional.empty() : Optional.of(new GroupDiscoveryFailedException(failures));
    }

    /**
     * Returns this result when every group version was read.
     *
     * @throws GroupDiscoveryFailedException listing the group versions that failed
     */
    public ServerResources requireComplete() {
        if (!failures.isEmpty()) {
            throw new GroupDiscoveryFailedException(failures);
        }
        return this;
    }

    /** The group with this name. */
    public Optional<APIGroup> group(String name) {
        return groups.stream().filter(g -> g.name().equals(name)).findFirst();
    }

    /** The resources of one group version, if it was discovered. */
    public Optional<APIResourceList> resources(GroupVersion groupVersion) {
        return Optional.ofNullable(resources.get(groupVersion));
    }

    /** All resource lists in discovery order. */
    public List<APIResourceList> resourceLists() {
        return List.copyOf(resources.values());
    }

    /**
     * Every top-level resource once, in the version the server prefers: the group's preferred version
     * when it serves the resource there, else the first version (in the server's order) that does
     * (client-go's {@code ServerPreferredResources}). Subresources are left out. Discovery order.
     */
    public List<APIResource> preferredResources() {
        Map<GroupResource, APIResource> chosen = new LinkedHashMap<>();
        for (APIGroup g : groups) {
            for (GroupVersion gv : g.groupVersions()) {
                APIResourceList list = resources.get(gv);
                if (list == null) {
                    continue;
                }
                for (APIResource r : list.topLevelResources()) {
                    GroupResource key = new GroupResource(g.name(), r.name());
                    if (!chosen.containsKey(key) || gv.version().equals(g.preferredVersion())) {
                        chosen.put(key, r);
                    }
                }
            }
        }
        return List.copyOf(chosen.values());
    }

    /**
     * The rows of {@code kubectl api-resources}: {@link #preferredResources()} sorted by group, then by
     * resource name (the core group first). Each row gives NAME ({@link APIResource#name()}), SHORTNAMES
     * ({@link APIResource#shortNames()} joined with commas), APIVERSION
     * ({@code resource.groupVersion().apiVersion()}), NAMESPACED and KIND.
     */
    public List<APIResource> apiResourcesListing() {
        List<APIResource> rows = new ArrayList<>(preferredResources());
        rows.sort(Comparator.comparing(APIResource::group).thenComparing(APIResource::name));
        return List.copyOf(rows);
    }

    /**
     * The lines of {@code kubectl api-versions}: every served group version in {@code apiVersion} form
     * ({@code v1}, {@code apps/v1}), sorted as strings.
     */
    public List<String> apiVersions() {
        return groups.stream()
                .flatMap(g -> g.groupVersions().stream())
                .map(GroupVersion::apiVersion)
                .sorted()
                .distinct()
                .toList();
    }
}
