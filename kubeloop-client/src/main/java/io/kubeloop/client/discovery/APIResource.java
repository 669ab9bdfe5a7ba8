package io.kubeloop.client.discovery;

import io.kubeloop.api.GroupResource;
import io.kubeloop.api.GroupVersion;
import io.kubeloop.api.GroupVersionKind;
import io.kubeloop.api.GroupVersionResource;
import io.kubeloop.api.ResourceScope;
import java.util.List;
import java.util.Objects;

/**
 * One entry of a discovery resource list: a resource (or a subresource, named {@code parent/sub})
 * served under one group version.
 *
 * <p>This is the legacy {@code metav1.APIResource} shape; aggregated discovery documents are
 * converted to it (a subresource becomes its own {@code parent/sub} entry, as client-go does).
 *
 * <p>Immutable and thread-safe; the lists are unmodifiable copies.
 *
 * @param groupVersion the group version the resource is served under ({@code /apis/apps/v1})
 * @param name the plural resource name, or {@code parent/sub} for a subresource
 * @param singularName the singular name; for subresources the parent's (may be empty for servers
 *        that do not report it)
 * @param namespaced true when the resource lives in namespaces
 * @param responseKind the kind of the objects the endpoint accepts and returns; usually in
 *        {@code groupVersion}, but e.g. {@code deployments/scale} answers {@code autoscaling/v1 Scale}
 * @param verbs the supported verbs ({@code get}, {@code list}, {@code watch}, ...)
 * @param shortNames short names such as {@code deploy}; empty for subresources
 * @param categories categories such as {@code all}; empty for subresources
 * @see <a href="https://pkg.go.dev/k8s.io/apimachinery/pkg/apis/meta/v1#APIResource">metav1.APIResource</a>
 */
public record APIResource(
        GroupVersion groupVersion,
        String name,
        String singularName,
        boolean namespaced,
        GroupVersionKind responseKind,
        List<String> verbs,
        List<String> shortNames,
        List<String> categories) {

    public APIResource {
        Objects.requireNonNull(groupVersion, "groupVersion");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(responseKind, "responseKind");
        if (name.isBlank()) {
            throw new IllegalArgumentException("resource name must not be blank");
        }
        singularName = singularName == null ? "" : singularName;
        verbs = verbs == null ? List.of() : List.copyOf(verbs);
        shortNames = shortNames == null ? List.of() : List.copyOf(shortNames);
        categories = categories == null ? List.of() : List.copyOf(categories);
    }

    /** Where the objects live: {@link #namespaced()} as a {@link ResourceScope}. */
    public ResourceScope scope() {
        return namespaced ? ResourceScope.NAMESPACED : ResourceScope.CLUSTER;
    }

    /** The API group the resource is served under, {@code ""} for the core group. */
    public String group() {
        return groupVersion.group();
    }

    /** The version the resource is served under. */
    public String version() {
        return groupVersion.version();
    }

    /** The kind of the objects served, e.g. {@code Deployment}. */
    public String kind() {
        return responseKind.kind();
    }

    /** True for {@code parent/sub} entries such as {@code deployments/status}. */
    public boolean isSubresource() {
        return name.indexOf('/') >= 0;
    }

    /** The top-level resource: {@code deployments} for both {@code deployments} and {@code deployments/scale}. */
    public String parentResource() {
        int slash = name.indexOf('/');
        return slash < 0 ? name : name.substring(0, slash);
    }

    /** The subresource part ({@code scale} of {@code deployments/scale}), or {@code ""} for a top-level resource. */
    public String subresource() {
        int slash = name.indexOf('/');
        return slash < 0 ? "" : name.substring(slash + 1);
    }

    /** True when the verb is listed. */
    public boolean supports(String verb) {
        return verbs.contains(verb);
    }

    /** The group, version and (full, possibly {@code parent/sub}) resource name. */
    public GroupVersionResource groupVersionResource() {
        return groupVersion.withResource(name);
    }

    /** The group and resource name, without a version. */
    public GroupResource groupResource() {
        return new GroupResource(groupVersion.group(), name);
    }
}
