package io.kubeloop.client.discovery;

import io.kubeloop.api.GroupVersion;
import java.util.List;

/**
 * Finds out which API groups, versions and resources a server serves.
 *
 * <p>Implementations: {@link HttpDiscoveryClient} asks the server every time;
 * {@link CachedDiscoveryClient} answers from kubectl's on-disk cache while it is fresh. Neither
 * retries failed group versions by itself.
 *
 * <p>Implementations are thread-safe. Errors are unchecked: HTTP failures of the top-level documents
 * surface as the transport's {@code ApiException}/{@code TransportException}, unusable documents as
 * {@link DiscoveryException}.
 *
 * @see <a href="https://pkg.go.dev/k8s.io/client-go/discovery#DiscoveryInterface">discovery.DiscoveryInterface</a>
 */
public interface DiscoveryClient {

    /**
     * The served groups with their versions and preferred version, the core group first (when the
     * server has one) and the others in the server's priority order. Group versions that aggregated
     * discovery reports stale are left out.
     */
    List<APIGroup> serverGroups();

    /**
     * The resources (and {@code parent/sub} subresources) of one group version. The core group's
     * {@code v1} answers an empty list when the server has no {@code /api/v1}.
     *
     * @throws RuntimeException the transport's exception when the group version cannot be read
     */
    APIResourceList serverResourcesForGroupVersion(GroupVersion groupVersion);

    /**
     * Groups and the resources of every group version at once. Group versions that fail (stale,
     * HTTP error, malformed document) are recorded in {@link ServerResources#failures()} rather than
     * thrown; only a failure of the group list itself is thrown.
     */
    ServerResources serverGroupsAndResources();

    /** The server's build information ({@code GET /version}); never cached. */
    ServerVersion serverVersion();

    /**
     * Forgets cached discovery data: afterwards only data fetched (or, for the disk cache, written
     * by this client) after the call is used. A no-op for clients without a cache.
     */
    void invalidate();

    /**
     * True when every answer given since the last {@link #invalidate()} came from the server
     * through this client (not from older cached data), i.e. a missing resource will not appear by
     * asking again. A REST mapper retries a miss only when this is false. Always true for clients
     * without a cache.
     */
    default boolean fresh() {
        return true;
    }
}
