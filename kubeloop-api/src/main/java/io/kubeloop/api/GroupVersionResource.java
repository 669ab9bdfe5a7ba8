package io.kubeloop.api;

import java.util.Objects;

/**
 * A fully qualified resource: group, version and resource, such as {@code deployments.v1.apps}.
 * This is what addresses a REST collection: {@code /apis/apps/v1/deployments}.
 *
 * <p>Immutable and thread-safe.
 *
 * @param group the API group, {@code ""} for the core group
 * @param version the version, never blank
 * @param resource the resource (lower-case plural), never blank
 */
public record GroupVersionResource(String group, String version, String resource) {

    public GroupVersionResource {
        Objects.requireNonNull(group, "group");
        Objects.requireNonNull(version, "version");
        Objects.requireNonNull(resource, "resource");
        if (version.isBlank() || resource.isBlank()) {
            throw new IllegalArgumentException("version and resource must not be blank");
        }
    }

    /**
     * Parses {@code resource.version.group} (e.g. {@code deployments.v1.apps}) or
     * {@code resource.version} for the core group ({@code pods.v1}).
     *
     * @throws IllegalArgumentException when the text has fewer than two dot-separated parts
     */
    public static GroupVersionResource parse(String text) {
        Objects.requireNonNull(text, "text");
        int first = text.indexOf('.');
        if (first <= 0) {
            throw new IllegalArgumentException("expected resource.version[.group]: " + text);
        }
        int second = text.indexOf('.', first + 1);
        String resource = text.substring(0, first);
        if (second < 0) {
            return new GroupVersionResource("", text.substring(first + 1), resource);
        }
        return new GroupVersionResource(text.substring(second + 1), text.substring(first + 1, second), resource);
    }

    public GroupVersion groupVersion() {
        return new GroupVersion(group, version);
    }

    public GroupResource groupResource() {
        return new GroupResource(group, resource);
    }

    /** {@code resource.version.group}, the form {@link #parse} reads. */
    public String format() {
        return group.isEmpty() ? resource + "." + version : resource + "." + version + "." + group;
    }

    @Override
    public String toString() {
        return format();
    }
}
