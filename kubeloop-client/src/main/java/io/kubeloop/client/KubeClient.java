package io.kubeloop.client;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.GroupVersionResource;
import io.kubeloop.api.PartialObjectMetadata;
import io.kubeloop.api.ResourceScope;
import io.kubeloop.api.Scheme;
import io.kubeloop.client.config.ClientConfig;
import io.kubeloop.client.discovery.DiscoveryClient;
import io.kubeloop.client.discovery.RestMapper;
import io.kubeloop.client.http.ApiTransport;
import io.kubeloop.client.http.Interceptor;
import io.kubeloop.client.http.RequestMetrics;
import io.kubeloop.client.internal.http.DefaultApiTransport;

/**
 * The entry point of kubeloop's REST client: one per API server, shared by every controller,
 * informer and tool in the process.
 *
 * {@snippet :
 * try (KubeClient client = KubeClient.create(config, ClientOptions.defaults())) {
 *     ResourceClient<DynamicObject> deployments = client.resource(
 *             new GroupVersionResource("apps", "v1", "deployments"), ResourceScope.NAMESPACED, DynamicObject.class);
 *     DynamicObject web = deployments.get("web");
 * }
 * }
 *
 * <p>Resource clients are addressed three ways, all ending in
 * {@link #resource(GroupVersionResource, ResourceScope, Class)}: by resource and scope; by Java type
 * through the {@link io.kubeloop.api.Scheme}; by kubectl name ({@code deploy}) through the
 * {@link RestMapper}.
 *
 * <p><b>Thread safety.</b> Thread-safe; create one and share it. {@link #close()} closes the
 * transport, ending open watches.
 */
public interface KubeClient extends AutoCloseable {

    /** A client over a new {@code DefaultApiTransport} for {@code config}. */
    static KubeClient create(ClientConfig config, ClientOptions options) {
        return new DefaultKubeClient(DefaultApiTransport.create(config, options), config.namespace(), options);
    }

    /**
     * A client for the environment, resolved as controller-runtime does: KUBECONFIG, else the
     * in-cluster service account, else {@code ~/.kube/config} (see {@link ClientConfig#auto()}).
     */
    static KubeClient create() {
        return create(ClientConfig.auto(), ClientOptions.defaults());
    }

    /** A client over an existing transport (closing the client closes it), with default options. */
    static KubeClient create(ApiTransport transport, String defaultNamespace) {
        return new DefaultKubeClient(transport, defaultNamespace, ClientOptions.defaults());
    }

    /**
     * A client for one resource, starting in {@link #namespace()} when namespaced.
     *
     * @param gvr the resource, e.g. {@code deployments.v1.apps}
     * @param scope whether the resource lives in namespaces (discovery says so; a CRD's {@code spec.scope})
     * @param type {@link io.kubeloop.api.DynamicObject} or any Jackson-mappable type
     */
    <T> ResourceClient<T> resource(GroupVersionResource gvr, ResourceScope scope, Class<T> type);

    /**
     * A client for a Java type known to the {@link ClientOptions#scheme() scheme} (built-in kinds,
     * types registered there, or records annotated with {@link io.kubeloop.api.Kind @Kind}). When the
     * scheme knows the kind but not its resource name and scope, discovery is asked.
     *
     * @throws IllegalArgumentException when the type has no kind in the scheme
     */
    <T> ResourceClient<T> resource(Class<T> type);

    /**
     * A dynamic client for a resource named as kubectl accepts it: {@code deploy},
     * {@code deployments}, {@code deployment}, {@code Deployment}, {@code deployments.apps},
     * {@code deployments.v1.apps}. Resolved through {@link #restMapper()}.
     *
     * @throws io.kubeloop.client.discovery.RestMappingException when the server has no such resource
     */
    ResourceClient<DynamicObject> resource(String resourceOrKind);

    /**
     * A client that reads only the metadata of {@code gvr}'s objects: gets, lists and watches ask for
     * {@code meta.k8s.io/v1} PartialObjectMetadata (client-go's metadata client), and objects come back
     * with {@code kind: PartialObjectMetadata}. A server that cannot answer so sends whole objects,
     * of which only the metadata is kept.
     *
     * @param gvr the resource
     * @param scope whether it lives in namespaces
     */
    ResourceClient<PartialObjectMetadata> metadataResource(GroupVersionResource gvr, ResourceScope scope);

    /** Discovery for this server: in memory, or on disk when {@link ClientOptions#discoveryCacheDir()} is set. */
    DiscoveryClient discovery();

    /** The REST mapper over {@link #discovery()}; a miss refreshes discovery once. */
    RestMapper restMapper();

    /** The scheme mapping Java types to kinds ({@link ClientOptions#scheme()}). */
    Scheme scheme();

    /** GETs of arbitrary server paths ({@code kubectl get --raw}). */
    RawClient raw();

    /** The transport, for callers that build their own requests (discovery). */
    ApiTransport transport();

    /** The default namespace (the kubeconfig context's, else {@code default}). */
    String namespace();

    /**
     * A view of this client whose every request passes {@code interceptor} first, before this client's
     * own pipeline (the {@link ClientOptions#interceptors() application interceptors}, retries, rate
     * limit, authentication): for a component that must observe or decorate all the requests it makes
     * through a client it was given, such as a manager recording the API access of its controllers.
     *
     * {@snippet :
     * KubeClient traced = client.withInterceptor(chain -> chain.proceed(chain.request().withHeader("X-Trace", "1")));
     * }
     *
     * <p>The view shares this client's transport and connections, scheme and default namespace;
     * discovery and the REST mapper are the view's own (their requests pass the interceptor too).
     * Requests made through this client itself do not pass the interceptor. Closing the view closes
     * nothing: the connections belong to this client, which closes them. Views of views stack, the
     * last added running first.
     *
     * <p><b>Thread safety.</b> The view is thread-safe as this client is; the interceptor is called
     * from every thread that uses the view, at once, so it must be thread-safe (see {@link Interceptor}).
     *
     * @param interceptor called for each request made through the view, under {@link Interceptor}'s contract
     * @return the view
     */
    KubeClient withInterceptor(Interceptor interceptor);

    /**
     * A view of this client whose requests report to {@code metrics}: each call's latency, each
     * attempt's status, the client-side rate limiter's waits and the retries, labelled as client-go
     * labels them (see {@link RequestMetrics}). A manager attaches its registry this way by itself.
     *
     * <p>The view shares this client's connections, rate limiter, authentication and interceptors; views
     * made from it with {@link #withInterceptor} report too. Requests made through this client itself
     * are not reported. Closing the view closes nothing. Over a transport of the application's own
     * (not kubeloop's), only each call's latency and status are reported.
     *
     * <p><b>Thread safety.</b> As this client; {@code metrics} is called from every thread that uses the
     * view, at once.
     *
     * @param metrics where the measurements go
     * @return the view
     */
    KubeClient withRequestMetrics(RequestMetrics metrics);

    /** Closes the transport. */
    @Override
    void close();
}
