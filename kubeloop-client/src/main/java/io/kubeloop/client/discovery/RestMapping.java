package io.kubeloop.client.discovery;

import io.kubeloop.api.GroupVersionKind;
import io.kubeloop.api.GroupVersionResource;
import io.kubeloop.api.ResourceScope;
import java.util.List;
import java.util.Objects;

/**
 * Where a kind lives on the server: the resource that serves it in one version, its scope and what
 * discovery says about it. The answer of a {@link RestMapper}.
 *
 * <p>Immutable and thread-safe.
 *
 * @param groupVersionResource the REST collection, e.g. {@code deployments.v1.apps}
 * @param groupVersionKind the kind of its objects, e.g. {@code apps/v1, Kind=Deployment}
 * @param namespaced true for namespaced resources, false for cluster-scoped ones
 * @param singular the singular resource name, e.g. {@code deployment}
 * @param shortNames the short names, e.g. {@code [deploy]}
 * @param verbs the supported verbs
 * @param categories the categories, e.g. {@code [all]}
 * @see <a href="https://pkg.go.dev/k8s.io/apimachinery/pkg/api/meta#RESTMapping">meta.RESTMapping</a>
 */
public record RestMapping(
        GroupVersionResource groupVersionResource,
        GroupVersionKind groupVersionKind,
        boolean namespaced,
        String singular,
        List<String> shortNames,
        List<String> verbs,
        List<String> categories) {

    public RestMapping {
        Objects.requireNonNull(groupVersionResource, "groupVersionResource");
        Objects.requireNonNull(groupVersionKind, "groupVersionKind");
        singular = Objects.requireNonNullElse(singular, "");
        shortNames = List.copyOf(shortNames);
        verbs = List.copyOf(verbs);
        categories = List.copyOf(categories);
    }

    /** The mapping of one discovered top-level resource. */
    static RestMapping of(APIResource r) {
        return new RestMapping(
                r.groupVersionResource(),
                r.groupVersion().withKind(r.kind()),
                r.namespaced(),
                r.singularName(),
                r.shortNames(),
                r.verbs(),
                r.categories());
    }

    /** Where the objects live: {@link #namespaced()} as a {@link ResourceScope}. */
    public ResourceScope scope() {
        return namespaced ? ResourceScope.NAMESPACED : ResourceScope.CLUSTER;
    }

    /** True when the verb is listed. */
    public boolean supports(String verb) {
        return verbs.contains(verb);
    }
}
