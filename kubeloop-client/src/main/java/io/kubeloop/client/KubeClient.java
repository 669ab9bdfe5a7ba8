package io.kubeloop.client;

import io.kubeloop.api.GroupVersionResource;
import io.kubeloop.client.config.ClientConfig;
import io.kubeloop.client.http.ApiTransport;
import io.kubeloop.client.http.DefaultApiTransport;

/**
 * The entry point of kubeloop's REST client: one per API server, shared by every controller,
 * informer and tool in the process.
 *
 * {@snippet :
 * try (KubeClient client = KubeClient.create(config, ClientOptions.defaults())) {
 *     ResourceClient<DynamicObject> deployments = client.resource(
 *             new GroupVersionResource("apps", "v1", "deployments"), true, DynamicObject.class);
 *     DynamicObject web = deployments.get("web");
 * }
 * }
 *
 * <p>Resource clients are addressed by {@link GroupVersionResource} plus scope here; lookups by Java
 * type (through a Scheme) and by kubectl names ({@code deploy}, through a REST mapper) are meant to
 * be added as further methods that resolve to {@link #resource(GroupVersionResource, boolean, Class)}.
 *
 * <p><b>Thread safety.</b> Thread-safe; create one and share it. {@link #close()} closes the
 * transport, ending open watches.
 */
public interface KubeClient extends AutoCloseable {

    /** A client over a new {@link DefaultApiTransport} for {@code config}. */
    static KubeClient create(ClientConfig config, ClientOptions options) {
        return new DefaultKubeClient(DefaultApiTransport.create(config, options), config.namespace());
    }

    /** A client over an existing transport (closing the client closes it). */
    static KubeClient create(ApiTransport transport, String defaultNamespace) {
        return new DefaultKubeClient(transport, defaultNamespace);
    }

    /**
     * A client for one resource, starting in {@link #namespace()} when namespaced.
     *
     * @param gvr the resource, e.g. {@code deployments.v1.apps}
     * @param namespaced whether the resource lives in namespaces (discovery says so)
     * @param type {@link io.kubeloop.api.DynamicObject} or any Jackson-mappable type
     */
    <T> ResourceClient<T> resource(GroupVersionResource gvr, boolean namespaced, Class<T> type);

    /** GETs of arbitrary server paths ({@code kubectl get --raw}). */
    RawClient raw();

    /** The transport, for callers that build their own requests (discovery). */
    ApiTransport transport();

    /** The default namespace (the kubeconfig context's, else {@code default}). */
    String namespace();

    /** Closes the transport. */
    @Override
    void close();
}
