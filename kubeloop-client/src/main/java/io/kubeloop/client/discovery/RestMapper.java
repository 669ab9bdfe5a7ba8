package io.kubeloop.client.discovery;

import io.kubeloop.api.GroupKind;
import io.kubeloop.api.GroupResource;
import io.kubeloop.api.GroupVersionKind;
import java.util.List;

/**
 * Maps between kinds and resources, and resolves what a user types ({@code kubectl get <arg>}) to a
 * resource, with kubectl's rules.
 *
 * <p>Resolution of {@link #resolve(String)} accepts, in kubectl's order: {@code resource.version.group}
 * ({@code deployments.v1.apps}), {@code resource.group} ({@code deployments.apps}), a plural, singular
 * or short name ({@code deployments}, {@code deployment}, {@code deploy}; case-insensitive once short
 * names are expanded), a short name with a group or a group prefix ({@code deploy.apps},
 * {@code deploy.app}), and kinds in the same shapes ({@code Deployment}, {@code Deployment.apps},
 * {@code Deployment.v1.apps}). Without a version the group's preferred version wins; when several
 * groups serve the name, the core group wins, then the groups in the server's order.
 *
 * <p>Implementations are thread-safe.
 *
 * @see <a href="https://pkg.go.dev/k8s.io/client-go/restmapper">client-go restmapper</a>
 */
public interface RestMapper {

    /**
     * Resolves a resource or kind argument the way {@code kubectl get} does.
     *
     * @throws NoMatchException when nothing matches ({@code the server doesn't have a resource type "x"})
     * @throws AmbiguousMatchException when several resources match with equal priority
     */
    RestMapping resolve(String resourceOrKind);

    /**
     * The mapping of a kind in its group's preferred version (or the highest-priority version that
     * serves it). The kind matches exactly or in lower case.
     *
     * @throws NoMatchException when the group does not serve the kind
     * @throws AmbiguousMatchException when several resources serve it with equal priority
     */
    RestMapping mapping(GroupKind groupKind);

    /**
     * The mapping of a kind in exactly this version.
     *
     * @throws NoMatchException when the group version does not serve the kind
     */
    RestMapping mapping(GroupVersionKind groupVersionKind);

    /** Every version's mapping of a kind, highest priority first; empty when none. */
    List<RestMapping> mappings(GroupKind groupKind);

    /**
     * The resources in a category such as {@code all}, in discovery order, each once (kubectl's
     * category expansion).
     */
    List<GroupResource> expandCategory(String category);

    /** Drops what the mapper knows; the next call rebuilds it from (invalidated) discovery. */
    void reset();
}
