package io.kubeloop.client.discovery;

import io.kubeloop.api.GroupVersion;
import java.util.List;
import java.util.Objects;

/**
 * An API group as discovery reports it: its name, its served versions in the server's order of
 * preference, and the preferred version.
 *
 * <p>Immutable and thread-safe.
 *
 * @param name the group name, {@code ""} for the core group
 * @param versions the served versions, most preferred first (the server's order); never empty
 * @param preferredVersion the version clients should use when they do not name one; one of
 *        {@code versions}
 * @see <a href="https://pkg.go.dev/k8s.io/apimachinery/pkg/apis/meta/v1#APIGroup">metav1.APIGroup</a>
 */
public record APIGroup(String name, List<String> versions, String preferredVersion) {

    public APIGroup {
        Objects.requireNonNull(name, "name");
        versions = List.copyOf(Objects.requireNonNull(versions, "versions"));
        if (versions.isEmpty()) {
            throw new IllegalArgumentException("group " + (name.isEmpty() ? "\"\"" : name) + " has no versions");
        }
        if (preferredVersion == null || preferredVersion.isEmpty()) {
            preferredVersion = versions.getFirst();
        }
        if (!versions.contains(preferredVersion)) {
            throw new IllegalArgumentException("preferred version " + preferredVersion + " of group "
                    + (name.isEmpty() ? "\"\"" : name) + " is not among its versions " + versions);
        }
    }

    /** True for the core (legacy) group served under {@code /api}. */
    public boolean isCore() {
        return name.isEmpty();
    }

    /** The group versions in the server's order. */
    public List<GroupVersion> groupVersions() {
        return versions.stream().map(v -> new GroupVersion(name, v)).toList();
    }

    /** The preferred group version. */
    public GroupVersion preferredGroupVersion() {
        return new GroupVersion(name, preferredVersion);
    }
}
