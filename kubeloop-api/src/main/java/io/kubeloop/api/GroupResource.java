package io.kubeloop.api;

import java.util.Objects;

/**
 * A resource within an API group, without a version: {@code deployments.apps}, or {@code pods} in
 * the core group.
 *
 * <p>Immutable and thread-safe.
 *
 * @param group the API group, {@code ""} for the core group
 * @param resource the resource, usually the lower-case plural ({@code deployments}); never blank
 */
public record GroupResource(String group, String resource) {

    public GroupResource {
        Objects.requireNonNull(group, "group");
        Objects.requireNonNull(resource, "resource");
        if (resource.isBlank()) {
            throw new IllegalArgumentException("resource must not be blank");
        }
    }

    /**
     * Parses {@code resource} or {@code resource.group} (the first dot separates the resource from
     * the group): {@code "deployments.apps"}.
     */
    public static GroupResource parse(String text) {
        Objects.requireNonNull(text, "text");
        int dot = text.indexOf('.');
        return dot < 0
                ? new GroupResource("", text)
                : new GroupResource(text.substring(dot + 1), text.substring(0, dot));
    }

    public GroupVersionResource withVersion(String version) {
        return new GroupVersionResource(group, version, resource);
    }

    @Override
    public String toString() {
        return group.isEmpty() ? resource : resource + "." + group;
    }
}
