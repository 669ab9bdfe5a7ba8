package io.kubeloop.api;

import java.util.Locale;
import java.util.Objects;

/**
 * How the API addresses a kind: its resource (lower-case plural) and whether it is namespaced —
 * the part of client-go's {@code RESTMapping} a client needs to build URLs without discovery.
 *
 * <p>Immutable and thread-safe.
 *
 * @param gvk the kind
 * @param resource the lower-case plural resource, e.g. {@code deployments}
 * @param namespaced true when objects live in namespaces
 */
public record ResourceMapping(GroupVersionKind gvk, String resource, boolean namespaced) {

    public ResourceMapping {
        Objects.requireNonNull(gvk, "gvk");
        Objects.requireNonNull(resource, "resource");
        if (resource.isBlank()) {
            throw new IllegalArgumentException("resource must not be blank");
        }
    }

    /**
     * A mapping of a resource with the given scope.
     *
     * @param gvk the kind
     * @param resource the lower-case plural resource
     * @param scope where the objects live
     */
    public ResourceMapping(GroupVersionKind gvk, String resource, ResourceScope scope) {
        this(gvk, resource, Objects.requireNonNull(scope, "scope").isNamespaced());
    }

    /** Where the objects live: {@link #namespaced()} as a {@link ResourceScope}. */
    public ResourceScope scope() {
        return namespaced ? ResourceScope.NAMESPACED : ResourceScope.CLUSTER;
    }

    /** The group, version and resource: what addresses the REST collection. */
    public GroupVersionResource gvr() {
        return new GroupVersionResource(gvk.group(), gvk.version(), resource);
    }

    /**
     * apimachinery's {@code UnsafeGuessKindToResource}: the lower-cased kind plus {@code s},
     * {@code es} after a final {@code s}, {@code ies} for a final {@code y}. Wrong for irregular
     * plurals ({@code Endpoints}); prefer a declared plural.
     */
    public static String guessResource(String kind) {
        String singular = kind.toLowerCase(Locale.ROOT);
        if (singular.isEmpty()) {
            return singular;
        }
        return switch (singular.charAt(singular.length() - 1)) {
            case 's' -> singular + "es";
            case 'y' -> singular.substring(0, singular.length() - 1) + "ies";
            default -> singular + "s";
        };
    }
}
