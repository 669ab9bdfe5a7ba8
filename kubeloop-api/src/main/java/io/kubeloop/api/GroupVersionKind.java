package io.kubeloop.api;

import java.util.Objects;

/**
 * A fully qualified kind: group, version and kind, such as {@code apps/v1, Kind=Deployment}.
 *
 * <p>Immutable and thread-safe.
 *
 * @param group the API group, {@code ""} for the core group
 * @param version the version, never blank
 * @param kind the kind, never blank
 */
public record GroupVersionKind(String group, String version, String kind) {

    public GroupVersionKind {
        Objects.requireNonNull(group, "group");
        Objects.requireNonNull(version, "version");
        Objects.requireNonNull(kind, "kind");
        if (version.isBlank() || kind.isBlank()) {
            throw new IllegalArgumentException("version and kind must not be blank");
        }
    }

    /** From an object's {@code apiVersion} and {@code kind} fields. */
    public static GroupVersionKind of(String apiVersion, String kind) {
        return GroupVersion.parse(apiVersion).withKind(kind);
    }

    /**
     * Parses {@code Kind.version.group} (as {@code kubectl explain} and {@code kubectl get} accept,
     * e.g. {@code Deployment.v1.apps}) or {@code Kind.version} for the core group.
     *
     * @throws IllegalArgumentException when the text has fewer than two dot-separated parts
     */
    public static GroupVersionKind parse(String text) {
        Objects.requireNonNull(text, "text");
        int first = text.indexOf('.');
        if (first <= 0) {
            throw new IllegalArgumentException("expected Kind.version[.group]: " + text);
        }
        int second = text.indexOf('.', first + 1);
        String kind = text.substring(0, first);
        if (second < 0) {
            return new GroupVersionKind("", text.substring(first + 1), kind);
        }
        return new GroupVersionKind(text.substring(second + 1), text.substring(first + 1, second), kind);
    }

    public GroupVersion groupVersion() {
        return new GroupVersion(group, version);
    }

    public GroupKind groupKind() {
        return new GroupKind(group, kind);
    }

    /** The {@code apiVersion} form of the group and version. */
    public String apiVersion() {
        return group.isEmpty() ? version : group + "/" + version;
    }

    /** {@code Kind.version.group}, the form {@link #parse} reads. */
    public String format() {
        return group.isEmpty() ? kind + "." + version : kind + "." + version + "." + group;
    }

    @Override
    public String toString() {
        return apiVersion() + ", Kind=" + kind;
    }
}
