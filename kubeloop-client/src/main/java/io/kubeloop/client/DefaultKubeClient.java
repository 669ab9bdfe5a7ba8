package io.kubeloop.client;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.GroupVersionResource;
import io.kubeloop.api.PartialObjectMetadata;
import io.kubeloop.api.ResourceMapping;
import io.kubeloop.api.ResourceScope;
import io.kubeloop.api.Scheme;
import io.kubeloop.client.discovery.CachedDiscoveryClient;
import io.kubeloop.client.discovery.DiscoveryCacheLocation;
import io.kubeloop.client.discovery.DiscoveryClient;
import io.kubeloop.client.discovery.DiscoveryRestMapper;
import io.kubeloop.client.discovery.HttpDiscoveryClient;
import io.kubeloop.client.discovery.RestMapper;
import io.kubeloop.client.discovery.RestMapping;
import io.kubeloop.client.http.ApiRequest;
import io.kubeloop.client.http.ApiResponse;
import io.kubeloop.client.http.ApiTransport;
import io.kubeloop.client.http.Interceptor;
import io.kubeloop.client.http.RequestMetrics;
import io.kubeloop.client.internal.http.InterceptedTransport;
import io.kubeloop.client.internal.http.MeteredTransports;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The {@link KubeClient} over one {@link ApiTransport}. Thread-safe: discovery and the REST mapper
 * are created once, on first use, under {@link #lock}.
 */
final class DefaultKubeClient implements KubeClient {

    private final ApiTransport transport;
    private final String namespace;
    private final ClientOptions options;
    private final WatchWatchdog.Limits watchLimits;
    private final RawClient raw = new Raw();
    private final ReentrantLock lock = new ReentrantLock();
    /**
     * Null until first use; written once under {@link #lock}, read without it by the fast path of
     * double-checked locking ({@link #createdDiscovery()}; safe because volatile).
     */
    @GuardedBy("lock")
    private volatile DiscoveryClient discovery;
    /**
     * Null until first use; written once under {@link #lock}, read without it by the fast path of
     * double-checked locking ({@link #createdRestMapper()}; safe because volatile).
     */
    @GuardedBy("lock")
    private volatile RestMapper restMapper;

    DefaultKubeClient(ApiTransport transport, String namespace, ClientOptions options) {
        this.transport = Objects.requireNonNull(transport, "transport");
        this.namespace = namespace == null || namespace.isEmpty() ? "default" : namespace;
        this.options = Objects.requireNonNull(options, "options");
        this.watchLimits = WatchWatchdog.Limits.of(options);
    }

    @Override
    public <T> ResourceClient<T> resource(GroupVersionResource gvr, ResourceScope scope, Class<T> type) {
        boolean namespaced = Objects.requireNonNull(scope, "scope").isNamespaced();
        return new DefaultResourceClient<>(
                transport, new ObjectCodec<>(type), gvr, namespaced, namespaced ? namespace : null, false, watchLimits);
    }

    @Override
    public ResourceClient<PartialObjectMetadata> metadataResource(GroupVersionResource gvr, ResourceScope scope) {
        boolean namespaced = Objects.requireNonNull(scope, "scope").isNamespaced();
        return new DefaultResourceClient<>(
                transport,
                new ObjectCodec<>(PartialObjectMetadata.class),
                gvr,
                namespaced,
                namespaced ? namespace : null,
                false,
                watchLimits,
                DefaultResourceClient.Accept.METADATA);
    }

    @Override
    public <T> ResourceClient<T> resource(Class<T> type) {
        var gvk = options.scheme()
                .gvkOf(type)
                .orElseThrow(() -> new IllegalArgumentException(
                        type.getName() + " has no kind: register it in the Scheme or annotate it with @Kind"));
        ResourceMapping known = options.scheme().mappingOf(type).orElse(null);
        if (known != null) {
            return resource(known.gvr(), known.scope(), type);
        }
        RestMapping mapping = restMapper().mapping(gvk);
        return resource(mapping.groupVersionResource(), mapping.scope(), type);
    }

    @Override
    public ResourceClient<DynamicObject> resource(String resourceOrKind) {
        RestMapping mapping = restMapper().resolve(resourceOrKind);
        return resource(mapping.groupVersionResource(), mapping.scope(), DynamicObject.class);
    }

    /**
     * The fast path's read of {@link #discovery} without the lock: the field is volatile and written
     * once, fully built, under the lock, so a non-null read is the one instance; null sends the caller
     * to the locked path, which reads it again.
     */
    @SuppressWarnings("GuardedBy") // volatile read of double-checked locking; see above
    private DiscoveryClient createdDiscovery() {
        return discovery;
    }

    /** As {@link #createdDiscovery()}, for {@link #restMapper}. */
    @SuppressWarnings("GuardedBy") // volatile read of double-checked locking; see createdDiscovery
    private RestMapper createdRestMapper() {
        return restMapper;
    }

    @Override
    public DiscoveryClient discovery() {
        DiscoveryClient d = createdDiscovery();
        if (d == null) {
            lock.lock();
            try {
                d = discovery;
                if (d == null) {
                    DiscoveryClient http = new HttpDiscoveryClient(transport);
                    d = options.discoveryCacheDir() == null
                            ? http
                            : new CachedDiscoveryClient(
                                    http,
                                    DiscoveryCacheLocation.discoveryDir(
                                            options.discoveryCacheDir(),
                                            transport.server().toString()),
                                    options.discoveryCacheTtl(),
                                    options.ticker());
                    discovery = d;
                }
            } finally {
                lock.unlock();
            }
        }
        return d;
    }

    @Override
    public Scheme scheme() {
        return options.scheme();
    }

    @Override
    public RestMapper restMapper() {
        RestMapper m = createdRestMapper();
        if (m == null) {
            DiscoveryClient d = discovery();
            lock.lock();
            try {
                m = restMapper;
                if (m == null) {
                    m = new DiscoveryRestMapper(d);
                    restMapper = m;
                }
            } finally {
                lock.unlock();
            }
        }
        return m;
    }

    @Override
    public RawClient raw() {
        return raw;
    }

    @Override
    public ApiTransport transport() {
        return transport;
    }

    @Override
    public String namespace() {
        return namespace;
    }

    @Override
    public KubeClient withInterceptor(Interceptor interceptor) {
        return new DefaultKubeClient(new InterceptedTransport(transport, interceptor), namespace, options);
    }

    @Override
    public KubeClient withRequestMetrics(RequestMetrics metrics) {
        return new DefaultKubeClient(
                MeteredTransports.of(transport, Objects.requireNonNull(metrics, "metrics"), options.ticker()),
                namespace,
                options);
    }

    @Override
    public void close() {
        transport.close();
    }

    private final class Raw implements RawClient {
        @Override
        public byte[] get(String pathAndQuery) {
            ApiRequest request = new ApiRequest(
                    "GET",
                    ResourcePaths.raw(transport.server(), pathAndQuery),
                    Map.of("Accept", List.of("application/json, */*")),
                    null,
                    false);
            try (ApiResponse response = transport.send(request).requireSuccess()) {
                return response.bytes();
            }
        }

        @Override
        public <T> T get(String pathAndQuery, Class<T> type) {
            return new ObjectCodec<>(type).read(get(pathAndQuery));
        }
    }
}
