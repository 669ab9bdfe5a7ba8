package io.kubeloop.api;

import java.util.Objects;

/**
 * A kind within an API group, without a version: {@code Deployment.apps}, or {@code Pod} in the core
 * group.
 *
 * <p>Immutable and thread-safe.
 *
 * @param group the API group, {@code ""} for the core group
 * @param kind the kind, CamelCase and never blank
 */
public record GroupKind(String group, String kind) {

    public GroupKind {
        Objects.requireNonNull(group, "group");
        Objects.requireNonNull(kind, "kind");
        if (kind.isBlank()) {
            throw new IllegalArgumentException("kind must not be blank");
        }
    }

    /**
     * Parses {@code Kind} or {@code Kind.group} (the first dot separates the kind from the group):
     * {@code "Deployment.apps"}.
     */
    public static GroupKind parse(String text) {
        Objects.requireNonNull(text, "text");
        int dot = text.indexOf('.');
        return dot < 0 ? new GroupKind("", text) : new GroupKind(text.substring(dot + 1), text.substring(0, dot));
    }

    public GroupVersionKind withVersion(String version) {
        return new GroupVersionKind(group, version, kind);
    }

    @Override
    public String toString() {
        return group.isEmpty() ? kind : kind + "." + group;
    }
}
