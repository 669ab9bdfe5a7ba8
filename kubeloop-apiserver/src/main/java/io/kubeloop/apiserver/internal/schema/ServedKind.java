package io.kubeloop.apiserver.internal.schema;

import io.kubeloop.api.GroupVersionKind;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One kind the server serves, as the OpenAPI documents need it. The server adapts its registry to
 * this; {@link #builtin} and {@link #custom} cover the two cases.
 *
 * <p>Immutable and thread-safe.
 *
 * @param gvk the kind, e.g. {@code apps/v1, Kind=Deployment}
 * @param resource the plural resource, e.g. {@code deployments}
 * @param namespaced true for namespace-scoped resources
 * @param verbs the discovery verbs ({@code get}, {@code list}, {@code watch}, {@code create},
 *     {@code update}, {@code patch}, {@code delete}, {@code deletecollection}); operations are
 *     published for these only, and kubectl's {@code fieldValidation} probe needs {@code patch}
 * @param schema the kind's schema; {@code null} means unknown (published as a free-form object,
 *     as the real server does for a CRD version without schema)
 * @param builtin true for compiled-in kinds: their PATCH operation also accepts
 *     {@code application/strategic-merge-patch+json}, which makes kubectl's client-side apply send
 *     strategic merge patches; false for custom resources (merge patches)
 * @param subresources {@code status} and/or {@code scale}, published as their own paths
 */
public record ServedKind(
        GroupVersionKind gvk,
        String resource,
        boolean namespaced,
        List<String> verbs,
        StructuralSchema schema,
        boolean builtin,
        List<String> subresources) {

    /** Every verb a fully served resource has. */
    public static final List<String> ALL_VERBS =
            List.of("create", "delete", "deletecollection", "get", "list", "patch", "update", "watch");

    public ServedKind {
        Objects.requireNonNull(gvk, "gvk");
        Objects.requireNonNull(resource, "resource");
        if (resource.isBlank() || resource.contains("/")) {
            throw new IllegalArgumentException("resource must be a plural resource name: " + resource);
        }
        verbs = List.copyOf(verbs);
        subresources = List.copyOf(subresources);
        for (String s : subresources) {
            if (!s.equals("status") && !s.equals("scale")) {
                throw new IllegalArgumentException("unsupported subresource: " + s);
            }
        }
    }

    /**
     * A built-in kind with all verbs and its schema from {@link BuiltinSchemas}.
     *
     * @throws IllegalArgumentException when kubeloop has no schema for the kind
     */
    public static ServedKind builtin(
            GroupVersionKind gvk, String resource, boolean namespaced, List<String> subresources) {
        StructuralSchema s = BuiltinSchemas.forKind(gvk)
                .orElseThrow(() -> new IllegalArgumentException("no built-in schema for " + gvk));
        return new ServedKind(gvk, resource, namespaced, ALL_VERBS, s, true, subresources);
    }

    /** A custom resource (one CRD version) with all verbs. */
    public static ServedKind custom(
            GroupVersionKind gvk,
            String resource,
            boolean namespaced,
            StructuralSchema schema,
            List<String> subresources) {
        return new ServedKind(gvk, resource, namespaced, ALL_VERBS, schema, false, subresources);
    }

    /** The schema, if known. */
    public Optional<StructuralSchema> schemaIfKnown() {
        return Optional.ofNullable(schema);
    }

    /** {@code <Kind>List}. */
    public String listKind() {
        return gvk.kind() + "List";
    }
}
