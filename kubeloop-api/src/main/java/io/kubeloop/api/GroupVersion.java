package io.kubeloop.api;

import java.util.Objects;

/**
 * An API group and version, such as {@code apps/v1}. The core group is the empty string and is
 * written without a slash: {@code v1}.
 *
 * <p>Immutable and thread-safe.
 *
 * @param group the API group, {@code ""} for the core group; never null
 * @param version the version, never blank
 * @see <a href="https://pkg.go.dev/k8s.io/apimachinery/pkg/runtime/schema#GroupVersion">schema.GroupVersion</a>
 */
public record GroupVersion(String group, String version) {

    /** The core (legacy) group version {@code v1}. */
    public static final GroupVersion CORE_V1 = new GroupVersion("", "v1");

    public GroupVersion {
        Objects.requireNonNull(group, "group");
        Objects.requireNonNull(version, "version");
        if (version.isBlank()) {
            throw new IllegalArgumentException("version must not be blank");
        }
        if (group.contains("/") || version.contains("/")) {
            throw new IllegalArgumentException("group and version must not contain '/': " + group + "/" + version);
        }
    }

    /**
     * Parses an {@code apiVersion} string: {@code "v1"} is the core group, {@code "apps/v1"} the
     * {@code apps} group.
     *
     * @throws IllegalArgumentException when the text is empty or has more than one slash
     */
    public static GroupVersion parse(String apiVersion) {
        Objects.requireNonNull(apiVersion, "apiVersion");
        int slash = apiVersion.indexOf('/');
        if (slash < 0) {
            if (apiVersion.isEmpty()) {
                throw new IllegalArgumentException("apiVersion must not be empty");
            }
            return new GroupVersion("", apiVersion);
        }
        if (apiVersion.indexOf('/', slash + 1) >= 0 || slash == 0 || slash == apiVersion.length() - 1) {
            throw new IllegalArgumentException("unexpected GroupVersion string: " + apiVersion);
        }
        return new GroupVersion(apiVersion.substring(0, slash), apiVersion.substring(slash + 1));
    }

    /** True for the core (legacy) group, served under {@code /api}. */
    public boolean isCore() {
        return group.isEmpty();
    }

    /** The {@code apiVersion} form: {@code v1} or {@code apps/v1}. */
    public String apiVersion() {
        return group.isEmpty() ? version : group + "/" + version;
    }

    public GroupVersionKind withKind(String kind) {
        return new GroupVersionKind(group, version, kind);
    }

    public GroupVersionResource withResource(String resource) {
        return new GroupVersionResource(group, version, resource);
    }

    @Override
    public String toString() {
        return apiVersion();
    }
}
