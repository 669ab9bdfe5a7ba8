package io.kubeloop.client;

import io.kubeloop.api.GroupVersionResource;
import io.kubeloop.client.http.ApiRequest;
import io.kubeloop.client.http.ApiResponse;
import io.kubeloop.client.http.ApiTransport;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** The {@link KubeClient} over one {@link ApiTransport}. Immutable and thread-safe. */
final class DefaultKubeClient implements KubeClient {

    private final ApiTransport transport;
    private final String namespace;
    private final RawClient raw = new Raw();

    DefaultKubeClient(ApiTransport transport, String namespace) {
        this.transport = Objects.requireNonNull(transport, "transport");
        this.namespace = namespace == null || namespace.isEmpty() ? "default" : namespace;
    }

    @Override
    public <T> ResourceClient<T> resource(GroupVersionResource gvr, boolean namespaced, Class<T> type) {
        return new DefaultResourceClient<>(transport, new ObjectCodec<>(type), gvr, namespaced,
                namespaced ? namespace : null, false);
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
    public void close() {
        transport.close();
    }

    private final class Raw implements RawClient {
        @Override
        public byte[] get(String pathAndQuery) {
            ApiRequest request = new ApiRequest("GET", ResourcePaths.raw(transport.server(), pathAndQuery),
                    Map.of("Accept", List.of("application/json, */*")), null, false);
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
