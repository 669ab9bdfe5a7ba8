package io.kubeloop.controller.internal.client;

import io.kubeloop.cache.InformerFactory;
import io.kubeloop.client.KubeClient;
import io.kubeloop.controller.Cancellation;
import io.kubeloop.controller.client.Cache;
import io.kubeloop.controller.client.CacheOptions;
import io.kubeloop.controller.client.Client;
import io.kubeloop.controller.client.Reader;
import java.util.List;

/**
 * A manager's cache, its cache-backed client and its uncached reader, made together over one kube
 * client and one informer factory.
 *
 * <p><b>Thread safety:</b> immutable; thread-safe.
 */
public final class ManagerClients {

    private final InformerCache cache;
    private final ApiReader apiReader;
    private final ApiClient client;
    private final MissingKinds missingKinds;

    private ManagerClients(KubeClient kube, InformerFactory informers, CacheOptions options, Cancellation stopped) {
        Resources resources = new Resources(kube);
        this.missingKinds = new MissingKinds(kube);
        this.cache = new InformerCache(informers, resources, options, missingKinds);
        this.apiReader = new ApiReader(resources);
        this.client = new ApiClient(cache, resources, List.of(stopped));
    }

    /**
     * The clients of a manager.
     *
     * @param kube the cluster
     * @param informers the manager's informers
     * @param options what the cache holds
     * @param stopped fires when the manager stops or loses leadership; the client refuses every call
     *     afterwards
     * @return the clients
     */
    public static ManagerClients create(
            KubeClient kube, InformerFactory informers, CacheOptions options, Cancellation stopped) {
        return new ManagerClients(kube, informers, options, stopped);
    }

    /** What the cache's informers miss: kinds the server does not serve. */
    public MissingKinds missingKinds() {
        return missingKinds;
    }

    /** The cache. */
    public Cache cache() {
        return cache;
    }

    /** The reader that asks the API server. */
    public Reader apiReader() {
        return apiReader;
    }

    /** The cache-backed client. */
    public Client client() {
        return client;
    }

    /**
     * The client, also refusing every call once {@code cancellation} fired: what a controller's
     * reconciles get.
     *
     * @param cancellation the controller's signal
     * @return the guarded client
     */
    public Client guardedBy(Cancellation cancellation) {
        return client.guardedBy(cancellation);
    }
}
