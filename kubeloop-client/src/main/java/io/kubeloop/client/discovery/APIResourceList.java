package io.kubeloop.client.discovery;

import io.kubeloop.api.GroupVersion;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The resources served under one group version, in the server's order, subresources included as
 * {@code parent/sub} entries: the content of {@code GET /api/v1} or {@code GET /apis/<group>/<version>}.
 *
 * <p>Immutable and thread-safe.
 *
 * @param groupVersion the group version
 * @param resources the resources; each one's {@link APIResource#groupVersion()} is {@code groupVersion}
 * @see <a href="https://pkg.go.dev/k8s.io/apimachinery/pkg/apis/meta/v1#APIResourceList">metav1.APIResourceList</a>
 */
public record APIResourceList(GroupVersion groupVersion, List<APIResource> resources) {

    public APIResourceList {
        Objects.requireNonNull(groupVersion, "groupVersion");
        resources = List.copyOf(Objects.requireNonNull(resources, "resources"));
        for (APIResource r : resources) {
            if (!r.groupVersion().equals(groupVersion)) {
                throw new IllegalArgumentException(
                        "resource " + r.name() + " is served under " + r.groupVersion() + ", not " + groupVersion);
            }
        }
    }

    /** The resource or subresource with this exact name ({@code pods}, {@code pods/log}). */
    public Optional<APIResource> resource(String name) {
        return resources.stream().filter(r -> r.name().equals(name)).findFirst();
    }

    /** The top-level resources only (no {@code parent/sub} entries). */
    public List<APIResource> topLevelResources() {
        return resources.stream().filter(r -> !r.isSubresource()).toList();
    }
}
