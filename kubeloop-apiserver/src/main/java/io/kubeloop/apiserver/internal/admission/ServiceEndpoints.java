package io.kubeloop.apiserver.internal.admission;

import io.kubeloop.apiserver.internal.storage.Metadata;
import io.kubeloop.apiserver.internal.storage.VersionedStore;
import java.net.InetSocketAddress;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * Where a webhook's {@code clientConfig.service} answers, as kube-apiserver's service resolver finds it
 * without a Service network: the Service's port (443 by default) leads to its target port, and the
 * Service's Endpoints give the first address serving it. A Service without a selector and Endpoints
 * written by hand can so point at a webhook server in the test's JVM.
 *
 * <p>Thread-safe (the store is).
 */
public final class ServiceEndpoints {

    private final VersionedStore store;

    public ServiceEndpoints(VersionedStore store) {
        this.store = store;
    }

    /** The address of {@code namespace/name}'s endpoint for Service port {@code port}, if any. */
    public Optional<InetSocketAddress> resolve(String namespace, String name, int port) {
        Optional<JsonNode> service =
                store.get("/services", Metadata.key(namespace, name)).map(o -> (JsonNode) o.object());
        if (service.isEmpty()) {
            return Optional.empty();
        }
        JsonNode target = null;
        for (JsonNode p : service.get().path("spec").path("ports")) {
            if (p.path("port").asInt() == port) {
                target = p.has("targetPort") ? p.get("targetPort") : p.get("port");
            }
        }
        if (target == null) {
            return Optional.empty();
        }
        JsonNode subsets = store.get("/endpoints", Metadata.key(namespace, name))
                .map(o -> o.object().path("subsets"))
                .orElse(service.get().path("none"));
        for (JsonNode subset : subsets) {
            Integer endpointPort = null;
            for (JsonNode p : subset.path("ports")) {
                boolean byName =
                        target.isString() && p.path("name").asString("").equals(target.asString());
                boolean byNumber = target.isNumber() && p.path("port").asInt() == target.asInt();
                if (byName || byNumber) {
                    endpointPort = p.path("port").asInt();
                }
            }
            JsonNode address = subset.path("addresses").path(0);
            if (endpointPort != null && address.has("ip")) {
                return Optional.of(new InetSocketAddress(address.path("ip").asString(), endpointPort));
            }
        }
        return Optional.empty();
    }
}
